-- Bulk upload: the uploaded files (content-addressed: one row per distinct content) and the
-- worker's queue (one row per upload until it is finished). Written in the transaction of
-- the upload's `UploadReceived` event.
CREATE TABLE upload_blobs (
    sha256 text PRIMARY KEY,
    content bytea NOT NULL,
    size bigint NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE upload_blobs ALTER COLUMN content SET STORAGE EXTERNAL;

CREATE TABLE upload_jobs (
    upload_id uuid PRIMARY KEY,
    sha256 text NOT NULL REFERENCES upload_blobs (sha256),
    received_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
CREATE INDEX upload_jobs_open_idx ON upload_jobs (received_at) WHERE finished_at IS NULL;
