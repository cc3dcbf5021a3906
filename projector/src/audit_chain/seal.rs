//! Seals: every `every` chain rows, and the chain's head when the last seal is older than
//! `max_age`, a seal `(seq, position, tx_id, hash, sealed_at)` is signed with an Ed25519 key
//! that lives outside the database and stored in `audit_seals`.
//!
//! The signed message is the UTF-8 text
//! `clearway-audit-seal/2\n{seq}\n{global_position}\n{tx_id}\n{hash hex}\n{sealed_at}`, with
//! `sealed_at` in microseconds since the Unix epoch (see [`seal_message`]).

use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use sqlx::PgPool;

use super::canonical::Hash;

/// A problem with a key given as text or file.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KeyError(pub String);

/// The sealer's signing key.
#[derive(Clone)]
pub struct SealKey {
    signing: SigningKey,
}

impl std::fmt::Debug for SealKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SealKey(public {})", self.public_hex())
    }
}

impl SealKey {
    /// A key from its 32-byte seed as 64 hexadecimal digits.
    pub fn from_hex(text: &str) -> Result<Self, KeyError> {
        let seed = hex32(text, "signing key")?;
        Ok(Self {
            signing: SigningKey::from_bytes(&seed),
        })
    }

    /// A fresh random key.
    pub fn generate() -> Self {
        let seed: [u8; 32] = rand::random();
        Self {
            signing: SigningKey::from_bytes(&seed),
        }
    }

    /// The seed as 64 hexadecimal digits (to write a generated key to its file).
    pub fn seed_hex(&self) -> String {
        hex::encode(self.signing.to_bytes())
    }

    pub fn public(&self) -> VerifyingKey {
        self.signing.verifying_key()
    }

    pub fn public_hex(&self) -> String {
        hex::encode(self.public().to_bytes())
    }

    pub fn sign(&self, message: &[u8]) -> [u8; 64] {
        self.signing.sign(message).to_bytes()
    }
}

/// A public key from 64 hexadecimal digits.
pub fn public_from_hex(text: &str) -> Result<VerifyingKey, KeyError> {
    let bytes = hex32(text, "public key")?;
    VerifyingKey::from_bytes(&bytes).map_err(|e| KeyError(format!("public key: {e}")))
}

fn hex32(text: &str, what: &str) -> Result<[u8; 32], KeyError> {
    let bytes =
        hex::decode(text.trim()).map_err(|e| KeyError(format!("{what}: not hexadecimal ({e})")))?;
    bytes
        .try_into()
        .map_err(|_| KeyError(format!("{what}: expected 32 bytes (64 hexadecimal digits)")))
}

/// The first line of the signed message. `/1` signed the chain of the first format
/// (`SHA-256(previous hash || canonical bytes)`); such seals were archived by migration
/// `20261129003000_audit_chain_digests.sql`, never verified against the chain of digests.
pub const SEAL_FORMAT: &str = "clearway-audit-seal/2";

/// The bytes a seal's signature covers.
pub fn seal_message(
    seq: i64,
    position: i64,
    tx_id: u64,
    hash: &Hash,
    sealed_at: DateTime<Utc>,
) -> Vec<u8> {
    format!(
        "{SEAL_FORMAT}\n{seq}\n{position}\n{tx_id}\n{}\n{}",
        hex::encode(hash),
        sealed_at.timestamp_micros()
    )
    .into_bytes()
}

/// Whether `signature` is `key`'s signature of the seal.
pub fn seal_signature_ok(key: &VerifyingKey, seal: &Seal) -> bool {
    let Ok(sig) = Signature::from_slice(&seal.signature) else {
        return false;
    };
    let message = seal_message(
        seal.seq,
        seal.position,
        seal.tx_id,
        &seal.hash,
        seal.sealed_at,
    );
    key.verify(&message, &sig).is_ok()
}

/// One stored seal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seal {
    pub seq: i64,
    pub position: i64,
    pub tx_id: u64,
    pub hash: Hash,
    pub sealed_at: DateTime<Utc>,
    pub public_key: Vec<u8>,
    pub signature: Vec<u8>,
}

type SealRow = (i64, i64, String, Vec<u8>, DateTime<Utc>, Vec<u8>, Vec<u8>);

fn seal_of(row: SealRow) -> Seal {
    let (seq, position, tx_id, hash, sealed_at, public_key, signature) = row;
    Seal {
        seq,
        position,
        tx_id: tx_id.parse().unwrap_or(0),
        hash: super::to_hash(&hash),
        sealed_at,
        public_key,
        signature,
    }
}

const SEAL_COLUMNS: &str =
    "seq, global_position, tx_id::text, hash, sealed_at, public_key, signature";

/// Every seal, in chain order.
pub async fn all_seals(pool: &PgPool) -> Result<Vec<Seal>, sqlx::Error> {
    let rows: Vec<SealRow> = sqlx::query_as(&format!(
        "SELECT {SEAL_COLUMNS} FROM audit_seals ORDER BY seq"
    ))
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(seal_of).collect())
}

/// The last seal, if any.
pub async fn last_seal(pool: &PgPool) -> Result<Option<Seal>, sqlx::Error> {
    let row: Option<SealRow> = sqlx::query_as(&format!(
        "SELECT {SEAL_COLUMNS} FROM audit_seals ORDER BY seq DESC LIMIT 1"
    ))
    .fetch_optional(pool)
    .await?;
    Ok(row.map(seal_of))
}

/// Which seal [`seal_near`] looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Near {
    /// The seal of exactly this chain place.
    At,
    /// The last seal before this place.
    Before,
    /// The first seal at or after this place.
    AtOrAfter,
}

/// One seal near a chain place, on a caller's connection (an export reads its seals in the
/// snapshot of its transaction).
pub async fn seal_near(
    conn: &mut sqlx::PgConnection,
    near: Near,
    seq: i64,
) -> Result<Option<Seal>, sqlx::Error> {
    let clause = match near {
        Near::At => "seq = $1 ORDER BY seq",
        Near::Before => "seq < $1 ORDER BY seq DESC",
        Near::AtOrAfter => "seq >= $1 ORDER BY seq",
    };
    let row: Option<SealRow> = sqlx::query_as(&format!(
        "SELECT {SEAL_COLUMNS} FROM audit_seals WHERE {clause} LIMIT 1"
    ))
    .bind(seq)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(seal_of))
}

/// When to seal.
#[derive(Debug, Clone, Copy)]
pub struct SealPolicy {
    /// Seal every chain row whose `seq` is a multiple of this.
    pub every: i64,
    /// Seal the head when it is unsealed and the last seal is at least this old.
    pub max_age: Duration,
}

impl Default for SealPolicy {
    fn default() -> Self {
        Self {
            every: 1000,
            max_age: Duration::from_secs(60),
        }
    }
}

/// Signs the seals that are due at `now`; answers how many were written. Several sealers may
/// run at once: a seal already written by another is left as it is.
pub async fn seal_due(
    pool: &PgPool,
    key: &SealKey,
    policy: SealPolicy,
    now: DateTime<Utc>,
) -> Result<usize, sqlx::Error> {
    let every = policy.every.max(1);
    let last = last_seal(pool).await?;
    let (last_seq, last_at) = last
        .as_ref()
        .map_or((0, None), |s| (s.seq, Some(s.sealed_at)));
    let head: Option<i64> = sqlx::query_scalar("SELECT max(seq) FROM audit_chain")
        .fetch_one(pool)
        .await?;
    let Some(head) = head.filter(|h| *h > last_seq) else {
        return Ok(0);
    };
    let mut due: Vec<i64> = ((last_seq / every + 1) * every..=head)
        .step_by(every as usize)
        .collect();
    let stale = last_at.is_none_or(|at| {
        now.signed_duration_since(at).to_std().unwrap_or_default() >= policy.max_age
    });
    if due.last() != Some(&head) && stale {
        due.push(head);
    }
    if due.is_empty() {
        return Ok(0);
    }
    // Microseconds: what timestamptz keeps, so the signed time reads back the same.
    let sealed_at = Utc
        .timestamp_micros(now.timestamp_micros())
        .single()
        .unwrap_or(now);
    let rows: Vec<(i64, i64, String, Vec<u8>)> = sqlx::query_as(
        "SELECT seq, global_position, tx_id::text, hash FROM audit_chain
         WHERE seq = ANY($1) ORDER BY seq",
    )
    .bind(&due)
    .fetch_all(pool)
    .await?;
    let mut written = 0;
    for (seq, position, tx_id, hash) in rows {
        let hash = super::to_hash(&hash);
        let tx: u64 = tx_id.parse().unwrap_or(0);
        let signature = key.sign(&seal_message(seq, position, tx, &hash, sealed_at));
        let done = sqlx::query(
            "INSERT INTO audit_seals (seq, global_position, tx_id, hash, sealed_at, public_key,
                 signature) VALUES ($1, $2, $3::xid8, $4, $5, $6, $7)
             ON CONFLICT (seq) DO NOTHING",
        )
        .bind(seq)
        .bind(position)
        .bind(&tx_id)
        .bind(hash.to_vec())
        .bind(sealed_at)
        .bind(key.public().to_bytes().to_vec())
        .bind(signature.to_vec())
        .execute(pool)
        .await?;
        written += done.rows_affected() as usize;
    }
    Ok(written)
}

/// Seals what is due every `tick` until `shutdown` turns true; failures are logged and retried
/// on the next tick.
pub async fn run_sealer(
    pool: PgPool,
    key: SealKey,
    policy: SealPolicy,
    tick: Duration,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        match seal_due(&pool, &key, policy, Utc::now()).await {
            Ok(0) => {}
            Ok(n) => tracing::debug!(seals = n, "audit chain sealed"),
            Err(e) => tracing::warn!(error = %e, "sealing the audit chain failed; retrying"),
        }
        tokio::select! {
            _ = tokio::time::sleep(tick) => {}
            _ = shutdown.wait_for(|stop| *stop) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_signature_verifies_with_the_public_key_only_and_covers_every_field() {
        let key = SealKey::from_hex(&"11".repeat(32)).expect("key");
        let at = Utc
            .timestamp_micros(1_764_000_000_123_456)
            .single()
            .expect("time");
        let hash = [7u8; 32];
        let sig = key.sign(&seal_message(5, 9, 700, &hash, at));
        let seal = Seal {
            seq: 5,
            position: 9,
            tx_id: 700,
            hash,
            sealed_at: at,
            public_key: key.public().to_bytes().to_vec(),
            signature: sig.to_vec(),
        };
        let public = public_from_hex(&key.public_hex()).expect("public");
        assert!(seal_signature_ok(&public, &seal));
        for changed in [
            Seal {
                seq: 6,
                ..seal.clone()
            },
            Seal {
                position: 10,
                ..seal.clone()
            },
            Seal {
                tx_id: 701,
                ..seal.clone()
            },
            Seal {
                hash: [8; 32],
                ..seal.clone()
            },
            Seal {
                sealed_at: at + chrono::Duration::microseconds(1),
                ..seal.clone()
            },
        ] {
            assert!(!seal_signature_ok(&public, &changed));
        }
        let other = SealKey::generate();
        assert!(!seal_signature_ok(&other.public(), &seal));
    }

    #[test]
    fn keys_must_be_32_bytes_of_hex() {
        assert!(SealKey::from_hex("abc").is_err());
        assert!(SealKey::from_hex(&"zz".repeat(32)).is_err());
        assert!(SealKey::from_hex(&"ab".repeat(31)).is_err());
        let k = SealKey::generate();
        assert_eq!(
            SealKey::from_hex(&k.seed_hex()).expect("k").public_hex(),
            k.public_hex()
        );
    }
}
