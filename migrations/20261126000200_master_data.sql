-- Read models of the customer master data, fed by the projection `master_data_directory`
-- from the `trade_company`, `product` and `mapping_scheme` streams. One row per record;
-- `version` is the record's stream version (its If-Match version) and guards every write,
-- so an event applied twice changes nothing. Deleted records keep their row (deleted = true).

CREATE TABLE rm_trade_companies (
    company_id       UUID PRIMARY KEY,
    customer_id      UUID NOT NULL,
    company_name_cn  TEXT NOT NULL,
    company_name_en  TEXT,
    uscc             TEXT NOT NULL,
    customs_code     TEXT,
    inspection_code  TEXT,
    address          TEXT,
    create_by        TEXT,
    create_time      TIMESTAMPTZ NOT NULL,
    update_by        TEXT,
    update_time      TIMESTAMPTZ NOT NULL,
    deleted          BOOLEAN NOT NULL DEFAULT false,
    version          BIGINT NOT NULL
);
CREATE INDEX rm_trade_companies_customer ON rm_trade_companies (customer_id, update_time DESC)
    WHERE NOT deleted;

CREATE TABLE rm_products (
    product_id           UUID PRIMARY KEY,
    customer_id          UUID NOT NULL,
    description_cn       TEXT NOT NULL,
    description_en       TEXT,
    hs_code              TEXT NOT NULL,
    declaration_elements TEXT,
    declared_unit        TEXT NOT NULL,
    legal_unit_one       TEXT,
    legal_unit_two       TEXT,
    origin_country       TEXT,
    unit_price           NUMERIC,
    currency             TEXT,
    create_by            TEXT,
    create_time          TIMESTAMPTZ NOT NULL,
    update_by            TEXT,
    update_time          TIMESTAMPTZ NOT NULL,
    deleted              BOOLEAN NOT NULL DEFAULT false,
    version              BIGINT NOT NULL
);
CREATE INDEX rm_products_customer ON rm_products (customer_id, update_time DESC) WHERE NOT deleted;
-- HS prefix search ("8517" finds 8517130000) within a customer's library.
CREATE INDEX rm_products_hs ON rm_products (customer_id, hs_code text_pattern_ops) WHERE NOT deleted;

CREATE TABLE rm_mapping_schemes (
    scheme_id        UUID PRIMARY KEY,
    customer_id      UUID NOT NULL,
    name             TEXT NOT NULL,
    declaration_type TEXT,
    -- The whole definition as the events carry it (events::mapping_scheme::SchemeDefinition):
    -- the upload reads it to match a file's header row and to map its rows.
    definition       JSONB NOT NULL,
    column_count     INTEGER NOT NULL,
    create_by        TEXT,
    create_time      TIMESTAMPTZ NOT NULL,
    update_by        TEXT,
    update_time      TIMESTAMPTZ NOT NULL,
    deleted          BOOLEAN NOT NULL DEFAULT false,
    version          BIGINT NOT NULL
);
CREATE INDEX rm_mapping_schemes_customer ON rm_mapping_schemes (customer_id, update_time DESC)
    WHERE NOT deleted;
