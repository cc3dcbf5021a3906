-- rm_declarations.data (the whole form, ~3 KB) is written whole and read whole: by the
-- detail endpoint, which parses it in Rust, and by the export, which takes two fields. As
-- jsonb, every write made PostgreSQL parse the text into its binary form (sort the keys,
-- build the tree), a third of the apply time of a `declaration_list` rebuild; `json` only
-- checks the text. The query side never indexes or compares the form's contents.
ALTER TABLE rm_declarations
    ALTER COLUMN data DROP DEFAULT,
    ALTER COLUMN data TYPE json USING data::json,
    ALTER COLUMN data SET DEFAULT '{}'::json,
    ALTER COLUMN data SET COMPRESSION lz4;
