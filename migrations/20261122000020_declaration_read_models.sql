-- Read models of the declaration query side, fed by the projections `declaration_list`
-- (rm_declarations) and `declaration_history` (rm_declaration_history).
--
-- Index choices (checked with EXPLAIN ANALYZE on 1,000,000 generated rows, figures in the
-- query crate's declaration_list module): every list query is "filters, ORDER BY
-- created_at DESC, LIMIT n" plus a count(*) over the same filters. Deleted declarations
-- (status 5) are hidden unless status 5 is asked for, so most indexes are partial on
-- `status <> 5` and both serve the ordered top-n scan and an index-only count. Few indexes,
-- because every status change rewrites them (status is indexed, so no HOT update) and the
-- projection must keep up with >= 50,000 events/s.

CREATE TABLE rm_declarations (
    id uuid PRIMARY KEY,
    -- Stream version and global position of the last event applied.
    version bigint NOT NULL,
    position bigint NOT NULL,
    tracking_number text,
    -- Type code OB OC OD IB IC ID; class B/C/D; shipment type 0 import, 1 export.
    declaration_type text NOT NULL,
    declaration_class text NOT NULL,
    shipment_type smallint NOT NULL,
    status smallint NOT NULL,
    -- 0 incomplete, 1 complete. Until the command side records completeness in its events:
    -- 1 once the declaration has been submitted at least once (submit validates it).
    draft_status smallint NOT NULL DEFAULT 0,
    -- The last customs receipt code (P, R, E, Z, Y ...).
    declaration_status text,
    customer_id uuid NOT NULL,
    username text NOT NULL,
    company_name text,
    port text,
    slic text,
    service_type text,
    estimated_pickup_time timestamptz,
    goods_count integer NOT NULL DEFAULT 0,
    -- Sum of the goods lines' totalPrice (NULL when no line has one).
    total_value numeric,
    -- The first goods line's currency, else the shipment form's currencyCode.
    currency text,
    -- consigneeCompanyCn, else recipientName.
    consignee_name text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    -- The last time it was submitted.
    submitted_at timestamptz,
    -- The whole DeclarationData (form fields and goods lines) for the detail page.
    data jsonb NOT NULL DEFAULT '{}'::jsonb
);

-- Staff lists without a type or with a class letter, all live statuses: newest first.
CREATE INDEX rm_declarations_live_created_idx
    ON rm_declarations (created_at DESC, id DESC) WHERE status <> 5;
-- One type code, all live statuses: ordered scan and index-only count.
CREATE INDEX rm_declarations_type_live_created_idx
    ON rm_declarations (declaration_type, created_at DESC, id DESC) WHERE status <> 5;
-- One type code and one status (5 included): ordered scan, counts by status.
CREATE INDEX rm_declarations_type_status_created_idx
    ON rm_declarations (declaration_type, status, created_at DESC, id DESC);
-- A customer's own lists and counts (customers are forced to their customer id).
CREATE INDEX rm_declarations_customer_idx
    ON rm_declarations (customer_id, declaration_type, status, created_at DESC);
-- The status query: one or many exact tracking numbers.
CREATE INDEX rm_declarations_tracking_number_idx ON rm_declarations (tracking_number);
-- Export and list filters by carrier port / SLIC and by customer account.
CREATE INDEX rm_declarations_port_slic_idx ON rm_declarations (port, slic, created_at DESC);
CREATE INDEX rm_declarations_username_idx ON rm_declarations (username, created_at DESC);

-- One row per declaration event, for the history timeline and the activity feed.
CREATE TABLE rm_declaration_history (
    position bigint PRIMARY KEY,
    declaration_id uuid NOT NULL,
    version bigint NOT NULL,
    recorded_at timestamptz NOT NULL,
    actor_id uuid,
    actor_name text,
    actor_role text,
    event_type text NOT NULL,
    -- DeclarationEvent::action(): create, edit, submit, review ...
    action text NOT NULL,
    from_status smallint,
    to_status smallint,
    reason text,
    receipt_code text,
    -- [{field, old, new}] for edits and amendments, [] otherwise.
    changes jsonb NOT NULL DEFAULT '[]'::jsonb,
    -- For the activity feed's filters, as they stood when the event happened.
    customer_id uuid,
    tracking_number text,
    declaration_type text
);

CREATE UNIQUE INDEX rm_declaration_history_declaration_version_idx
    ON rm_declaration_history (declaration_id, version);
CREATE INDEX rm_declaration_history_recorded_idx
    ON rm_declaration_history (recorded_at DESC, position DESC);
CREATE INDEX rm_declaration_history_customer_idx
    ON rm_declaration_history (customer_id, recorded_at DESC);
CREATE INDEX rm_declaration_history_actor_idx
    ON rm_declaration_history (actor_name, recorded_at DESC);
CREATE INDEX rm_declaration_history_action_idx
    ON rm_declaration_history (action, recorded_at DESC);
CREATE INDEX rm_declaration_history_tracking_idx
    ON rm_declaration_history (tracking_number);
