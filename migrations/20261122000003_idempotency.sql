-- Idempotency records for creating commands. A row is inserted, and stays locked, in the
-- same transaction that appends the command's events; it only ever becomes visible to
-- others as 'completed' with the response every repeat of the request receives.
CREATE TABLE idempotency_keys (
    scope text NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed')),
    response jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    PRIMARY KEY (scope, key)
);

-- For purging old keys.
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
