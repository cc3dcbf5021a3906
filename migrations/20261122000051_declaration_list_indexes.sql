-- Two list shapes measured slow over 1,000,000 declarations (docs/benchmarks.md):
-- a customer's list without type/status filters (63-82 ms -> 1-9 ms), and a staff filter on
-- username + status, whose count became index-only (380-580 ms -> 8-17 ms).
CREATE INDEX IF NOT EXISTS rm_declarations_customer_created_idx
    ON rm_declarations (customer_id, created_at DESC, id DESC) WHERE status <> 5;
DROP INDEX IF EXISTS rm_declarations_username_idx;
CREATE INDEX IF NOT EXISTS rm_declarations_username_idx
    ON rm_declarations (username, status, created_at DESC);
