//! The supplement (`DecSupplement`, docs/schemas/DecSupplement.xsd): once the clearance
//! exception an `Sp1` opened reaches review completed, the documents handed in go to customs
//! as `<CopNo>.sup<N>.xml` (N counts from 1 per message), checked by the schema's rules
//! before anything is written, written by the same writer as the declaration message
//! ([`super::outbox`]).
//!
//! Each document of the exception is one `DOC`: its file name, its SHA-256 and the kind of
//! document customs asked for (`KIND`, a name from the receipt's `DOCS`): the requested
//! document the file was uploaded for (its slot, `DocumentAttached.requested`). A file sent
//! beside the request (or before slots existed) is judged from its name: the requested kind
//! it contains (case and separators ignored: `commercial-invoice.pdf` is a
//! `commercialInvoice`), else the one kind asked for when customs asked for one, else `other`.

use std::fmt::Write as _;

use super::message::{Message, escape, xml_char};

/// One document sent: (kind, file name, SHA-256).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    pub kind: String,
    pub file_name: String,
    pub sha256: String,
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The kind of document a file is, among those customs asked for (see the module's text).
pub fn kind_of(file_name: &str, requested: &[String]) -> String {
    let name = squash(file_name);
    let mut by_length: Vec<&String> = requested.iter().collect();
    // The longest match first: `proxyProtocol` before a shorter kind it may contain.
    by_length.sort_by_key(|k| std::cmp::Reverse(k.len()));
    if let Some(k) = by_length
        .into_iter()
        .find(|k| !squash(k).is_empty() && name.contains(&squash(k)))
    {
        return k.clone();
    }
    match requested {
        [one] => one.clone(),
        _ => "other".into(),
    }
}

fn is_cop_no(s: &str) -> bool {
    s.len() == 18
        && s.chars()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

/// An entry number as customs gives it (18 digits); anything else is not known.
pub fn entry_id(s: Option<&str>) -> Option<&str> {
    s.map(str::trim)
        .filter(|e| e.len() == 18 && e.chars().all(|c| c.is_ascii_digit()))
}

/// The supplement answering `cop_no`, checked by the rules of `DecSupplement.xsd`; the
/// problems, each naming its element, when it cannot be valid.
pub fn build(cop_no: &str, entry: Option<&str>, docs: &[Doc]) -> Result<Message, Vec<String>> {
    let mut problems = Vec::new();
    if !is_cop_no(cop_no) {
        problems.push(format!(
            "COP_NO: must be 18 upper-case letters or digits (is {cop_no:?})"
        ));
    }
    for (i, d) in docs.iter().enumerate() {
        let at = format!("DOC[{}]", i + 1);
        for (name, value, max) in [("KIND", &d.kind, 100), ("FILE_NAME", &d.file_name, 255)] {
            if value.trim().is_empty() {
                problems.push(format!("{at}/{name}: required"));
            } else if value.chars().count() > max {
                problems.push(format!("{at}/{name}: at most {max} characters"));
            } else if !value.chars().all(xml_char) {
                problems.push(format!("{at}/{name}: holds a character XML cannot carry"));
            }
        }
        if d.sha256.len() != 64
            || !d
                .sha256
                .chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        {
            problems.push(format!("{at}/SHA256: must be 64 lower-case hex digits"));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DecSupplement>\n");
    let _ = writeln!(out, "  <COP_NO>{cop_no}</COP_NO>");
    if let Some(e) = entry_id(entry) {
        let _ = writeln!(out, "  <ENTRY_ID>{e}</ENTRY_ID>");
    }
    for d in docs {
        out.push_str("  <DOC>\n    <KIND>");
        escape(&mut out, d.kind.trim());
        out.push_str("</KIND>\n    <FILE_NAME>");
        escape(&mut out, d.file_name.trim());
        out.push_str("</FILE_NAME>\n");
        let _ = writeln!(out, "    <SHA256>{}</SHA256>\n  </DOC>", d.sha256);
    }
    out.push_str("</DecSupplement>\n");
    Ok(Message { xml: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(k: &[&str]) -> Vec<String> {
        k.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_document_is_the_kind_its_name_says_else_the_one_asked_for_else_other() {
        let two = kinds(&["commercialInvoice", "packingList"]);
        assert_eq!(
            kind_of("Commercial-Invoice 2026.pdf", &two),
            "commercialInvoice"
        );
        assert_eq!(kind_of("packing_list.png", &two), "packingList");
        assert_eq!(kind_of("scan.pdf", &two), "other");
        assert_eq!(kind_of("scan.pdf", &kinds(&["poa"])), "poa");
        assert_eq!(kind_of("scan.pdf", &[]), "other");
    }

    #[test]
    fn the_supplement_names_each_document_and_refuses_what_the_schema_would() {
        let sha = "a".repeat(64);
        let doc = Doc {
            kind: "poa".into(),
            file_name: "委托书 <1>.pdf".into(),
            sha256: sha.clone(),
        };
        let m = build(
            "CW0123456789ABCDEF",
            Some("222420261000012345"),
            std::slice::from_ref(&doc),
        )
        .expect("valid");
        assert!(m.xml.contains("<COP_NO>CW0123456789ABCDEF</COP_NO>"));
        assert!(m.xml.contains("<ENTRY_ID>222420261000012345</ENTRY_ID>"));
        assert!(
            m.xml
                .contains("<FILE_NAME>委托书 &lt;1&gt;.pdf</FILE_NAME>")
        );
        // An entry number not of customs' shape is not known: left out.
        let m = build("CW0123456789ABCDEF", Some("12"), &[]).expect("valid");
        assert!(!m.xml.contains("ENTRY_ID"));
        let bad = Doc {
            file_name: "a\u{1}b".into(),
            sha256: "XYZ".into(),
            ..doc
        };
        let problems = build("cw1", None, &[bad]).expect_err("invalid");
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].starts_with("COP_NO"));
        assert!(problems[1].starts_with("DOC[1]/FILE_NAME"));
        assert!(problems[2].starts_with("DOC[1]/SHA256"));
    }
}
