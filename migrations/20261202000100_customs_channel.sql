-- The customs channel (docs/customs.md).
--
-- customs_messages: one row per message to write to the exchange folder's outbox/, added by
-- the projection `customs_outbox` when a declaration is declared (1 -> 2), re-declared
-- (10 -> 2) or sent again, and drained by the customs writer. A ledger, not a read model
-- that a rebuild empties: a replay inserts no CopNo twice and never turns a written row
-- back to pending.
-- status: pending (to write), writing (the bytes are fixed in `body`; the file may or may
-- not be in outbox/ yet), sent (recorded on the declaration), refused (not valid against the
-- schema; recorded), skipped (the declaration had left status 2 before it could be written).
CREATE TABLE customs_messages (
    cop_no          text PRIMARY KEY,
    declaration_id  uuid        NOT NULL,
    -- the declaration's stream version the message is made from
    made_from_version bigint    NOT NULL,
    kind            text        NOT NULL DEFAULT 'declaration',
    file_name       text        NOT NULL,
    status          text        NOT NULL DEFAULT 'pending',
    body            bytea,
    sha256          text,
    error           text,
    claims          integer     NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    created_at      timestamptz NOT NULL,
    written_at      timestamptz
);

CREATE INDEX customs_messages_due ON customs_messages (next_attempt_at)
    WHERE status IN ('pending', 'writing');
CREATE INDEX customs_messages_declaration ON customs_messages (declaration_id, created_at);

-- rm_customs_receipts: every receipt recorded on a declaration (the channel page's counts).
CREATE TABLE rm_customs_receipts (
    cop_no          text        NOT NULL,
    channel         text        NOT NULL,
    notice_date     timestamptz NOT NULL,
    declaration_id  uuid        NOT NULL,
    effect          text        NOT NULL,
    note            text,
    recorded_at     timestamptz NOT NULL,
    PRIMARY KEY (cop_no, channel, notice_date)
);
CREATE INDEX rm_customs_receipts_recorded ON rm_customs_receipts (recorded_at);

-- rm_customs_anomalies: receipts the channel could not apply, open until settled.
CREATE TABLE rm_customs_anomalies (
    id              uuid PRIMARY KEY,
    kind            text        NOT NULL,
    reason          text        NOT NULL,
    cop_no          text        NOT NULL,
    channel         text        NOT NULL,
    notice_date     timestamptz NOT NULL,
    receipt         jsonb       NOT NULL,
    source          text        NOT NULL,
    declaration_id  uuid,
    recorded_at     timestamptz NOT NULL,
    version         bigint      NOT NULL,
    settled_action  text,
    settled_note    text,
    settled_declaration_id uuid,
    settled_at      timestamptz,
    settled_by      text
);
CREATE INDEX rm_customs_anomalies_open ON rm_customs_anomalies (recorded_at) WHERE settled_at IS NULL;

-- customs_push_seen: the signatures of receipts pushed to POST /api/v1/customs/receipts
-- inside the accepted window; a second request with one is a replay (refused).
CREATE TABLE customs_push_seen (
    signature   text PRIMARY KEY,
    received_at timestamptz NOT NULL DEFAULT now()
);
