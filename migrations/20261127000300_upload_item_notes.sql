-- Upload details: a row that went into a declaration may carry a note (its HS code was
-- filled from the product library). Notes are neither abnormal nor repeated rows: the
-- abnormal and repeated tabs and the error file leave them out.
ALTER TABLE rm_upload_items ADD COLUMN note boolean NOT NULL DEFAULT false;
