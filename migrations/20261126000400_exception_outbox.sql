-- The notice outbox of clearance exceptions (projection `exception_outbox`, drained by the
-- notice worker).
--
-- rm_exception_notices: what a notice says (shipment, requested documents, proposed
-- changes) and to whom the last one went; rebuilt from the events.
CREATE TABLE rm_exception_notices (
    exception_id     uuid PRIMARY KEY,
    customer_id      uuid        NOT NULL,
    tracking_number  text,
    declaration_type text        NOT NULL,
    requested        jsonb       NOT NULL DEFAULT '[]',
    other_documents  jsonb       NOT NULL DEFAULT '[]',
    proposed_changes jsonb       NOT NULL DEFAULT '[]',
    contacts         jsonb       NOT NULL DEFAULT '[]',
    -- the automatic overdue reminder went out
    reminded         boolean     NOT NULL DEFAULT false
);

-- exception_deliveries: one row per (notice event, channel, recipient). It is a ledger, not
-- a read model the rebuild empties: a replay inserts nothing twice (`delivery_key` is
-- unique) and never turns a delivered row back to pending, so a rebuild sends nothing again.
-- status: pending (due at next_attempt_at), sending (claimed under attempt_key; the send
-- may have happened), sent, failed (no attempt left), not_configured.
CREATE TABLE exception_deliveries (
    id              uuid PRIMARY KEY,
    delivery_key    text        NOT NULL UNIQUE,
    exception_id    uuid        NOT NULL,
    -- the stream version of the notice event (Notified or Rejected) and of the last
    -- delivery event applied to the row
    notice_version  bigint      NOT NULL,
    version         bigint      NOT NULL,
    kind            text        NOT NULL,
    channel         text        NOT NULL,
    party           text        NOT NULL,
    recipient       text        NOT NULL,
    -- as the delivery log shows it (a***@example.com, 138****5678)
    recipient_masked text       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending',
    attempts        integer     NOT NULL DEFAULT 0,
    attempt_key     uuid,
    last_error      text,
    next_attempt_at timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE INDEX exception_deliveries_due ON exception_deliveries (next_attempt_at)
    WHERE status IN ('pending', 'sending');
CREATE INDEX exception_deliveries_exception ON exception_deliveries (exception_id, created_at);
