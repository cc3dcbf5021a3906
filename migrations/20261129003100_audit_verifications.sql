-- Verification runs of the audit chain started from the API (docs/compliance.md): one row per
-- run, its progress written by the running server about once a second (`heartbeat_at`), its
-- result when done. At most one run at a time across all servers (the partial unique index);
-- a run whose server died (no heartbeat for 30 s) reads as, and is marked, abandoned.
CREATE TABLE audit_verifications (
    id uuid PRIMARY KEY,
    started_by uuid NOT NULL,
    started_by_name text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    heartbeat_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    state text NOT NULL CHECK (state IN ('running', 'held', 'broken', 'failed', 'abandoned')),
    done bigint NOT NULL DEFAULT 0,
    total bigint NOT NULL DEFAULT 0,
    verified_to bigint,
    sealed_to bigint,
    seals_checked bigint,
    unchained bigint,
    first_break jsonb,
    error text
);

CREATE UNIQUE INDEX audit_verifications_one_running ON audit_verifications ((true))
    WHERE state = 'running';
CREATE INDEX audit_verifications_started ON audit_verifications (started_at DESC);
