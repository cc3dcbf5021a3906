-- Where each projection stands in the global feed. Written in the same transaction as the
-- projection's read-model rows, so the two can never disagree.
CREATE TABLE projection_checkpoints (
    name text PRIMARY KEY,
    tx_id xid8 NOT NULL DEFAULT '0'::xid8,
    position bigint NOT NULL DEFAULT 0,
    events_processed bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);
