-- A projection that cannot apply an event (the same event failed again after its retries)
-- stops there instead of retrying it forever or skipping it: one row per stopped
-- projection names the event and the error, for the health endpoint, the metrics and an
-- admin. Every instance of the projection leaves it alone while the row exists; resuming
-- (`clearway resume NAME`, `POST /api/v1/admin/projections/{name}/resume`) deletes the row,
-- and the projection retries the event.
CREATE TABLE projection_stops (
    projection  text PRIMARY KEY,
    position    bigint NOT NULL,
    tx_id       bigint NOT NULL,
    stream_type text NOT NULL,
    stream_id   uuid NOT NULL,
    event_id    uuid NOT NULL,
    event_type  text NOT NULL,
    error       text NOT NULL,
    attempts    integer NOT NULL,
    stopped_at  timestamptz NOT NULL DEFAULT now()
);
