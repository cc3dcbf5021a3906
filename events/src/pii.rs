//! Personal data in the append-only log (docs/personal-data.md): personal ID numbers and
//! phone numbers are stored in event payloads only as ciphertext under a key of their data
//! subject, and an erasure destroys that key.
//!
//! - **Data subject**: one personal identifier (an ID number or a phone number). Its id is
//!   `ds_` + the first 16 bytes, in hex, of HMAC-SHA256 over the normalized identifier with
//!   the server's secret ([`install`], `CLEARWAY_PII_SECRET`): the same person's number gives
//!   the same id in every stream, and the id does not reveal the number (ID numbers are
//!   guessable; a plain hash of one is not a secret).
//! - **Keys**: `pii_keys` (subject, 32 random bytes, created, erased), apart from `events`.
//! - **Sealing** ([`seal`]): when events are appended, every personal value in their payload
//!   is replaced by `{"enc": base64(nonce || ciphertext), "subject": "ds_..."}`
//!   (ChaCha20-Poly1305, a random 96-bit nonce per value, the subject id as associated data).
//! - **Opening** ([`open_events`], [`open_values`], and the feed's read of JSON text): the one place that
//!   turns those objects back into text, used by every read of the event store (commands,
//!   projections, rebuilds, `clearway replay`) and by the audit API. A value whose key is gone
//!   reads as [`ERASED`].
//!
//! - **What is personal**: each event module declares its stream's personal fields
//!   ([`Personal`], its `PERSONAL`); [`crate::personal`] lists those declarations, and sealing,
//!   opening, masking and erasure read that list ([`Declared`]). This module names no stream.
//!
//! Keys and plaintext are never logged.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, RwLock};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use hmac::{Hmac, Mac};
use serde_json::{Map, Value};
use sha2::Sha256;
use sqlx::{PgConnection, Row};
use uuid::Uuid;

use crate::{NewEvent, RecordedEvent, StoreError};

/// What a personal value reads as once its subject has been erased.
pub const ERASED: &str = "[erased]";

/// What a personal value is (for masking).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    IdNumber,
    Phone,
    Email,
    /// A WeChat openId.
    Wechat,
}

/// The kind of a contact's address by its channel (`email`, `sms`/`phone`, `wechat`).
pub fn kind_of_channel(channel: &str) -> Option<Kind> {
    match channel {
        "email" => Some(Kind::Email),
        "sms" | "phone" => Some(Kind::Phone),
        "wechat" => Some(Kind::Wechat),
        _ => None,
    }
}

/// What the events of one stream type declare of their personal data: the stream type and
/// the payload keys that hold a personal value, with what each holds. Each event module
/// declares its own (`PERSONAL`, beside its `STREAM_TYPE`); [`crate::personal`] lists them.
/// Contacts (an object with a `channel`) need no entry: [`Declared::visit_personal`] finds
/// them by their channel ([`kind_of_channel`]) in every declared stream.
#[derive(Debug, Clone, Copy)]
pub struct Personal {
    pub stream_type: &'static str,
    pub fields: &'static [(&'static str, Kind)],
}

/// Every stream type's declaration of its personal data ([`crate::personal::DECLARED`]):
/// which streams are sealed, and which keys hold personal values. The mechanism here reads
/// it; it names no stream itself.
#[derive(Debug, Clone, Copy)]
pub struct Declared(pub &'static [Personal]);

impl Declared {
    /// Are the payloads of `stream_type` sealed?
    pub fn seals(&self, stream_type: &str) -> bool {
        self.0.iter().any(|p| p.stream_type == stream_type)
    }

    /// Every declared personal field, with its kind.
    pub fn fields(&self) -> impl Iterator<Item = (&'static str, Kind)> + '_ {
        self.0.iter().flat_map(|p| p.fields.iter().copied())
    }

    /// The kind of a personal field by its exact name (any declared stream's field).
    pub fn kind_of_name(&self, name: &str) -> Option<Kind> {
        self.fields().find(|(f, _)| *f == name).map(|(_, k)| k)
    }

    /// The kind of a form field by its name, or the last segment of a dotted path
    /// (`data.recipientPhone`).
    pub fn kind_of_field(&self, field: &str) -> Option<Kind> {
        self.kind_of_name(field.rsplit('.').next().unwrap_or(field))
    }

    /// Calls `visit` with every personal value of a payload (or a state, or a read model's
    /// form): a string (or sealed object) under a personal field's key, `old`/`new` of a
    /// `{field, old, new}` change (edits, amendments, a draft's provenance) of a personal
    /// field, and the `address` (a notice's contact), `value` (a saved contact) or
    /// `recipient` (a delivery attempt) of an object whose `channel` is `email`,
    /// `sms`/`phone` or `wechat`.
    pub fn visit_personal(&self, value: &mut Value, visit: &mut dyn FnMut(Kind, &mut Value)) {
        match value {
            Value::Object(map) => {
                let change_kind = map
                    .get("field")
                    .and_then(Value::as_str)
                    .and_then(|f| self.kind_of_field(f));
                let channel_kind = map
                    .get("channel")
                    .and_then(Value::as_str)
                    .and_then(kind_of_channel);
                for (key, inner) in map.iter_mut() {
                    let kind = match key.as_str() {
                        "old" | "new" | "from" | "to" if change_kind.is_some() => change_kind,
                        "address" | "value" | "recipient" if channel_kind.is_some() => channel_kind,
                        k => self.kind_of_name(k),
                    };
                    match kind {
                        Some(kind) if inner.is_string() || sealed_parts(inner).is_some() => {
                            visit(kind, inner)
                        }
                        _ => self.visit_personal(inner, visit),
                    }
                }
            }
            Value::Array(items) => {
                for item in items {
                    self.visit_personal(item, visit);
                }
            }
            _ => {}
        }
    }

    /// Replaces every personal value of `subject` in `value` (a read model's copy, in the
    /// clear) by [`ERASED`]; answers whether anything changed. The read models that keep
    /// contacts apply an erasure with it.
    pub fn scrub(&self, value: &mut Value, subject: &str) -> bool {
        let mut changed = false;
        self.visit_personal(value, &mut |_, v| {
            if let Some(text) = v.as_str()
                && text != ERASED
                && subject_of(text).as_deref() == Some(subject)
            {
                *v = Value::String(ERASED.to_string());
                changed = true;
            }
        });
        changed
    }
}

static SECRET: RwLock<Option<Arc<[u8]>>> = RwLock::new(None);

/// The secret used when none was installed: development and tests only. The binary installs
/// `CLEARWAY_PII_SECRET` (required in production) before it appends anything.
const DEVELOPMENT_SECRET: &[u8] = b"clearway development personal-data secret: never in production";

/// Installs the HMAC secret that derives subject ids (process-wide).
pub fn install(secret: &[u8]) {
    let mut slot = SECRET.write().unwrap_or_else(|e| e.into_inner());
    *slot = Some(Arc::from(secret));
}

fn secret() -> Arc<[u8]> {
    let slot = SECRET.read().unwrap_or_else(|e| e.into_inner());
    slot.clone()
        .unwrap_or_else(|| Arc::from(DEVELOPMENT_SECRET))
}

/// The identifier as it is compared: an e-mail address trimmed and lower-cased; anything
/// else with a leading `+86`/`0086` dropped, letters upper-cased, everything but ASCII
/// letters and digits removed (`138-1234 5678` = `13812345678`,
/// `11010519491231002x` = `11010519491231002X`).
pub fn normalize(identifier: &str) -> String {
    let t = identifier.trim();
    if t.contains('@') {
        return t.to_lowercase();
    }
    let t = t
        .strip_prefix("+86")
        .or_else(|| t.strip_prefix("0086"))
        .unwrap_or(t);
    t.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// The subject id of an identifier; `None` when it holds no letter or digit (nothing
/// personal to protect).
pub fn subject_of(identifier: &str) -> Option<String> {
    let normalized = normalize(identifier);
    if normalized.is_empty() {
        return None;
    }
    let secret = secret();
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&secret).ok()?;
    mac.update(b"clearway-data-subject/1\n");
    mac.update(normalized.as_bytes());
    let digest = mac.finalize().into_bytes();
    Some(format!("ds_{}", hex_lower(&digest[..16])))
}

/// A keyed digest of `text` for `purpose` (hex, 16 bytes): HMAC-SHA256 with the
/// personal-data secret over `"clearway-<purpose>/1\n" + text`. Every id or key derived from
/// a personal value (a delivery's key and id) is made with it, never with a plain hash: the
/// hidden digits of a phone number are few enough to try them all against a plain one, and
/// without the secret this digest says nothing.
pub fn keyed_digest(purpose: &str, text: &str) -> String {
    let secret = secret();
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(&secret) else {
        // HMAC takes a key of any length; this branch is never taken.
        return String::new();
    };
    mac.update(b"clearway-");
    mac.update(purpose.as_bytes());
    mac.update(b"/1\n");
    mac.update(text.as_bytes());
    hex_lower(&mac.finalize().into_bytes()[..16])
}

/// Is `text` a subject id (`ds_` + 32 lower-case hex digits)?
pub fn is_subject_id(text: &str) -> bool {
    text.len() == 35
        && text.starts_with("ds_")
        && text[3..]
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// What `clearway erase --subject` and the admin action accept: a subject id as it is, or an
/// ID number, phone number, e-mail address or WeChat openId turned into its subject id.
pub fn parse_subject(input: &str) -> Option<String> {
    let t = input.trim();
    if is_subject_id(t) {
        return Some(t.to_string());
    }
    subject_of(t)
}

fn hex_lower(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// A subject's key, never printed.
#[derive(Clone)]
pub struct SubjectKey([u8; 32]);

impl std::fmt::Debug for SubjectKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SubjectKey(..)")
    }
}

impl SubjectKey {
    pub fn generate() -> Self {
        let key = ChaCha20Poly1305::generate_key(&mut OsRng);
        let mut bytes = [0u8; 32];
        bytes.copy_from_slice(&key);
        Self(bytes)
    }

    fn from_slice(bytes: &[u8]) -> Option<Self> {
        <[u8; 32]>::try_from(bytes).ok().map(Self)
    }

    fn cipher(&self) -> ChaCha20Poly1305 {
        ChaCha20Poly1305::new(Key::from_slice(&self.0))
    }
}

/// `plaintext` sealed for `subject`: `{"enc": ..., "subject": ...}`.
pub fn encrypt(key: &SubjectKey, subject: &str, plaintext: &str) -> Value {
    let nonce = ChaCha20Poly1305::generate_nonce(&mut OsRng);
    let sealed = key
        .cipher()
        .encrypt(
            &nonce,
            Payload {
                msg: plaintext.as_bytes(),
                aad: subject.as_bytes(),
            },
        )
        // Encryption fails only for messages above 256 GiB.
        .unwrap_or_default();
    let mut bytes = nonce.to_vec();
    bytes.extend_from_slice(&sealed);
    let mut map = Map::new();
    map.insert("enc".into(), Value::String(B64.encode(bytes)));
    map.insert("subject".into(), Value::String(subject.to_string()));
    Value::Object(map)
}

/// The plaintext of a sealed value; `None` when the key is gone or does not open it.
pub fn decrypt(key: Option<&SubjectKey>, subject: &str, enc: &str) -> Option<String> {
    let key = key?;
    let bytes = B64.decode(enc).ok()?;
    if bytes.len() < 12 {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(12);
    let plain = key
        .cipher()
        .decrypt(
            Nonce::from_slice(nonce),
            Payload {
                msg: sealed,
                aad: subject.as_bytes(),
            },
        )
        .ok()?;
    String::from_utf8(plain).ok()
}

/// `(enc, subject)` when `value` is a sealed value.
pub fn sealed_parts(value: &Value) -> Option<(&str, &str)> {
    let map = value.as_object()?;
    if map.len() != 2 {
        return None;
    }
    Some((map.get("enc")?.as_str()?, map.get("subject")?.as_str()?))
}

/// Keys by subject, as read for opening: `None` for an erased subject.
pub type Keys = HashMap<String, Option<SubjectKey>>;

/// Seals the personal values (as `declared`) of `events` about to be appended to
/// `stream_id`, making the subjects' keys (and linking the subjects to the stream) on
/// `conn`. `None` when there is nothing to seal (the events are appended as they are).
pub async fn seal(
    conn: &mut PgConnection,
    declared: &Declared,
    stream_type: &str,
    stream_id: Uuid,
    events: &[NewEvent],
) -> Result<Option<Vec<NewEvent>>, StoreError> {
    if !declared.seals(stream_type) {
        return Ok(None);
    }
    let mut sealed: Vec<NewEvent> = events.to_vec();
    // Each value's subject is derived once: the sealing pass below looks it up here rather
    // than deriving it again (the process-wide secret may be installed in between).
    let mut subject_by_text: HashMap<String, String> = HashMap::new();
    for event in &mut sealed {
        declared.visit_personal(&mut event.payload, &mut |_, v| {
            if let Some(text) = v.as_str()
                && text != ERASED
                && !subject_by_text.contains_key(text)
                && let Some(subject) = subject_of(text)
            {
                subject_by_text.insert(text.to_string(), subject);
            }
        });
    }
    if subject_by_text.is_empty() {
        return Ok(None);
    }
    let found: BTreeSet<&String> = subject_by_text.values().collect();
    let subjects: Vec<String> = found.into_iter().cloned().collect();
    let keys = keys_for_sealing(conn, &subjects, stream_id).await?;
    for event in &mut sealed {
        let mut missing = false;
        declared.visit_personal(&mut event.payload, &mut |_, v| {
            let Some(text) = v.as_str() else { return };
            if text == ERASED {
                return;
            }
            let Some(subject) = subject_by_text.get(text) else {
                return;
            };
            match keys.get(subject) {
                Some(key) => *v = encrypt(key, subject, text),
                None => missing = true,
            }
        });
        if missing {
            // Never store a personal value in the clear for want of a key.
            return Err(StoreError::Database(sqlx::Error::Protocol(
                "no key could be made for a data subject".into(),
            )));
        }
    }
    Ok(Some(sealed))
}

/// The live keys of `subjects`, made where missing (or erased: a subject seen again after an
/// erasure gets a fresh key), each linked to `stream_id`.
///
/// The common case (every subject has a live key: a person seen before) is one statement
/// that links and reads, taking no lock on `pii_keys`: commands about the same person do not
/// wait for each other. Only missing keys are then made with an upsert; a key made at the
/// same moment by another transaction is read on the next try.
async fn keys_for_sealing(
    conn: &mut PgConnection,
    subjects: &[String],
    stream_id: Uuid,
) -> Result<HashMap<String, SubjectKey>, StoreError> {
    let mut keys = HashMap::with_capacity(subjects.len());
    let rows = sqlx::query(
        "WITH linked AS (
             INSERT INTO pii_subject_streams (subject, stream_id)
             SELECT subject, $2 FROM UNNEST($1::text[]) AS w(subject) ON CONFLICT DO NOTHING)
         SELECT subject, key FROM pii_keys WHERE subject = ANY($1) AND key IS NOT NULL",
    )
    .bind(subjects)
    .bind(stream_id)
    .fetch_all(&mut *conn)
    .await?;
    collect_keys(rows, &mut keys)?;
    for _ in 0..3 {
        let missing: Vec<&str> = subjects
            .iter()
            .filter(|s| !keys.contains_key(*s))
            .map(String::as_str)
            .collect();
        if missing.is_empty() {
            break;
        }
        let fresh: Vec<Vec<u8>> = missing
            .iter()
            .map(|_| SubjectKey::generate().0.to_vec())
            .collect();
        let rows = sqlx::query(
            "WITH wanted AS (SELECT * FROM UNNEST($1::text[], $2::bytea[]) AS w(subject, key)),
             made AS (
                 INSERT INTO pii_keys (subject, key) SELECT subject, key FROM wanted
                 ON CONFLICT (subject) DO UPDATE SET key = EXCLUDED.key, created_at = now()
                 WHERE pii_keys.key IS NULL
                 RETURNING subject, key)
             SELECT subject, key FROM made
             UNION ALL
             SELECT k.subject, k.key FROM pii_keys k
             WHERE k.subject = ANY($1) AND k.key IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM made m WHERE m.subject = k.subject)",
        )
        .bind(&missing)
        .bind(&fresh)
        .fetch_all(&mut *conn)
        .await?;
        collect_keys(rows, &mut keys)?;
    }
    Ok(keys)
}

fn collect_keys(
    rows: Vec<sqlx::postgres::PgRow>,
    keys: &mut HashMap<String, SubjectKey>,
) -> Result<(), StoreError> {
    for row in rows {
        let subject: String = row.try_get(0)?;
        let key: Vec<u8> = row.try_get(1)?;
        if let Some(key) = SubjectKey::from_slice(&key) {
            keys.insert(subject, key);
        }
    }
    Ok(())
}

/// The data subject of a clearance exception's documents (identity and passport scans and
/// the other files sent for it): `ds_` + the keyed digest of the exception id. The documents
/// are sealed under its key; an erasure of anyone the exception or its declaration names
/// destroys it too (command `data_subject`), and it can be erased by its id alone.
pub fn documents_subject(exception: Uuid) -> String {
    format!(
        "ds_{}",
        keyed_digest("exception-documents", &exception.to_string())
    )
}

/// The live key of `subject`, made when missing (or erased), linked to `stream_id`, on the
/// caller's transaction.
pub async fn live_key(
    conn: &mut PgConnection,
    subject: &str,
    stream_id: Uuid,
) -> Result<SubjectKey, StoreError> {
    let mut keys = keys_for_sealing(conn, &[subject.to_string()], stream_id).await?;
    keys.remove(subject).ok_or_else(|| {
        StoreError::Database(sqlx::Error::Protocol(
            "no key could be made for a data subject".into(),
        ))
    })
}

/// The live key of `subject`; `None` once erased (or never made).
pub async fn key_of(
    conn: &mut PgConnection,
    subject: &str,
) -> Result<Option<SubjectKey>, StoreError> {
    let key: Option<Option<Vec<u8>>> =
        sqlx::query_scalar("SELECT key FROM pii_keys WHERE subject = $1")
            .bind(subject)
            .fetch_optional(conn)
            .await?;
    Ok(key.flatten().as_deref().and_then(SubjectKey::from_slice))
}

/// `bytes` sealed for `subject`: nonce (12 bytes) || ChaCha20-Poly1305 ciphertext and tag,
/// the subject id as associated data.
pub fn encrypt_bytes(key: &SubjectKey, subject: &str, bytes: &[u8]) -> Vec<u8> {
    let nonce = ChaCha20Poly1305::generate_nonce(&mut OsRng);
    let sealed = key
        .cipher()
        .encrypt(
            &nonce,
            Payload {
                msg: bytes,
                aad: subject.as_bytes(),
            },
        )
        // Encryption fails only for messages above 256 GiB.
        .unwrap_or_default();
    let mut out = nonce.to_vec();
    out.extend_from_slice(&sealed);
    out
}

/// The bytes sealed by [`encrypt_bytes`]; `None` when the key is gone or does not open them.
pub fn decrypt_bytes(key: Option<&SubjectKey>, subject: &str, sealed: &[u8]) -> Option<Vec<u8>> {
    let key = key?;
    if sealed.len() < 12 {
        return None;
    }
    let (nonce, sealed) = sealed.split_at(12);
    key.cipher()
        .decrypt(
            Nonce::from_slice(nonce),
            Payload {
                msg: sealed,
                aad: subject.as_bytes(),
            },
        )
        .ok()
}

/// Reads the keys of `subjects` (erased ones as `None`; unknown ones are left out and read
/// as erased too).
pub async fn keys(
    conn: &mut PgConnection,
    subjects: &BTreeSet<String>,
) -> Result<Keys, StoreError> {
    if subjects.is_empty() {
        return Ok(Keys::new());
    }
    let list: Vec<&str> = subjects.iter().map(String::as_str).collect();
    let rows = sqlx::query("SELECT subject, key FROM pii_keys WHERE subject = ANY($1)")
        .bind(&list)
        .fetch_all(conn)
        .await?;
    let mut keys = Keys::with_capacity(rows.len());
    for row in rows {
        let subject: String = row.try_get(0)?;
        let key: Option<Vec<u8>> = row.try_get(1)?;
        keys.insert(subject, key.as_deref().and_then(SubjectKey::from_slice));
    }
    Ok(keys)
}

/// Adds the subjects of every sealed value in `value` to `out`.
pub fn subjects_in(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some((_, subject)) = sealed_parts(value) {
                out.insert(subject.to_string());
                return;
            }
            for inner in map.values() {
                subjects_in(inner, out);
            }
        }
        Value::Array(items) => {
            for item in items {
                subjects_in(item, out);
            }
        }
        _ => {}
    }
}

/// Replaces every sealed value in `value` by its plaintext, or [`ERASED`].
pub fn open_with(value: &mut Value, keys: &Keys) {
    match value {
        Value::Object(map) => {
            if let Some((enc, subject)) = sealed_parts_of(map) {
                let key = keys.get(subject).and_then(Option::as_ref);
                let text = decrypt(key, subject, enc).unwrap_or_else(|| ERASED.to_string());
                *value = Value::String(text);
                return;
            }
            for inner in map.values_mut() {
                open_with(inner, keys);
            }
        }
        Value::Array(items) => {
            for item in items {
                open_with(item, keys);
            }
        }
        _ => {}
    }
}

fn sealed_parts_of(map: &Map<String, Value>) -> Option<(&str, &str)> {
    if map.len() != 2 {
        return None;
    }
    Some((map.get("enc")?.as_str()?, map.get("subject")?.as_str()?))
}

/// Whether a payload's JSON text may hold a sealed value (`"enc"` as a key: inside a JSON
/// string a quote is escaped, so the bytes `"enc"` only occur as a key or a whole value).
pub fn may_be_sealed(json: &[u8]) -> bool {
    memchr::memmem::find(json, b"\"enc\"").is_some()
}

/// Opens the sealed values of several JSON values with one read of the keys.
pub async fn open_values<'v>(
    conn: &mut PgConnection,
    values: impl IntoIterator<Item = &'v mut Value>,
) -> Result<(), StoreError> {
    let values: Vec<&mut Value> = values.into_iter().collect();
    let mut subjects = BTreeSet::new();
    for v in &values {
        subjects_in(v, &mut subjects);
    }
    if subjects.is_empty() {
        return Ok(());
    }
    let keys = keys(conn, &subjects).await?;
    for v in values {
        open_with(v, &keys);
    }
    Ok(())
}

/// Opens the payloads of events read from the store.
pub async fn open_events(
    conn: &mut PgConnection,
    events: &mut [RecordedEvent],
) -> Result<(), StoreError> {
    open_values(conn, events.iter_mut().map(|e| &mut e.payload)).await
}

/// The data subjects' erasure: the key destroyed (`key` NULL, `erased_at` now) on the
/// caller's transaction. Answers whether a live key was destroyed.
pub async fn destroy_key(conn: &mut PgConnection, subject: &str) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "UPDATE pii_keys SET key = NULL, erased_at = now() WHERE subject = $1 AND key IS NOT NULL",
    )
    .bind(subject)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// What is known of a subject: `None` when nothing was ever stored for it; else whether it
/// is erased now and the streams holding its values.
pub async fn subject_status(
    conn: &mut PgConnection,
    subject: &str,
) -> Result<Option<(bool, Vec<Uuid>)>, StoreError> {
    let row = sqlx::query("SELECT key IS NULL FROM pii_keys WHERE subject = $1")
        .bind(subject)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let erased: bool = row.try_get(0)?;
    let streams: Vec<Uuid> = sqlx::query_scalar(
        "SELECT stream_id FROM pii_subject_streams WHERE subject = $1 ORDER BY stream_id",
    )
    .bind(subject)
    .fetch_all(conn)
    .await?;
    Ok(Some((erased, streams)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn identifiers_normalize_and_give_stable_keyed_subject_ids() {
        assert_eq!(normalize(" +86 138-1234 5678 "), "13812345678");
        assert_eq!(normalize("11010519491231002x"), "11010519491231002X");
        let a = subject_of("13812345678").expect("subject");
        assert!(is_subject_id(&a), "{a}");
        assert_eq!(subject_of("+86 138 1234 5678"), Some(a.clone()));
        assert_ne!(subject_of("13812345679"), Some(a.clone()));
        assert_eq!(subject_of(" - "), None);
        assert_eq!(parse_subject(&a), Some(a.clone()));
        assert_eq!(parse_subject("138 1234 5678"), Some(a));
    }

    #[test]
    fn keyed_digests_depend_on_the_secret_and_the_purpose() {
        let a = keyed_digest("delivery-address", "13812345678");
        assert_eq!(a.len(), 32);
        assert_eq!(a, keyed_digest("delivery-address", "13812345678"));
        assert_ne!(a, keyed_digest("log-address", "13812345678"));
        assert_ne!(a, keyed_digest("delivery-address", "13812345679"));
        // Not the plain digests anyone could compute from a candidate.
        let plain = Uuid::new_v5(&Uuid::NAMESPACE_OID, b"13812345678");
        assert_ne!(a, plain.simple().to_string());
    }

    #[test]
    fn sealed_bytes_open_only_with_their_key_and_subject() {
        let key = SubjectKey::generate();
        let subject = documents_subject(Uuid::nil());
        assert!(is_subject_id(&subject), "{subject}");
        let sealed = encrypt_bytes(&key, &subject, b"%PDF-1.4 passport");
        assert!(!sealed.windows(8).any(|w| w == b"passport"));
        assert_eq!(
            decrypt_bytes(Some(&key), &subject, &sealed).as_deref(),
            Some(&b"%PDF-1.4 passport"[..])
        );
        assert_eq!(decrypt_bytes(None, &subject, &sealed), None);
        assert_eq!(decrypt_bytes(Some(&key), "ds_other", &sealed), None);
    }

    #[test]
    fn a_sealed_value_opens_with_its_key_and_reads_erased_without_it() {
        let key = SubjectKey::generate();
        let subject = subject_of("110101199001011234").expect("subject");
        let sealed = encrypt(&key, &subject, "110101199001011234");
        let (enc, s) = sealed_parts(&sealed).expect("sealed");
        assert_eq!(s, subject);
        assert!(!sealed.to_string().contains("110101199001011234"));
        assert_eq!(
            decrypt(Some(&key), &subject, enc).as_deref(),
            Some("110101199001011234")
        );
        // Erased (no key), another key, another subject as associated data: no plaintext.
        assert_eq!(decrypt(None, &subject, enc), None);
        assert_eq!(decrypt(Some(&SubjectKey::generate()), &subject, enc), None);
        assert_eq!(decrypt(Some(&key), "ds_other", enc), None);
        // Two seals of one value differ (a nonce each).
        assert_ne!(encrypt(&key, &subject, "x"), encrypt(&key, &subject, "x"));

        let mut payload = json!({"data": {"recipientIdNumber": sealed.clone(), "note": "n"}});
        let mut keys = Keys::new();
        keys.insert(subject.clone(), Some(key));
        let mut opened = payload.clone();
        open_with(&mut opened, &keys);
        assert_eq!(opened["data"]["recipientIdNumber"], "110101199001011234");
        keys.insert(subject, None);
        open_with(&mut payload, &keys);
        assert_eq!(payload["data"]["recipientIdNumber"], ERASED);
        assert_eq!(payload["data"]["note"], "n");
    }
}
