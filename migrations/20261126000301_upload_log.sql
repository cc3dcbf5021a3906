-- Projection `upload_log`: one row per upload (history, status, unread count) and one per
-- abnormal or repeated row (details, the error file).
CREATE TABLE rm_uploads (
    id uuid PRIMARY KEY,
    version bigint NOT NULL,
    customer_id uuid NOT NULL,
    uploader_id uuid NOT NULL,
    file_origin_name text NOT NULL,
    declaration_type text NOT NULL,
    is_row_data boolean NOT NULL,
    is_fixed boolean NOT NULL,
    create_time timestamptz NOT NULL,
    -- Rows (table) or files (draft) in the file, once read.
    total integer,
    done integer NOT NULL DEFAULT 0,
    success integer NOT NULL DEFAULT 0,
    ticket_success integer NOT NULL DEFAULT 0,
    repeat integer NOT NULL DEFAULT 0,
    abnormal integer NOT NULL DEFAULT 0,
    -- '3' processing, '1' done clean, '2' done with problems, '0' failed.
    status text NOT NULL DEFAULT '3',
    confirm boolean NOT NULL DEFAULT false,
    fail_reason text,
    fail_reason_en text
);
CREATE INDEX rm_uploads_customer_idx ON rm_uploads (customer_id, create_time DESC);
CREATE INDEX rm_uploads_uploader_idx ON rm_uploads (uploader_id, create_time DESC);

CREATE TABLE rm_upload_items (
    upload_id uuid NOT NULL,
    row_no integer NOT NULL,
    tracking_number text,
    file_name text,
    description text NOT NULL,
    description_en text NOT NULL,
    is_repeat boolean NOT NULL,
    PRIMARY KEY (upload_id, row_no)
);
