-- The event store: one append-only table holding every event of every stream.
CREATE TABLE events (
    global_position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- The writing transaction: readers of the global feed order by (tx_id, global_position)
    -- and only read below the oldest running transaction, so a slow transaction that
    -- commits late can never land behind a reader's checkpoint.
    tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_type text NOT NULL,
    stream_id uuid NOT NULL,
    stream_version bigint NOT NULL CHECK (stream_version >= 1),
    event_id uuid NOT NULL UNIQUE,
    event_type text NOT NULL,
    schema_version int NOT NULL,
    payload jsonb NOT NULL,
    metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version)
);

CREATE INDEX events_tx_position_idx ON events (tx_id, global_position);
CREATE INDEX events_stream_type_idx ON events (stream_type);
-- For `clearway replay` filters.
CREATE INDEX events_event_type_idx ON events (event_type);
CREATE INDEX events_recorded_at_idx ON events (recorded_at);
CREATE INDEX events_actor_id_idx ON events ((metadata ->> 'actorId'));
CREATE INDEX events_actor_name_idx ON events ((metadata ->> 'actorName'));

-- History is immutable: corrections are new events, never edits.
CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the events table is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- Statement level: one wake-up per append, however many events it wrote. Postgres folds
-- identical notifications of one transaction into one and delivers them on commit.
CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('clearway_events', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER events_notify_insert
    AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify();
