//! The canonical bytes of an event and the chain's link function.
//!
//! The event's eleven columns are read back as PostgreSQL renders them as text
//! ([`CANONICAL_SELECT`]); each is written as its length (4 bytes, big-endian) and its UTF-8
//! bytes, in this order: global_position, tx_id, stream_type, stream_id, stream_version,
//! event_id, event_type, schema_version, payload (`payload::text`, jsonb's own rendering),
//! metadata (`metadata::text`), recorded_at (UTC, `YYYY-MM-DDTHH:MM:SS.ffffffZ`).
//! `digest_n = SHA-256(canonical bytes of event n)` and
//! `hash_n = SHA-256(hash_{n-1} || digest_n)`, `hash_0` = 32 zero bytes: the chain links the
//! events' digests, so an export can stand in the digest for an event it leaves out.

use sha2::{Digest, Sha256};
use sqlx::Row;
use sqlx::postgres::PgRow;

pub type Hash = [u8; 32];
pub const ZERO_HASH: Hash = [0; 32];

/// The select list that renders an event's columns canonically (from `events`).
pub const CANONICAL_SELECT: &str = "global_position::text, tx_id::text, stream_type, \
     stream_id::text, stream_version::text, event_id::text, event_type, schema_version::text, \
     payload::text, metadata::text, \
     to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')";

/// One event as the database renders it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonicalEvent {
    pub position: i64,
    pub tx_id: u64,
    /// The eleven columns' text, in canonical order.
    pub fields: [String; 11],
}

impl CanonicalEvent {
    /// Builds an event from its eleven column texts (canonical order).
    pub fn from_fields(fields: [String; 11]) -> Result<Self, String> {
        let position = fields[0]
            .parse()
            .map_err(|e| format!("global_position {:?}: {e}", fields[0]))?;
        let tx_id = fields[1]
            .parse()
            .map_err(|e| format!("tx_id {:?}: {e}", fields[1]))?;
        Ok(Self {
            position,
            tx_id,
            fields,
        })
    }

    /// The canonical bytes: each field as a 4-byte big-endian length and its UTF-8 bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let len: usize = self.fields.iter().map(|f| f.len() + 4).sum();
        let mut out = Vec::with_capacity(len);
        for f in &self.fields {
            out.extend_from_slice(&(f.len() as u32).to_be_bytes());
            out.extend_from_slice(f.as_bytes());
        }
        out
    }

    /// The feed order key.
    pub fn key(&self) -> (u64, i64) {
        (self.tx_id, self.position)
    }
}

/// Reads a row of [`CANONICAL_SELECT`].
pub fn canonical_row(row: &PgRow) -> Result<CanonicalEvent, crate::ProjectionError> {
    let mut fields: [String; 11] = Default::default();
    for (i, f) in fields.iter_mut().enumerate() {
        *f = row.try_get(i)?;
    }
    CanonicalEvent::from_fields(fields).map_err(crate::ProjectionError::Invalid)
}

/// An event's digest: `SHA-256(canonical bytes)`.
pub fn digest(canonical: &[u8]) -> Hash {
    Sha256::digest(canonical).into()
}

/// The next chain hash: `SHA-256(prev || digest)`.
pub fn link(prev: &Hash, digest: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update(prev);
    h.update(digest);
    h.finalize().into()
}

impl CanonicalEvent {
    /// `SHA-256` of [`CanonicalEvent::bytes`].
    pub fn digest(&self) -> Hash {
        digest(&self.bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(payload: &str) -> CanonicalEvent {
        CanonicalEvent::from_fields([
            "7".into(),
            "812".into(),
            "declaration".into(),
            "0190d4c6-0000-7000-8000-000000000001".into(),
            "1".into(),
            "0190d4c6-0000-7000-8000-000000000002".into(),
            "DeclarationCreated".into(),
            "1".into(),
            payload.into(),
            "{}".into(),
            "2026-11-25T02:00:00.000000Z".into(),
        ])
        .expect("fields")
    }

    #[test]
    fn fields_are_length_prefixed_so_moving_a_byte_between_fields_changes_the_bytes() {
        let a = event("{\"a\": 1}");
        let mut b = a.clone();
        b.fields[7] = "1{".into();
        b.fields[8] = "\"a\": 1}".into();
        assert_ne!(a.bytes(), b.bytes());
        assert_eq!(&a.bytes()[..5], &[0, 0, 0, 1, b'7']);
    }

    #[test]
    fn the_link_is_sha256_of_the_previous_hash_and_the_digest_of_the_bytes() {
        // Computed independently (Python hashlib): sha256(b"abc") and
        // sha256(32 zero bytes + sha256(b"abc")).
        let d = digest(b"abc");
        assert_eq!(
            hex::encode(d),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            hex::encode(link(&ZERO_HASH, &d)),
            "589f9ffed4c477966bfb8d41f37895b08c69047df8f911d6f3b57fbe08faee8d"
        );
        assert_ne!(link(&ZERO_HASH, &d), link(&ZERO_HASH, &digest(b"abd")));
        assert_ne!(link(&ZERO_HASH, &d), link(&[1; 32], &d));
    }

    #[test]
    fn a_bad_position_is_refused() {
        let mut f = event("{}").fields;
        f[0] = "x".into();
        assert!(CanonicalEvent::from_fields(f).is_err());
    }
}
