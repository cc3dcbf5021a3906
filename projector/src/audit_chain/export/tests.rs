//! The format and its offline check on a chain built in memory: ten events, seals at places
//! 4, 8 and 10; the export holds events 2 and 9.

use chrono::TimeZone;

use super::*;
use crate::audit_chain::seal::{SealKey, seal_message};

fn key() -> SealKey {
    SealKey::from_hex(&"33".repeat(32)).expect("key")
}

fn event(n: i64) -> CanonicalEvent {
    CanonicalEvent::from_fields([
        (n * 3).to_string(),
        (700 + n).to_string(),
        "declaration".into(),
        "0190d4c6-0000-7000-8000-000000000001".into(),
        n.to_string(),
        format!("0190d4c6-0000-7000-8000-0000000000{n:02}"),
        "DeclarationEdited".into(),
        "1".into(),
        format!("{{\"n\": {n}, \"名\": \"张三\"}}"),
        "{\"actorName\": \"operator\"}".into(),
        "2026-11-25T02:00:00.000000Z".into(),
    ])
    .expect("event")
}

struct Chain {
    events: Vec<CanonicalEvent>,
    digests: Vec<Hash>,
    /// hashes[i] = the hash after place i (hashes[0] = zeros).
    hashes: Vec<Hash>,
    seals: Vec<Seal>,
}

fn chain(key: &SealKey) -> Chain {
    let events: Vec<CanonicalEvent> = (1..=10).map(event).collect();
    let digests: Vec<Hash> = events.iter().map(|e| e.digest()).collect();
    let mut hashes = vec![ZERO_HASH];
    for d in &digests {
        let next = link(hashes.last().expect("a hash"), d);
        hashes.push(next);
    }
    let at = chrono::Utc
        .timestamp_micros(1_764_000_000_123_456)
        .single()
        .expect("time");
    let seals = [4, 8, 10]
        .into_iter()
        .map(|seq: i64| {
            let e = &events[seq as usize - 1];
            let hash = hashes[seq as usize];
            Seal {
                seq,
                position: e.position,
                tx_id: e.tx_id,
                hash,
                sealed_at: at,
                public_key: key.public().to_bytes().to_vec(),
                signature: key
                    .sign(&seal_message(seq, e.position, e.tx_id, &hash, at))
                    .to_vec(),
            }
        })
        .collect();
    Chain {
        events,
        digests,
        hashes,
        seals,
    }
}

fn digests(c: &Chain, from: i64, to: i64) -> Line {
    Line::Digests(DigestsLine {
        from,
        to,
        digests: (from..=to)
            .map(|s| hex::encode(c.digests[s as usize - 1]))
            .collect(),
        hash: hex::encode(c.hashes[to as usize]),
    })
}

fn event_line(c: &Chain, seq: i64) -> Line {
    Line::Event(Box::new(EventLine::new(
        seq,
        c.events[seq as usize - 1].clone(),
        &c.hashes[seq as usize],
    )))
}

fn seal_line(c: &Chain, seq: i64) -> Line {
    let s = c.seals.iter().find(|s| s.seq == seq).expect("a seal");
    Line::Seal(SealLine::from(s))
}

/// The export of events 2 and 9: from the start to seal 4, a jump to seal 8, on to seal 10.
fn export_lines(c: &Chain) -> Vec<Line> {
    let manifest = Manifest {
        format: EXPORT_FORMAT.into(),
        exported_at: chrono::Utc::now(),
        exported_by: "auditor".into(),
        filter: serde_json::json!({"eventType": "DeclarationEdited"}),
        count: 2,
        first_position: Some(6),
        last_position: Some(27),
        first_hash: Some(hex::encode(c.hashes[2])),
        last_hash: Some(hex::encode(c.hashes[9])),
        sealed_to: Some(30),
        public_key: key().public_hex(),
    };
    vec![
        Line::Manifest(Box::new(manifest)),
        digests(c, 1, 1),
        event_line(c, 2),
        digests(c, 3, 4),
        seal_line(c, 4),
        seal_line(c, 8),
        event_line(c, 9),
        digests(c, 10, 10),
        seal_line(c, 10),
    ]
}

fn file(lines: &[Line]) -> Vec<u8> {
    lines.iter().flat_map(|l| l.to_bytes()).collect()
}

fn check(bytes: &[u8], key: &VerifyingKey) -> ExportReport {
    verify_export(bytes, key).expect("read")
}

fn problem_of(bytes: &[u8]) -> Problem {
    check(bytes, &key().public()).problem.expect("a problem")
}

#[test]
fn an_export_verifies_with_the_public_key_alone() {
    let k = key();
    let c = chain(&k);
    let report = check(&file(&export_lines(&c)), &k.public());
    assert_eq!(report.problem, None);
    assert_eq!(report.events, 2);
    assert_eq!(report.digests, 4);
    assert_eq!(report.seals, 3);
    assert_eq!(
        (report.first_position, report.last_position),
        (Some(6), Some(27))
    );
    assert_eq!(report.sealed_to, Some(30));
}

#[test]
fn each_line_is_one_json_object_tagged_by_its_kind() {
    let c = chain(&key());
    let bytes = file(&export_lines(&c));
    let text = String::from_utf8(bytes).expect("utf-8");
    let kinds: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("json");
            v["t"].as_str().expect("t").to_string()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "manifest", "digests", "event", "digests", "seal", "seal", "event", "digests", "seal"
        ]
    );
    let event: serde_json::Value =
        serde_json::from_str(text.lines().nth(2).expect("line 3")).expect("json");
    // The columns as text, exactly as the database renders them.
    assert_eq!(event["payload"], "{\"n\": 2, \"名\": \"张三\"}");
    assert_eq!(event["position"], "6");
    assert_eq!(event["seq"], 2);
}

#[test]
fn one_changed_byte_of_an_event_line_is_found_at_that_line() {
    let c = chain(&key());
    let text = String::from_utf8(file(&export_lines(&c))).expect("utf-8");
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[6] = lines[6].replace("\\\"n\\\": 9", "\\\"n\\\": 8");
    let p = problem_of((lines.join("\n") + "\n").as_bytes());
    assert_eq!((p.line, p.kind), (7, ProblemKind::ChangedEvent), "{p:?}");
    // A byte that breaks the JSON is found at its line too.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = lines[2].replacen('"', "'", 1);
    let p = problem_of((lines.join("\n") + "\n").as_bytes());
    assert_eq!((p.line, p.kind), (3, ProblemKind::Malformed), "{p:?}");
}

#[test]
fn an_event_changed_along_with_its_stated_hash_is_caught_by_the_next_seal() {
    let c = chain(&key());
    let mut lines = export_lines(&c);
    let mut forged = event(9);
    forged.fields[8] = "{\"n\": 99}".into();
    let hash = link(&c.hashes[8], &forged.digest());
    lines[6] = Line::Event(Box::new(EventLine::new(9, forged, &hash)));
    // The digests after it restated from the forged hash too.
    lines[7] = Line::Digests(DigestsLine {
        from: 10,
        to: 10,
        digests: vec![hex::encode(c.digests[9])],
        hash: hex::encode(link(&hash, &c.digests[9])),
    });
    let p = problem_of(&file(&lines));
    assert_eq!(
        (p.line, p.kind),
        (9, ProblemKind::ChainDoesNotReachSeal),
        "{p:?}"
    );
}

#[test]
fn a_changed_missing_or_extra_digest_is_named() {
    let c = chain(&key());
    let mut lines = export_lines(&c);
    if let Line::Digests(d) = &mut lines[3] {
        d.digests[0] = hex::encode([9u8; 32]);
    }
    let p = problem_of(&file(&lines));
    assert_eq!((p.line, p.kind), (4, ProblemKind::ChangedDigest), "{p:?}");

    let mut lines = export_lines(&c);
    if let Line::Digests(d) = &mut lines[3] {
        d.digests.pop();
    }
    assert_eq!(problem_of(&file(&lines)).kind, ProblemKind::MissingDigest);

    let mut lines = export_lines(&c);
    if let Line::Digests(d) = &mut lines[3] {
        d.digests.push(hex::encode([9u8; 32]));
    }
    assert_eq!(problem_of(&file(&lines)).kind, ProblemKind::ExtraDigest);

    // A whole digests line left out: the event after it starts at the wrong place.
    let mut lines = export_lines(&c);
    lines.remove(1);
    let p = problem_of(&file(&lines));
    assert_eq!((p.line, p.kind), (2, ProblemKind::MissingDigest), "{p:?}");

    // A jump from a place that is not a seal.
    let mut lines = export_lines(&c);
    lines.remove(7);
    let p = problem_of(&file(&lines));
    assert_eq!((p.line, p.kind), (8, ProblemKind::MissingDigest), "{p:?}");
}

#[test]
fn a_tampered_seal_or_another_key_fails_the_signature() {
    let k = key();
    let c = chain(&k);
    let mut lines = export_lines(&c);
    if let Line::Seal(s) = &mut lines[4] {
        s.sealed_at += 1;
    }
    let p = problem_of(&file(&lines));
    assert_eq!(
        (p.line, p.kind),
        (5, ProblemKind::BadSealSignature),
        "{p:?}"
    );

    let other = SealKey::generate();
    let report = check(&file(&export_lines(&c)), &other.public());
    let p = report.problem.expect("a problem");
    assert_eq!(
        (p.line, p.kind),
        (5, ProblemKind::BadSealSignature),
        "{p:?}"
    );
}

#[test]
fn a_file_cut_short_or_a_lying_manifest_is_refused() {
    let c = chain(&key());
    let mut lines = export_lines(&c);
    lines.pop();
    let p = problem_of(&file(&lines));
    assert_eq!(
        (p.line, p.kind),
        (8, ProblemKind::ChainDoesNotReachSeal),
        "{p:?}"
    );

    let mut lines = export_lines(&c);
    if let Line::Manifest(m) = &mut lines[0] {
        m.count = 3;
    }
    let p = problem_of(&file(&lines));
    assert_eq!((p.line, p.kind), (1, ProblemKind::Manifest), "{p:?}");
    assert!(p.detail.contains("count"), "{p:?}");

    let mut lines = export_lines(&c);
    lines.swap(0, 1);
    assert_eq!(problem_of(&file(&lines)).kind, ProblemKind::Malformed);
    assert_eq!(problem_of(b"").kind, ProblemKind::Malformed);
}
