-- HS code suggestions (GET /api/v1/hs-suggestions, docs/ai-create.md "HS code suggestions").
--
-- Full-text search vectors: English words through PostgreSQL's `english` configuration
-- (Snowball stems), Chinese words segmented by jieba in Rust (crate `textsearch`) through
-- `simple`; one GIN index per searched table.

-- The HS 2022 nomenclature (seeds/hs2022_nomenclature.csv), loaded by `clearway seed`:
-- chapters, headings and subheadings. Reference data shipped with the binary, not a read
-- model of events. A subheading's vector holds its own description (weight A), its
-- heading's (B) and its chapter's (C).
CREATE TABLE hs_nomenclature (
    code        TEXT PRIMARY KEY,
    level       SMALLINT NOT NULL CHECK (level IN (2, 4, 6)),
    section     TEXT NOT NULL,
    description TEXT NOT NULL,
    parent      TEXT,
    search      TSVECTOR NOT NULL
);
CREATE INDEX hs_nomenclature_search ON hs_nomenclature USING GIN (search);
CREATE INDEX hs_nomenclature_code ON hs_nomenclature (code text_pattern_ops);

-- Chinese tariff descriptions, from the reference table `hs-tariff-zh` (import-reference):
-- every imported version, one row per code; the version in force is the latest
-- effective_from on or before today. Written by the projection `reference_rows`.
CREATE TABLE rm_hs_tariff_zh (
    effective_from DATE NOT NULL,
    code           TEXT NOT NULL,
    description    TEXT NOT NULL,
    legal_unit_one TEXT,
    legal_unit_two TEXT,
    elements       TEXT,
    search         TSVECTOR NOT NULL,
    PRIMARY KEY (effective_from, code)
);
CREATE INDEX rm_hs_tariff_zh_search ON rm_hs_tariff_zh USING GIN (search);
CREATE INDEX rm_hs_tariff_zh_code ON rm_hs_tariff_zh (code text_pattern_ops);

-- The customer's products, searchable the same way (written by `master_data_directory`).
-- Rows projected before this migration get their English words here; their Chinese words
-- come with `clearway rebuild master_data_directory` (or the product's next change).
ALTER TABLE rm_products ADD COLUMN search TSVECTOR;
UPDATE rm_products
   SET search = to_tsvector('english', description_cn || ' ' || coalesce(description_en, ''));
CREATE INDEX rm_products_search ON rm_products USING GIN (search) WHERE NOT deleted;
