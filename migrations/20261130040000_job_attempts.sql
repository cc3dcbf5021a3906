-- Poison jobs (docs/uploads.md, docs/notifications.md): every claim of a job is counted when
-- it is made, committed before the job is worked on, so a job that ends the process is
-- counted too; past CLEARWAY_JOB_MAX_ATTEMPTS claims without progress it is finished as
-- failed with its reason and the next job runs.
--
-- upload_jobs: `attempts` counts the claims since the upload last made progress (`progress`:
-- the groups its recorded batches cover at the last claim), `last_error` is what the last
-- failed attempt said (for the server's operators; the customer reads the upload's failure
-- reason), `next_attempt_at` is when a claimed job may be claimed again (each claim pushes
-- it back, doubling, so a retried job waits while others run), `customer_id` lets claims
-- take the customers in turn.
ALTER TABLE upload_jobs
    ADD COLUMN customer_id uuid,
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN progress integer NOT NULL DEFAULT 0,
    ADD COLUMN last_error text,
    ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now();

UPDATE upload_jobs j SET customer_id = (e.payload->>'customerId')::uuid
  FROM events e
 WHERE e.stream_id = j.upload_id AND e.stream_version = 1 AND e.event_type = 'UploadReceived'
   AND j.customer_id IS NULL;

-- The job is written in the transaction of its `UploadReceived` event, after the event: its
-- customer is taken from there, whoever inserts the row.
CREATE FUNCTION upload_job_customer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.customer_id IS NULL THEN
        SELECT (payload->>'customerId')::uuid INTO NEW.customer_id
          FROM events
         WHERE stream_id = NEW.upload_id AND stream_version = 1
           AND event_type = 'UploadReceived';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER upload_job_customer BEFORE INSERT ON upload_jobs
    FOR EACH ROW EXECUTE FUNCTION upload_job_customer();

DROP INDEX upload_jobs_open_idx;
CREATE INDEX upload_jobs_open_idx ON upload_jobs (next_attempt_at) WHERE finished_at IS NULL;

-- exception_deliveries: `claims` counts every claim of the row (a claim whose attempt was
-- never recorded, because the worker died or the recording kept failing, included).
ALTER TABLE exception_deliveries ADD COLUMN claims integer NOT NULL DEFAULT 0;
