-- Ports and their facilities (projection port_directory) and the administration audit view
-- (projection admin_audit). Both are read models: rebuilt from the events at will.

-- One row per port stream; a deleted port keeps its row with deleted = true.
CREATE TABLE rm_ports (
    port_id          UUID PRIMARY KEY,
    port_code        TEXT NOT NULL,
    port_name        TEXT NOT NULL,
    port_name_en     TEXT,
    declaration_slic TEXT NOT NULL,
    create_by        TEXT,
    create_time      TIMESTAMPTZ NOT NULL,
    update_by        TEXT,
    update_time      TIMESTAMPTZ NOT NULL,
    deleted          BOOLEAN NOT NULL DEFAULT false,
    version          BIGINT NOT NULL
);
CREATE INDEX rm_ports_live ON rm_ports (port_code) WHERE NOT deleted;

-- One row per facility ever added; a removed one (or one of a deleted port) has deleted = true.
CREATE TABLE rm_port_slics (
    slic_id           UUID PRIMARY KEY,
    port_id           UUID NOT NULL,
    ups_facility_name TEXT NOT NULL,
    ups_facility_slic TEXT NOT NULL,
    create_by         TEXT,
    create_time       TIMESTAMPTZ NOT NULL,
    update_by         TEXT,
    update_time       TIMESTAMPTZ NOT NULL,
    deleted           BOOLEAN NOT NULL DEFAULT false,
    -- the port stream version of the last event applied to this row
    version           BIGINT NOT NULL
);
CREATE INDEX rm_port_slics_port ON rm_port_slics (port_id, ups_facility_slic);

-- Every event of the administration streams (account, role, port, customer): who changed
-- what, from what to what. Keyed by the event's global position (idempotent replay).
CREATE TABLE rm_admin_audit (
    position      BIGINT PRIMARY KEY,
    recorded_at   TIMESTAMPTZ NOT NULL,
    actor_id      UUID,
    actor_name    TEXT,
    actor_role    TEXT,
    subject_type  TEXT NOT NULL,
    subject_id    UUID NOT NULL,
    subject_label TEXT,
    action        TEXT NOT NULL,
    changes       JSONB NOT NULL DEFAULT '[]',
    reason        TEXT
);
CREATE INDEX rm_admin_audit_time ON rm_admin_audit (recorded_at DESC, position DESC);
CREATE INDEX rm_admin_audit_subject ON rm_admin_audit (subject_id, position DESC);
CREATE INDEX rm_admin_audit_actor ON rm_admin_audit (lower(actor_name), position DESC);

-- What the audit knows of each subject: its label (username, role code, port code, customer
-- username), learnt from the events that name it, and the last value of each field it saw, so
-- an event that carries only new values ("...Changed") is shown from -> to.
CREATE TABLE rm_admin_audit_subjects (
    subject_id UUID PRIMARY KEY,
    label      TEXT,
    state      JSONB NOT NULL DEFAULT '{}'
);
