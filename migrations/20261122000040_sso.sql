-- Staff single sign-on (OpenID Connect, docs/sso.md). Operational rows, not events: a
-- pending sign-in is a short-lived secret, and the ID token kept for the logout hint is a
-- credential-like artefact that must not enter the immutable, replayable log.

-- One row per started sign-in: `state` (random, in the authorization URL), the `nonce` the
-- ID token must carry, and the S256 challenge of the PKCE verifier that the browser keeps
-- (the verifier itself never leaves the browser until the callback). Single use: the
-- callback deletes the row before anything else; rows older than 10 minutes are refused
-- and swept.
CREATE TABLE sso_pending (
    state           TEXT PRIMARY KEY,
    nonce           TEXT NOT NULL,
    pkce_challenge  TEXT NOT NULL,
    redirect_uri    TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sso_pending_created ON sso_pending (created_at);

-- Which provider identity is which staff account. Made at the first sign-in (matched by
-- e-mail); later sign-ins must come from the same subject (`oid`, else `sub`), and an
-- account links to one subject per issuer.
CREATE TABLE sso_links (
    issuer         TEXT NOT NULL,
    subject        TEXT NOT NULL,
    account_id     UUID NOT NULL,
    email          TEXT NOT NULL,
    tenant         TEXT,
    linked_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_login_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (issuer, subject),
    UNIQUE (issuer, account_id)
);

-- The ID token of each session opened by single sign-on, for the provider's logout
-- (`id_token_hint`). Swept once the session has ended (expired or revoked).
CREATE TABLE sso_sessions (
    session_id  UUID PRIMARY KEY REFERENCES auth_sessions (session_id) ON DELETE CASCADE,
    account_id  UUID NOT NULL,
    id_token    TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX sso_sessions_created ON sso_sessions (created_at);

-- Staff are matched by the e-mail in their account events: a small partial index so the
-- first sign-in does not scan the whole log.
CREATE INDEX events_account_email ON events (lower(payload->>'email'))
    WHERE stream_type = 'account';
