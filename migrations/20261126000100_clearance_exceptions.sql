-- Clearance exceptions: the list/detail read model and the per-event history, both written
-- by the projection `clearance_exception_list`.
CREATE TABLE rm_clearance_exceptions (
    id                 uuid PRIMARY KEY,
    version            bigint      NOT NULL,
    position           bigint      NOT NULL,
    declaration_id     uuid        NOT NULL,
    customer_id        uuid        NOT NULL,
    username           text        NOT NULL,
    company_name       text,
    declaration_type   text        NOT NULL,
    -- 0 import, 1 export (from the declaration type's direction)
    shipment_type      smallint    NOT NULL,
    tracking_number    text,
    port               text,
    status             smallint    NOT NULL,
    -- the declaration's status when the exception was raised
    declaration_status smallint    NOT NULL,
    form               jsonb       NOT NULL,
    proposed_changes   jsonb       NOT NULL DEFAULT '[]',
    confirmed          boolean     NOT NULL DEFAULT false,
    -- the last notice's channels and contacts
    channels           jsonb       NOT NULL DEFAULT '[]',
    contacts           jsonb       NOT NULL DEFAULT '[]',
    notice_count       integer     NOT NULL DEFAULT 0,
    documents          jsonb       NOT NULL DEFAULT '[]',
    last_reason        text,
    created_at         timestamptz NOT NULL,
    created_by         text,
    updated_at         timestamptz NOT NULL,
    -- when the current status began (the SLA's "waiting since")
    status_since       timestamptz NOT NULL
);

CREATE INDEX rm_clearance_exceptions_created ON rm_clearance_exceptions (created_at, id);
CREATE INDEX rm_clearance_exceptions_customer ON rm_clearance_exceptions (customer_id, created_at);
CREATE INDEX rm_clearance_exceptions_declaration ON rm_clearance_exceptions (declaration_id);
CREATE INDEX rm_clearance_exceptions_tracking ON rm_clearance_exceptions (tracking_number);

CREATE TABLE rm_clearance_exception_history (
    exception_id uuid        NOT NULL,
    version      bigint      NOT NULL,
    position     bigint      NOT NULL,
    recorded_at  timestamptz NOT NULL,
    customer_id  uuid        NOT NULL,
    actor_id     uuid,
    actor_name   text,
    actor_role   text,
    event_type   text        NOT NULL,
    action       text        NOT NULL,
    from_status  smallint,
    to_status    smallint,
    reason       text,
    note         text,
    -- the event's payload (channels, contacts, changes, document)
    detail       jsonb       NOT NULL,
    PRIMARY KEY (exception_id, version)
);
