-- Read model of the reference tables, fed by the projection `reference_rows` from the
-- `reference_table` streams. Every imported version is kept (a declaration dated in the
-- past is shown the codes in force on its date); the query side picks the version in force
-- with "latest effective_from <= date".

CREATE TABLE rm_reference_versions (
    table_name text NOT NULL,
    effective_from date NOT NULL,
    -- Hex SHA-256 of the version's content: the base of the HTTP ETag.
    etag text NOT NULL,
    row_count integer NOT NULL,
    -- Column names in file order, `code` first (jsonb objects do not keep key order).
    columns jsonb NOT NULL DEFAULT '[]',
    source text NOT NULL DEFAULT '',
    -- Global position of the import event: a replayed older event must not overwrite a
    -- newer import of the same (table, date).
    position bigint NOT NULL,
    imported_at timestamptz NOT NULL,
    PRIMARY KEY (table_name, effective_from)
);

CREATE TABLE rm_reference_rows (
    table_name text NOT NULL,
    effective_from date NOT NULL,
    code text NOT NULL,
    -- Order of the row in the imported file: the order the API answers in.
    position integer NOT NULL,
    row jsonb NOT NULL,
    -- No foreign key to rm_reference_versions: a rebuild may truncate the two tables in
    -- any order; the projection replaces a version's rows in the same transaction.
    PRIMARY KEY (table_name, effective_from, code)
);
