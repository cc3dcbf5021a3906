-- The audit chain links the events' digests (docs/compliance.md):
-- digest_n = SHA-256(canonical bytes of event n), hash_n = SHA-256(hash_{n-1} || digest_n),
-- so a filtered export can carry the digest of each event it leaves out and still be checked
-- against the signed seals with the public key alone.
--
-- Every hash changes, so the chain is recomputed from the first event: its rows are emptied
-- and its checkpoint reset, and the `audit_chain` projection replays the whole feed on the
-- next start of `clearway serve` or `clearway project` (as `clearway rebuild audit_chain`
-- would). Seals signed over the old hashes can never verify against the new chain: they are
-- moved, signatures and all, to `audit_seals_archive` (their format named, and when), and
-- the sealer signs the recomputed chain afresh (message `clearway-audit-seal/2`). The old
-- seals stay checkable against the old format by anyone holding the events as they were.
CREATE TABLE audit_seals_archive (
    format text NOT NULL,
    seq bigint NOT NULL,
    global_position bigint NOT NULL,
    tx_id xid8 NOT NULL,
    hash bytea NOT NULL,
    sealed_at timestamptz NOT NULL,
    public_key bytea NOT NULL,
    signature bytea NOT NULL,
    archived_at timestamptz NOT NULL DEFAULT now(),
    reason text NOT NULL,
    PRIMARY KEY (format, seq)
);

INSERT INTO audit_seals_archive
    (format, seq, global_position, tx_id, hash, sealed_at, public_key, signature, reason)
SELECT 'clearway-audit-seal/1', seq, global_position, tx_id, hash, sealed_at, public_key,
       signature,
       'chain format changed to SHA-256(previous hash || SHA-256(canonical bytes)); '
       || 'the chain was recomputed and re-sealed'
FROM audit_seals;

TRUNCATE audit_seals;
TRUNCATE audit_chain;
DELETE FROM projection_stops WHERE projection = 'audit_chain';
UPDATE projection_checkpoints
SET tx_id = '0'::xid8, position = 0, events_processed = 0, updated_at = now()
WHERE name = 'audit_chain';

ALTER TABLE audit_chain
    ADD COLUMN digest bytea NOT NULL CHECK (length(digest) = 32);
