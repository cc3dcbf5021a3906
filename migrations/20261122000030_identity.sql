-- Identity: operational sign-in data (not events) and the account read models.

-- Every sign-in attempt (known account or not). Failures since the last success within 15
-- minutes lock the account (login_lockouts); the lock is also an AccountLocked event.
CREATE TABLE login_attempts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  UUID,
    username    TEXT NOT NULL,
    ip          TEXT,
    outcome     TEXT NOT NULL CHECK (outcome IN ('failure', 'success', 'locked', 'refused', 'reset')),
    at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_account ON login_attempts (account_id, at) WHERE account_id IS NOT NULL;
CREATE INDEX login_attempts_at ON login_attempts (at);

CREATE TABLE login_lockouts (
    account_id   UUID PRIMARY KEY,
    locked_until TIMESTAMPTZ NOT NULL,
    failures     INT NOT NULL,
    locked_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Single-use expiring tokens of the password flows; only the SHA-256 of a token is kept.
CREATE TABLE account_tokens (
    token_hash  TEXT PRIMARY KEY,
    account_id  UUID NOT NULL,
    purpose     TEXT NOT NULL CHECK (purpose IN ('setup', 'update', 'reset', 'transfer')),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ
);
CREATE INDEX account_tokens_account ON account_tokens (account_id, purpose) WHERE used_at IS NULL;

-- Read model of the accounts (projection account_directory): staff list, e-mail lookup.
CREATE TABLE rm_accounts (
    account_id        UUID PRIMARY KEY,
    username          TEXT NOT NULL,
    display_name      TEXT NOT NULL,
    email             TEXT,
    staff_id          TEXT,
    customer_id       UUID,
    is_staff          BOOLEAN NOT NULL,
    role_code         TEXT,
    roles             JSONB NOT NULL DEFAULT '[]',
    status            TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'deleted', 'transferred')),
    must_set_password BOOLEAN NOT NULL DEFAULT false,
    reset_forced      TEXT,
    transfer_to       TEXT,
    has_password      BOOLEAN NOT NULL DEFAULT false,
    locked_until      TIMESTAMPTZ,
    created_at        TIMESTAMPTZ NOT NULL,
    created_by        TEXT,
    updated_at        TIMESTAMPTZ NOT NULL,
    updated_by        TEXT,
    version           BIGINT NOT NULL
);
CREATE INDEX rm_accounts_email ON rm_accounts (lower(email));
CREATE INDEX rm_accounts_staff ON rm_accounts (is_staff, status, username);

-- Read model of the roles (projection role_permissions): read by the permission cache.
CREATE TABLE rm_roles (
    role_code    TEXT PRIMARY KEY,
    sort_no      INT NOT NULL,
    permissions  TEXT[] NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    updated_by   TEXT,
    version      BIGINT NOT NULL
);
