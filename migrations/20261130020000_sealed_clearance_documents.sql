-- The files of clearance exceptions (identity and passport scans among them) are sealed
-- under a data subject of their exception (docs/personal-data.md): one row per exception and
-- content, its bytes ChaCha20-Poly1305 ciphertext under the key of `subject`, so that an
-- erasure (which destroys that key) leaves them unreadable. Rows stored before this keep
-- `subject` NULL (plaintext) until the retention sweep deletes them.
ALTER TABLE clearance_document_blobs DROP CONSTRAINT clearance_document_blobs_pkey;
ALTER TABLE clearance_document_blobs
    ADD COLUMN exception_id uuid,
    ADD COLUMN declaration_id uuid,
    ADD COLUMN subject text;
CREATE UNIQUE INDEX clearance_document_blobs_exception ON clearance_document_blobs (exception_id, sha256);
CREATE INDEX clearance_document_blobs_legacy ON clearance_document_blobs (sha256)
    WHERE exception_id IS NULL;
CREATE INDEX clearance_document_blobs_declaration ON clearance_document_blobs (declaration_id);
