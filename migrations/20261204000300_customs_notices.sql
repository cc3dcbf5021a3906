-- The customer's opt-in e-mail when customs releases or rejects one of its declarations
-- (docs/notifications.md, "Customs outcomes"), filled by the projection customs_notices.

-- rm_customs_notice_prefs: who chose the e-mail (CustomerCustomsEmailChanged), as of the
-- feed position the projection has reached, so that a receipt is judged by the choice in
-- force when it was recorded. A rebuild empties it and replays the choices in order.
CREATE TABLE rm_customs_notice_prefs (
    customer_id uuid PRIMARY KEY,
    enabled     boolean NOT NULL
);

-- customs_notice_mails: the ledger of e-mails to send, one per receipt event that released
-- or rejected a declaration of an opted-in customer (unique per declaration and receipt
-- version). Not emptied by a rebuild: a replay inserts no receipt twice and never makes a
-- finished row pending again. The worker (command::customs::notices) drains it.
CREATE TABLE customs_notice_mails (
    id               uuid PRIMARY KEY,
    declaration_id   uuid        NOT NULL,
    receipt_version  bigint      NOT NULL,
    customer_id      uuid        NOT NULL,
    receipt_code     text        NOT NULL,
    -- pending, sending, sent, failed, not_configured
    status           text        NOT NULL DEFAULT 'pending',
    attempts         integer     NOT NULL DEFAULT 0,
    last_error       text,
    next_attempt_at  timestamptz NOT NULL,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    UNIQUE (declaration_id, receipt_version)
);
CREATE INDEX customs_notice_mails_due ON customs_notice_mails (next_attempt_at)
    WHERE status IN ('pending', 'sending');
