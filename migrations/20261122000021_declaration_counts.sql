-- Declaration counters and sort indexes (projection `declaration_list`).
--
-- A list answers its total too, and counting 100,000s of index entries takes 80-400 ms on
-- 1,000,000 declarations. The projection therefore keeps counters per (type code, status,
-- Shanghai day of creation), once for all customers (scope = the nil uuid) and once per
-- customer (scope = customer id). A list whose filters are only type, status, customer
-- and date range sums at most a few thousand counter rows; the counts endpoint reads only
-- counters. Filters on tracking number, port, SLIC or username count the rows themselves.
CREATE TABLE rm_declaration_counts (
    scope uuid NOT NULL,
    declaration_type text NOT NULL,
    status smallint NOT NULL,
    day date NOT NULL,
    n bigint NOT NULL,
    PRIMARY KEY (scope, declaration_type, status, day)
);

-- Sorting a list by another field than the creation time: ordered scans over live rows.
CREATE INDEX rm_declarations_live_updated_idx
    ON rm_declarations (updated_at DESC) WHERE status <> 5;
CREATE INDEX rm_declarations_live_pickup_idx
    ON rm_declarations (estimated_pickup_time DESC) WHERE status <> 5;
