-- What users see of the customs channel (docs/customs.md, "Screens").
--
-- rm_declarations gains, from the projection `declaration_list`:
--   entry_id, cus_ciq_no    the entry number and unified number customs gave (L/G receipts
--                           store them on the form as entryId / cusCiqNo): the lists search
--                           the entry number, the export has both;
--   customs_receipt(_at)    the code and notice time of the newest receipt customs sent
--                           (late ones included, by notice time); a re-declaration clears it
--                           (the new message has had no answer yet);
--   customs_sent_at         when the newest message was written to outbox/ (the welcome
--                           page's "no receipt long after sending");
--   moved_by_hand           the current status was set by a staff member's complete or
--                           reject (a declaration handled outside the channel), not by a
--                           receipt.
ALTER TABLE rm_declarations
    ADD COLUMN entry_id text,
    ADD COLUMN cus_ciq_no text,
    ADD COLUMN customs_receipt text,
    ADD COLUMN customs_receipt_at timestamptz,
    ADD COLUMN customs_sent_at timestamptz,
    ADD COLUMN moved_by_hand boolean NOT NULL DEFAULT false;

-- The rows already there, from what the database holds (the events are the source; these
-- are the same values the projection derives from them).
UPDATE rm_declarations
SET entry_id = NULLIF(btrim(data->>'entryId'), ''),
    cus_ciq_no = NULLIF(btrim(data->>'cusCiqNo'), '')
WHERE data->>'entryId' IS NOT NULL OR data->>'cusCiqNo' IS NOT NULL;

UPDATE rm_declarations r
SET customs_receipt = x.channel, customs_receipt_at = x.notice_date
FROM (SELECT DISTINCT ON (declaration_id) declaration_id, channel, notice_date
        FROM rm_customs_receipts
       ORDER BY declaration_id, notice_date DESC) AS x
WHERE r.id = x.declaration_id;

UPDATE rm_declarations r
SET customs_sent_at = x.written_at
FROM (SELECT declaration_id, max(written_at) AS written_at
        FROM customs_messages WHERE status = 'sent' GROUP BY declaration_id) AS x
WHERE r.id = x.declaration_id;

UPDATE rm_declarations r
SET moved_by_hand = true
FROM (SELECT DISTINCT ON (declaration_id) declaration_id, action, actor_id
        FROM rm_declaration_history
       WHERE to_status IS NOT NULL AND from_status IS DISTINCT FROM to_status
       ORDER BY declaration_id, version DESC) AS x
WHERE r.id = x.declaration_id AND x.action IN ('complete', 'reject')
  AND x.actor_id IS NOT NULL AND x.actor_id <> '00000000-0000-0000-0000-000000000000';

-- The lists' entry-number search (exact, upper-cased as stored) and receipt filter.
CREATE INDEX rm_declarations_entry_id_idx
    ON rm_declarations (upper(entry_id)) WHERE entry_id IS NOT NULL;
CREATE INDEX rm_declarations_customs_receipt_idx
    ON rm_declarations (customs_receipt, created_at DESC, id DESC) WHERE status <> 5;
-- What customs holds (the staff welcome page): declared or held by an exception.
CREATE INDEX rm_declarations_customs_holds_idx
    ON rm_declarations (status, customs_receipt) WHERE status IN (2, 4);

-- rm_declaration_customs (projection `declaration_customs`): the customs timeline of a
-- declaration, one row per customs event on its stream: a message sent or refused, a
-- re-send asked for, a receipt recorded. `detail` is the event's payload as recorded.
CREATE TABLE rm_declaration_customs (
    position        bigint PRIMARY KEY,
    declaration_id  uuid        NOT NULL,
    version         bigint      NOT NULL,
    -- sent, refused, resend, receipt
    kind            text        NOT NULL,
    cop_no          text        NOT NULL,
    recorded_at     timestamptz NOT NULL,
    actor_name      text,
    detail          jsonb       NOT NULL
);
CREATE INDEX rm_declaration_customs_declaration_idx
    ON rm_declaration_customs (declaration_id, version);
