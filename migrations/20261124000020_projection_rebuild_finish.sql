-- A full rebuild of a projection that derives some of its tables once at the end
-- (Projection::rebuild_finish, e.g. the declaration counters) records here, in the
-- transaction that empties the tables, that this is due; the row goes in the transaction
-- that does it. A rebuild that dies before leaves the row, and the projection's next
-- session (live runtime, `project`, run-once catch-up) finishes the work first.
CREATE TABLE projection_rebuild_finish (
    projection   text PRIMARY KEY,
    requested_at timestamptz NOT NULL DEFAULT now()
);
