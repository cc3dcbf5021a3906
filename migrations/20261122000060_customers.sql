-- The customer archive (docs/customers.md).

-- Command side: one row per customer username (lower-cased), written in the same transaction
-- as the CustomerRegistered event, so two customers can never share a username (the customer
-- stream ids are random). A deleted customer keeps its name reserved.
CREATE TABLE customer_usernames (
    username_lower TEXT PRIMARY KEY,
    customer_id    UUID NOT NULL UNIQUE
);
INSERT INTO customer_usernames (username_lower, customer_id)
SELECT DISTINCT ON (lower(payload->>'username')) lower(payload->>'username'), stream_id
  FROM events
 WHERE stream_type = 'customer' AND event_type = 'CustomerRegistered'
 ORDER BY lower(payload->>'username'), global_position
ON CONFLICT DO NOTHING;

-- Read model (projection customer_directory): one row per customer stream; a deleted
-- customer keeps its row with status 'deleted' (never shown).
CREATE TABLE rm_customers (
    customer_id       UUID PRIMARY KEY,
    username          TEXT NOT NULL,
    company_name      TEXT NOT NULL,
    city              TEXT,
    port_code         TEXT,
    slic_code         TEXT,
    postal_code       TEXT,
    ups_account       TEXT,
    ups_id            TEXT,
    account_no        TEXT,
    email             TEXT,
    scc               TEXT,
    -- empty: every declaration type
    declaration_types TEXT[] NOT NULL DEFAULT '{}',
    status            TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled', 'deleted')),
    bound_ups_id      TEXT,
    created_at        TIMESTAMPTZ NOT NULL,
    created_by        TEXT,
    updated_at        TIMESTAMPTZ NOT NULL,
    updated_by        TEXT,
    version           BIGINT NOT NULL
);
CREATE INDEX rm_customers_list ON rm_customers (status, username);
CREATE INDEX rm_accounts_customer ON rm_accounts (customer_id) WHERE customer_id IS NOT NULL;
