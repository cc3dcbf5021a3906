-- Secondary indexes a projection rebuild has dropped (projector::runtime::rebuild): the
-- rebuild empties the read model, drops its non-unique indexes and records their
-- definitions here in the same transaction, replays the feed without index maintenance,
-- then re-creates them in recorded order and deletes the rows, again in one transaction.
-- A rebuild that dies midway leaves its rows here; the next rebuild, and every live
-- projection session of `serve` (and run_once_until_caught_up) re-creates them first.
-- Unique and primary keys are never dropped: the batch SQL's ON CONFLICT and lookups
-- rely on them.
CREATE TABLE projection_rebuild_indexes (
    projection text NOT NULL,
    ordinal integer NOT NULL,
    index_name text NOT NULL,
    -- pg_get_indexdef() of the dropped index.
    definition text NOT NULL,
    PRIMARY KEY (projection, ordinal)
);

-- Two list sorts measured slow over 1,000,000 declarations (docs/benchmarks.md, third
-- round), each now an ordered index-only scan that stops after the page (EXPLAIN ANALYZE,
-- warm, same minute):
-- a class + date range sorted by status (the page's ids in the deferred join): 47 ms over
-- 38,586 index entries and a top-N sort -> 1.9 ms; the type code is INCLUDEd so the filter
-- on it needs no heap visit.
CREATE INDEX IF NOT EXISTS rm_declarations_live_status_created_idx
    ON rm_declarations (status, created_at DESC, id DESC) INCLUDE (declaration_type)
    WHERE status <> 5;
-- a type code and a status sorted by estimated pickup time: a backward scan of
-- rm_declarations_live_pickup_idx filtering on the heap, 110 ms -> 0.1 ms.
CREATE INDEX IF NOT EXISTS rm_declarations_type_status_pickup_idx
    ON rm_declarations (declaration_type, status, estimated_pickup_time, created_at DESC, id DESC);
