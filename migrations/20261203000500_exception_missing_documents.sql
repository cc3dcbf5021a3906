-- The last answer's reasons for the requested documents it came without
-- ([{document, reason}]); each document row gains `requested` (the slot it fills) in its
-- JSON, which needs no change of schema.
ALTER TABLE rm_clearance_exceptions
    ADD COLUMN missing_documents jsonb NOT NULL DEFAULT '[]';
