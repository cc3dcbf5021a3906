-- Sign-in state that must not live in the immutable event log.
-- Password hashes: secrets never go into events (the log is replayed and audited).
CREATE TABLE credentials (
    account_id    UUID PRIMARY KEY,
    password_hash TEXT NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Server-side sessions: a token is valid only while its session lives, so logout and
-- disabling an account revoke it at once. The sliding refresh rotates `current_jti`; the
-- previous token keeps working for 30 s so concurrent requests are not cut off.
CREATE TABLE auth_sessions (
    session_id       UUID PRIMARY KEY,
    account_id       UUID NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    absolute_expiry  TIMESTAMPTZ NOT NULL,
    current_jti      UUID NOT NULL,
    current_iat      BIGINT NOT NULL,
    previous_jti     UUID,
    rotated_at       TIMESTAMPTZ,
    revoked_at       TIMESTAMPTZ
);
CREATE INDEX auth_sessions_account ON auth_sessions (account_id) WHERE revoked_at IS NULL;
