-- The audit hash chain (docs/compliance.md): one row per event in feed order
-- (tx_id, global_position), `hash` = SHA-256(previous hash || the event's canonical bytes).
-- Kept by the `audit_chain` projection; a rebuild recomputes the same rows.
CREATE TABLE audit_chain (
    seq bigint PRIMARY KEY CHECK (seq >= 1),
    global_position bigint NOT NULL UNIQUE,
    tx_id xid8 NOT NULL,
    hash bytea NOT NULL CHECK (length(hash) = 32)
);

-- Signed seals over the chain: (seq, position, hash, sealed_at) signed with the Ed25519 key
-- of CLEARWAY_AUDIT_SIGNING_KEY, which never enters the database. Not a read model: a
-- rebuild of the chain leaves the seals, and the recomputed chain must match them.
CREATE TABLE audit_seals (
    seq bigint PRIMARY KEY CHECK (seq >= 1),
    global_position bigint NOT NULL,
    tx_id xid8 NOT NULL,
    hash bytea NOT NULL CHECK (length(hash) = 32),
    sealed_at timestamptz NOT NULL,
    public_key bytea NOT NULL CHECK (length(public_key) = 32),
    signature bytea NOT NULL CHECK (length(signature) = 64)
);
