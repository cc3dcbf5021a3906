-- The files attached to clearance exceptions, outside the event log: one row per distinct
-- content, addressed by its SHA-256 (hex). The `ClearanceExceptionDocumentAttached` event
-- names the document, its file name, type and this hash; both are written in one
-- transaction.
CREATE TABLE clearance_document_blobs (
    sha256       text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    content      bytea       NOT NULL,
    size         bigint      NOT NULL,
    content_type text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE clearance_document_blobs ALTER COLUMN content SET STORAGE EXTERNAL;
