-- Personal data in the append-only log (docs/personal-data.md): one encryption key per data
-- subject, kept apart from `events`. Event payloads hold personal identifiers only as
-- ChaCha20-Poly1305 ciphertext under the subject's key; an erasure destroys the key
-- (key NULL, erased_at set), so the ciphertext in the log reads as "erased" for good while
-- the log itself, and the audit chain over it, stays untouched.
CREATE TABLE pii_keys (
    -- "ds_" + 32 hex digits: HMAC-SHA256 (server secret) of the normalized identifier.
    subject text PRIMARY KEY,
    -- 32 random bytes; NULL once erased. A subject seen again after an erasure gets a new
    -- key (its old ciphertext stays unreadable: AEAD fails under another key).
    key bytea,
    created_at timestamptz NOT NULL DEFAULT now(),
    erased_at timestamptz,
    CHECK (key IS NULL OR octet_length(key) = 32)
);

-- Which streams hold values of which subject: written with the key, read by an erasure to
-- name the streams whose read-model rows it must update (never holds a value).
CREATE TABLE pii_subject_streams (
    subject text NOT NULL,
    stream_id uuid NOT NULL,
    PRIMARY KEY (subject, stream_id)
);
