//! The audit export file (`clearway-audit-export/1`, docs/compliance.md) and its offline check.
//!
//! One file of JSON lines, each an object tagged by `"t"`:
//! - line 1, `manifest`: the filter, who exported and when, the number of events, the first
//!   and last position and the chain hashes at both;
//! - `event`: an included event's chain place `seq`, its eleven canonical columns as the
//!   database renders them (so its canonical bytes can be rebuilt exactly) and the chain
//!   hash after it;
//! - `digests`: the digests of the chain places `from..=to` that the export leaves out, and
//!   the chain hash after the last;
//! - `seal`: a signed seal (its seq, position, transaction id, hash, time and signature).
//!
//! [`verify_export`] folds the chain through the file with the public key alone: each seal's
//! signature must verify; an event's recomputed hash and a digests line's must equal the hash
//! the line states; where a seal sits at the chain's place its hash must be the folded one;
//! from a seal the fold may jump to a later seal (nothing between is claimed); the file must
//! end on a seal. The first problem is named with its line.

use std::io::BufRead;

use chrono::{DateTime, Utc};
use ed25519_dalek::VerifyingKey;
use serde::{Deserialize, Serialize};

use super::canonical::{CanonicalEvent, Hash, ZERO_HASH, digest, link};
use super::seal::{Seal, seal_signature_ok};

/// The file format's name, in the manifest.
pub const EXPORT_FORMAT: &str = "clearway-audit-export/1";
/// At most this many digests on one `digests` line.
pub const DIGESTS_PER_LINE: usize = 1000;

/// Line 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub exported_at: DateTime<Utc>,
    /// The login of whoever exported (a label: not checked offline).
    pub exported_by: String,
    /// The log's filter as it was asked for (a label: not checked offline).
    pub filter: serde_json::Value,
    /// The number of `event` lines.
    pub count: u64,
    pub first_position: Option<i64>,
    pub last_position: Option<i64>,
    /// The chain hash at the first and at the last exported event (hex).
    pub first_hash: Option<String>,
    pub last_hash: Option<String>,
    /// The last sealed position when exported: later events were not exported.
    pub sealed_to: Option<i64>,
    /// The exporting server's public key (hex). Informational: the check uses the key given
    /// to it, never this one.
    pub public_key: String,
}

/// An exported event: its place, its canonical columns, the chain hash after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventLine {
    pub seq: i64,
    pub position: String,
    pub tx_id: String,
    pub stream_type: String,
    pub stream_id: String,
    pub stream_version: String,
    pub event_id: String,
    pub event_type: String,
    pub schema_version: String,
    pub payload: String,
    pub metadata: String,
    pub recorded_at: String,
    /// The chain hash after this event (hex).
    pub hash: String,
}

impl EventLine {
    pub fn new(seq: i64, event: CanonicalEvent, hash: &Hash) -> Self {
        let [
            position,
            tx_id,
            stream_type,
            stream_id,
            stream_version,
            event_id,
            event_type,
            schema_version,
            payload,
            metadata,
            recorded_at,
        ] = event.fields;
        Self {
            seq,
            position,
            tx_id,
            stream_type,
            stream_id,
            stream_version,
            event_id,
            event_type,
            schema_version,
            payload,
            metadata,
            recorded_at,
            hash: hex::encode(hash),
        }
    }

    /// The event's eleven columns in canonical order.
    pub fn canonical(&self) -> Result<CanonicalEvent, String> {
        CanonicalEvent::from_fields([
            self.position.clone(),
            self.tx_id.clone(),
            self.stream_type.clone(),
            self.stream_id.clone(),
            self.stream_version.clone(),
            self.event_id.clone(),
            self.event_type.clone(),
            self.schema_version.clone(),
            self.payload.clone(),
            self.metadata.clone(),
            self.recorded_at.clone(),
        ])
    }
}

/// The digests of the left-out chain places `from..=to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DigestsLine {
    pub from: i64,
    pub to: i64,
    /// Hex, one per place.
    pub digests: Vec<String>,
    /// The chain hash after the last (hex).
    pub hash: String,
}

/// A signed seal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SealLine {
    pub seq: i64,
    pub position: i64,
    pub tx_id: String,
    /// Hex.
    pub hash: String,
    /// Microseconds since 1970-01-01T00:00:00Z, as signed.
    pub sealed_at: i64,
    /// Hex.
    pub signature: String,
}

impl From<&Seal> for SealLine {
    fn from(s: &Seal) -> Self {
        Self {
            seq: s.seq,
            position: s.position,
            tx_id: s.tx_id.to_string(),
            hash: hex::encode(s.hash),
            sealed_at: s.sealed_at.timestamp_micros(),
            signature: hex::encode(&s.signature),
        }
    }
}

impl SealLine {
    fn seal(&self) -> Result<Seal, String> {
        let tx_id = self
            .tx_id
            .parse()
            .map_err(|_| format!("txId {:?} is not a number", self.tx_id))?;
        let sealed_at = DateTime::<Utc>::from_timestamp_micros(self.sealed_at)
            .ok_or_else(|| format!("sealedAt {} is out of range", self.sealed_at))?;
        Ok(Seal {
            seq: self.seq,
            position: self.position,
            tx_id,
            hash: hash_hex(&self.hash, "hash")?,
            sealed_at,
            public_key: Vec::new(),
            signature: hex::decode(&self.signature)
                .map_err(|_| "signature is not hexadecimal".to_string())?,
        })
    }
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "lowercase")]
pub enum Line {
    Manifest(Box<Manifest>),
    Event(Box<EventLine>),
    Digests(DigestsLine),
    Seal(SealLine),
}

impl Line {
    /// The line as written: JSON and a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec(self).unwrap_or_default();
        out.push(b'\n');
        out
    }
}

fn hash_hex(text: &str, what: &str) -> Result<Hash, String> {
    let bytes = hex::decode(text).map_err(|_| format!("{what} is not hexadecimal"))?;
    bytes
        .try_into()
        .map_err(|_| format!("{what} is not 32 bytes"))
}

/// The kind of a problem found in an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ProblemKind {
    /// Not a line of the format (JSON, field, hex or order).
    Malformed,
    /// The manifest disagrees with the lines (count, first or last position or hash).
    Manifest,
    /// An event's recomputed chain hash differs from the one its line states.
    ChangedEvent,
    /// A digests line's chain hash differs from the one it states.
    ChangedDigest,
    /// Chain places are skipped.
    MissingDigest,
    /// More places than the chain has there.
    ExtraDigest,
    /// A seal's signature does not verify with the public key.
    BadSealSignature,
    /// The folded chain does not arrive at a seal's signed hash, or the file ends unsealed.
    ChainDoesNotReachSeal,
}

impl std::fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Malformed => "malformed line",
            Self::Manifest => "manifest does not match",
            Self::ChangedEvent => "changed event",
            Self::ChangedDigest => "changed digest",
            Self::MissingDigest => "missing digest",
            Self::ExtraDigest => "extra digest",
            Self::BadSealSignature => "bad seal signature",
            Self::ChainDoesNotReachSeal => "chain does not reach seal",
        })
    }
}

/// The first problem: its line (1-based), kind and detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub line: usize,
    pub kind: ProblemKind,
    pub detail: String,
}

/// What the check of an export found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportReport {
    pub manifest: Option<Manifest>,
    pub events: u64,
    pub digests: u64,
    pub seals: u64,
    pub first_position: Option<i64>,
    pub last_position: Option<i64>,
    /// The last seal the chain was folded to (its position).
    pub sealed_to: Option<i64>,
    pub problem: Option<Problem>,
}

impl ExportReport {
    pub fn ok(&self) -> bool {
        self.problem.is_none()
    }
}

/// The fold: the chain's place and hash, and whether that hash is a verified seal's (the
/// start counts as one: place 0, 32 zero bytes).
struct Fold {
    seq: i64,
    hash: Hash,
    anchored: bool,
    first_hash: Option<Hash>,
    last_hash: Option<Hash>,
}

fn problem(line: usize, kind: ProblemKind, detail: impl Into<String>) -> Problem {
    Problem {
        line,
        kind,
        detail: detail.into(),
    }
}

/// The next place must be `fold.seq + 1`.
fn check_place(line: usize, fold: &Fold, seq: i64) -> Result<(), Problem> {
    let expected = fold.seq + 1;
    match seq.cmp(&expected) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Greater => Err(problem(
            line,
            ProblemKind::MissingDigest,
            format!(
                "the line starts at chain place {seq}, the chain is at {}: places {expected} to {} are missing",
                fold.seq,
                seq - 1
            ),
        )),
        std::cmp::Ordering::Less => Err(problem(
            line,
            ProblemKind::ExtraDigest,
            format!(
                "the line starts at chain place {seq}, but the chain is already at {}",
                fold.seq
            ),
        )),
    }
}

/// Checks an export read from `input` with the public key `key` alone.
pub fn verify_export(input: impl BufRead, key: &VerifyingKey) -> std::io::Result<ExportReport> {
    let mut report = ExportReport::default();
    if let Err(p) = fold_export(input, key, &mut report)? {
        report.problem = Some(p);
    }
    Ok(report)
}

fn fold_export(
    input: impl BufRead,
    key: &VerifyingKey,
    report: &mut ExportReport,
) -> std::io::Result<Result<(), Problem>> {
    let mut fold = Fold {
        seq: 0,
        hash: ZERO_HASH,
        anchored: true,
        first_hash: None,
        last_hash: None,
    };
    let mut last_line = 0;
    let mut blank_at = None;
    for (i, text) in input.lines().enumerate() {
        let text = text?;
        let n = i + 1;
        last_line = n;
        if text.trim().is_empty() {
            blank_at.get_or_insert(n);
            continue;
        }
        if let Some(b) = blank_at {
            return Ok(Err(problem(b, ProblemKind::Malformed, "an empty line")));
        }
        let line: Line = match serde_json::from_str(&text) {
            Ok(l) => l,
            Err(e) => return Ok(Err(problem(n, ProblemKind::Malformed, e.to_string()))),
        };
        if let Err(p) = step(n, line, key, &mut fold, report) {
            return Ok(Err(p));
        }
    }
    let Some(manifest) = report.manifest.clone() else {
        return Ok(Err(problem(1, ProblemKind::Malformed, "no manifest")));
    };
    if !fold.anchored {
        return Ok(Err(problem(
            last_line,
            ProblemKind::ChainDoesNotReachSeal,
            format!(
                "the file ends at chain place {} without a seal there (cut short?)",
                fold.seq
            ),
        )));
    }
    let hex_of = |h: Option<Hash>| h.map(hex::encode);
    let checks = [
        (
            "count",
            manifest.count.to_string(),
            report.events.to_string(),
        ),
        (
            "firstPosition",
            format!("{:?}", manifest.first_position),
            format!("{:?}", report.first_position),
        ),
        (
            "lastPosition",
            format!("{:?}", manifest.last_position),
            format!("{:?}", report.last_position),
        ),
        (
            "firstHash",
            format!("{:?}", manifest.first_hash),
            format!("{:?}", hex_of(fold.first_hash)),
        ),
        (
            "lastHash",
            format!("{:?}", manifest.last_hash),
            format!("{:?}", hex_of(fold.last_hash)),
        ),
    ];
    for (field, stated, found) in checks {
        if stated != found {
            return Ok(Err(problem(
                1,
                ProblemKind::Manifest,
                format!("{field} is {stated} in the manifest, {found} in the lines"),
            )));
        }
    }
    Ok(Ok(()))
}

fn step(
    n: usize,
    line: Line,
    key: &VerifyingKey,
    fold: &mut Fold,
    report: &mut ExportReport,
) -> Result<(), Problem> {
    match (line, report.manifest.is_some()) {
        (Line::Manifest(m), false) if n == 1 => {
            if m.format != EXPORT_FORMAT {
                return Err(problem(
                    n,
                    ProblemKind::Malformed,
                    format!("format {:?}, expected {EXPORT_FORMAT:?}", m.format),
                ));
            }
            report.manifest = Some(*m);
            Ok(())
        }
        (Line::Manifest(_), _) => Err(problem(
            n,
            ProblemKind::Malformed,
            "a manifest must be line 1, and only there",
        )),
        (_, false) => Err(problem(
            n,
            ProblemKind::Malformed,
            "line 1 must be the manifest",
        )),
        (Line::Event(e), true) => {
            check_place(n, fold, e.seq)?;
            let event = e
                .canonical()
                .map_err(|d| problem(n, ProblemKind::Malformed, d))?;
            let stated =
                hash_hex(&e.hash, "hash").map_err(|d| problem(n, ProblemKind::Malformed, d))?;
            let hash = link(&fold.hash, &digest(&event.bytes()));
            if hash != stated {
                return Err(problem(
                    n,
                    ProblemKind::ChangedEvent,
                    format!(
                        "the event at position {} (chain place {}) does not give the chain hash its line states",
                        event.position, e.seq
                    ),
                ));
            }
            *fold = Fold {
                seq: e.seq,
                hash,
                anchored: false,
                first_hash: fold.first_hash.or(Some(hash)),
                last_hash: Some(hash),
            };
            report.events += 1;
            report.first_position.get_or_insert(event.position);
            report.last_position = Some(event.position);
            Ok(())
        }
        (Line::Digests(d), true) => {
            check_place(n, fold, d.from)?;
            let places = d.to - d.from + 1;
            let given = d.digests.len() as i64;
            if given != places {
                let kind = if given < places {
                    ProblemKind::MissingDigest
                } else {
                    ProblemKind::ExtraDigest
                };
                return Err(problem(
                    n,
                    kind,
                    format!(
                        "places {} to {} need {places} digests, the line has {given}",
                        d.from, d.to
                    ),
                ));
            }
            let mut hash = fold.hash;
            for text in &d.digests {
                let one = hash_hex(text, "a digest")
                    .map_err(|e| problem(n, ProblemKind::Malformed, e))?;
                hash = link(&hash, &one);
            }
            let stated =
                hash_hex(&d.hash, "hash").map_err(|e| problem(n, ProblemKind::Malformed, e))?;
            if hash != stated {
                return Err(problem(
                    n,
                    ProblemKind::ChangedDigest,
                    format!(
                        "the digests of places {} to {} do not give the chain hash the line states",
                        d.from, d.to
                    ),
                ));
            }
            fold.seq = d.to;
            fold.hash = hash;
            fold.anchored = false;
            report.digests += given as u64;
            Ok(())
        }
        (Line::Seal(s), true) => {
            let seal = s
                .seal()
                .map_err(|d| problem(n, ProblemKind::Malformed, d))?;
            if !seal_signature_ok(key, &seal) {
                return Err(problem(
                    n,
                    ProblemKind::BadSealSignature,
                    format!(
                        "the seal of chain place {} does not verify with public key {}",
                        seal.seq,
                        hex::encode(key.to_bytes())
                    ),
                ));
            }
            if seal.seq == fold.seq {
                if seal.hash != fold.hash {
                    return Err(problem(
                        n,
                        ProblemKind::ChainDoesNotReachSeal,
                        format!(
                            "the chain folded to place {} differs from the hash the seal signs",
                            seal.seq
                        ),
                    ));
                }
            } else if seal.seq < fold.seq {
                return Err(problem(
                    n,
                    ProblemKind::ChainDoesNotReachSeal,
                    format!(
                        "the seal of place {} comes after the chain reached place {}",
                        seal.seq, fold.seq
                    ),
                ));
            } else if !fold.anchored {
                return Err(problem(
                    n,
                    ProblemKind::MissingDigest,
                    format!(
                        "the chain is at place {} and the next seal at {}: the digests between are missing",
                        fold.seq, seal.seq
                    ),
                ));
            }
            // At the seal, or a jump from a verified seal (or the start) to a later one.
            fold.seq = seal.seq;
            fold.hash = seal.hash;
            fold.anchored = true;
            report.seals += 1;
            report.sealed_to = Some(seal.position);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests;
