//! Reading a receipt file (docs/schemas/DecResult.xsd) safely: a pull parser over bytes
//! already checked to be UTF-8 and within the size limit, which never expands anything (a
//! DTD is refused outright, an entity other than XML's five and character references is
//! refused), with the nesting and the text of each element bounded. A file that ends
//! inside an element is *incomplete* (still being written: read again later); anything
//! else that is wrong is a refusal with the reason written beside the file in `failed/`.

use chrono::{DateTime, FixedOffset, NaiveDateTime, TimeZone};
use events::declaration::customs::{AssessedTax, CustomsReceipt};
use quick_xml::Reader;
use quick_xml::events::Event;

/// The bounds of one receipt file.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of one file (8 MiB).
    pub max_bytes: u64,
    /// Elements nested (the deepest a receipt needs is 4: DEC_RESULTS/DEC_RESULT/TAXES/TAX/TYPE).
    pub max_depth: usize,
    /// Receipts in one file.
    pub max_receipts: usize,
    /// Characters of one element's text.
    pub max_text: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 8 * 1024 * 1024,
            max_depth: 8,
            max_receipts: 10_000,
            max_text: 4000,
        }
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unread {
    /// It ends inside an element (or is empty): a writer may not have finished.
    Incomplete(String),
    /// It is not a receipt file; the reason goes to `<name>.why.txt`.
    Refused(String),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Incomplete(r) | Self::Refused(r) => f.write_str(r),
        }
    }
}

fn refused(s: impl Into<String>) -> Unread {
    Unread::Refused(s.into())
}

#[derive(Default)]
struct Builder {
    cop_no: Option<String>,
    channel: Option<String>,
    notice_date: Option<String>,
    cus_ciq_no: Option<String>,
    entry_id: Option<String>,
    note: Option<String>,
    taxes: Vec<AssessedTax>,
    tax_type: Option<String>,
    tax_amount: Option<String>,
    docs: Vec<String>,
}

/// `NOTICE_DATE`: ISO 8601 with an offset, or without one in Asia/Shanghai (+08:00).
pub fn notice_date(s: &str) -> Option<DateTime<FixedOffset>> {
    let s = s.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(s) {
        return Some(d);
    }
    for f in [
        "%Y-%m-%dT%H:%M:%S%.f",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M:%S%.f",
    ] {
        if let Ok(n) = NaiveDateTime::parse_from_str(s, f) {
            let cst = FixedOffset::east_opt(8 * 3600)?;
            return cst.from_local_datetime(&n).single();
        }
    }
    None
}

fn amount(s: &str) -> bool {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    !int.is_empty()
        && int.bytes().all(|b| b.is_ascii_digit())
        && frac.len() <= 2
        && frac.bytes().all(|b| b.is_ascii_digit())
        && (s.contains('.') <= !frac.is_empty())
}

impl Builder {
    fn finish(self, n: usize) -> Result<CustomsReceipt, Unread> {
        let missing = |what: &str| refused(format!("receipt {n}: {what} is missing"));
        let cop_no = self.cop_no.ok_or_else(|| missing("COP_NO"))?;
        let channel = self.channel.ok_or_else(|| missing("CHANNEL"))?;
        let raw = self.notice_date.ok_or_else(|| missing("NOTICE_DATE"))?;
        let notice_date = notice_date(&raw).ok_or_else(|| {
            refused(format!(
                "receipt {n}: NOTICE_DATE {raw:?} is not an ISO 8601 time (2026-11-28T10:15:00+08:00)"
            ))
        })?;
        Ok(CustomsReceipt {
            cop_no,
            channel,
            notice_date,
            cus_ciq_no: self.cus_ciq_no,
            entry_id: self.entry_id,
            note: self.note,
            taxes: self.taxes,
            docs: self.docs,
        })
    }
}

/// The receipts of one file, in the file's order.
pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Vec<CustomsReceipt>, Unread> {
    if bytes.len() as u64 > limits.max_bytes {
        return Err(refused(format!(
            "the file is {} bytes; a receipt file holds at most {}",
            bytes.len(),
            limits.max_bytes
        )));
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(Unread::Incomplete("the file is empty".into()));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => {
            // Cut inside a character: the rest may still be coming.
            return Err(Unread::Incomplete(
                "the file ends inside a UTF-8 character".into(),
            ));
        }
        Err(e) => {
            return Err(refused(format!(
                "the file is not UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            )));
        }
    };
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut reader = Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = true;
    config.expand_empty_elements = true;
    let mut stack: Vec<String> = Vec::new();
    let mut buf = String::new();
    let mut current: Option<Builder> = None;
    let mut out = Vec::new();
    let mut root_done = false;
    loop {
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                let pos = reader.error_position();
                let msg = e.to_string();
                if !stack.is_empty()
                    && (msg.contains("EOF") || msg.contains("eof") || msg.contains("end of"))
                {
                    return Err(Unread::Incomplete(format!("the file ends early: {msg}")));
                }
                return Err(refused(format!("not well-formed XML at byte {pos}: {msg}")));
            }
        };
        match event {
            Event::Eof => break,
            Event::DocType(_) => {
                return Err(refused(
                    "a document type declaration (DTD) is refused: receipts carry none, and nothing is read from outside the file",
                ));
            }
            Event::Decl(d) => {
                if let Some(Ok(enc)) = d.encoding() {
                    let enc = enc.to_ascii_uppercase();
                    if enc != "UTF-8" && enc != "UTF8" {
                        return Err(refused(format!(
                            "the encoding {enc} is refused: receipts are UTF-8"
                        )));
                    }
                }
            }
            // Empty elements come as a start and an end (`expand_empty_elements`).
            Event::PI(_) | Event::Comment(_) | Event::Empty(_) => {}
            Event::Start(e) => {
                let qname = e.name();
                let name: &str = qname.as_ref();
                let name = name.to_string();
                if root_done {
                    return Err(refused(format!("<{name}> after the root element")));
                }
                if stack.len() >= limits.max_depth {
                    return Err(refused(format!(
                        "elements nested deeper than {} levels",
                        limits.max_depth
                    )));
                }
                if !buf.trim().is_empty() {
                    return Err(refused(format!("text before <{name}> where none belongs")));
                }
                buf.clear();
                match (stack.len(), stack.last().map(String::as_str), name.as_str()) {
                    (0, _, "DEC_RESULT") => current = Some(Builder::default()),
                    (0, _, "DEC_RESULTS") => {}
                    (0, _, other) => {
                        return Err(refused(format!(
                            "the root element is <{other}>; a receipt file's is <DEC_RESULT> or <DEC_RESULTS>"
                        )));
                    }
                    (1, Some("DEC_RESULTS"), "DEC_RESULT") => {
                        if out.len() >= limits.max_receipts {
                            return Err(refused(format!(
                                "more than {} receipts in one file",
                                limits.max_receipts
                            )));
                        }
                        current = Some(Builder::default());
                    }
                    (1, Some("DEC_RESULTS"), other) => {
                        return Err(refused(format!("<{other}> inside <DEC_RESULTS>")));
                    }
                    _ => {}
                }
                stack.push(name);
            }
            Event::End(_) => {
                let Some(name) = stack.pop() else {
                    return Err(refused("an end tag without its start"));
                };
                let value = buf.trim().to_string();
                buf.clear();
                let parent = stack.last().map(String::as_str);
                if let Some(b) = current.as_mut() {
                    let v = || Some(value.clone()).filter(|v| !v.is_empty());
                    match (parent, name.as_str()) {
                        (Some("DEC_RESULT"), "COP_NO") => b.cop_no = v(),
                        (Some("DEC_RESULT"), "CHANNEL") => b.channel = v(),
                        (Some("DEC_RESULT"), "NOTICE_DATE") => b.notice_date = v(),
                        (Some("DEC_RESULT"), "CUS_CIQ_NO") => b.cus_ciq_no = v(),
                        (Some("DEC_RESULT"), "ENTRY_ID") => b.entry_id = v(),
                        (Some("DEC_RESULT"), "NOTE") => b.note = v(),
                        (Some("TAX"), "TYPE") => b.tax_type = v(),
                        (Some("TAX"), "AMOUNT") => b.tax_amount = v(),
                        (Some("TAXES"), "TAX") => {
                            let n = out.len() + 1;
                            let (Some(t), Some(a)) = (b.tax_type.take(), b.tax_amount.take())
                            else {
                                return Err(refused(format!(
                                    "receipt {n}: a TAX without its TYPE or AMOUNT"
                                )));
                            };
                            if !matches!(t.as_str(), "A" | "L" | "Y") {
                                return Err(refused(format!(
                                    "receipt {n}: TAX TYPE {t:?} is not A, L or Y"
                                )));
                            }
                            if !amount(&a) {
                                return Err(refused(format!(
                                    "receipt {n}: TAX AMOUNT {a:?} is not an amount in CNY with at most 2 decimals"
                                )));
                            }
                            b.taxes.push(AssessedTax {
                                tax_type: t,
                                amount: a,
                            });
                        }
                        (Some("DOCS"), "DOC") => {
                            if let Some(d) = v() {
                                b.docs.push(d);
                            }
                        }
                        _ => {}
                    }
                }
                if name == "DEC_RESULT"
                    && let Some(b) = current.take()
                {
                    out.push(b.finish(out.len() + 1)?);
                }
                if stack.is_empty() {
                    root_done = true;
                }
            }
            Event::Text(t) => {
                if stack.is_empty() {
                    if !t.trim().is_empty() {
                        return Err(refused(
                            "text outside the root element: this is not a receipt file",
                        ));
                    }
                    continue;
                }
                push_text(&mut buf, &t, limits)?;
            }
            Event::CData(c) => {
                let s = c.xml10_content();
                if stack.is_empty() {
                    return Err(refused("CDATA outside the root element"));
                }
                push_text(&mut buf, &s, limits)?;
            }
            Event::GeneralRef(r) => {
                if stack.is_empty() {
                    return Err(refused("a reference outside the root element"));
                }
                let c = if r.is_char_ref() {
                    match r.resolve_char_ref() {
                        Ok(Some(c)) => c,
                        _ => {
                            return Err(refused(format!(
                                "the character reference &{}; is not valid",
                                &*r
                            )));
                        }
                    }
                } else {
                    match &*r {
                        "lt" => '<',
                        "gt" => '>',
                        "amp" => '&',
                        "apos" => '\'',
                        "quot" => '"',
                        other => {
                            return Err(refused(format!(
                                "the entity &{other}; is refused: only XML's own five are read"
                            )));
                        }
                    }
                };
                push_text(&mut buf, c.encode_utf8(&mut [0; 4]), limits)?;
            }
        }
    }
    if !stack.is_empty() {
        return Err(Unread::Incomplete(format!(
            "the file ends inside <{}>",
            stack.last().map(String::as_str).unwrap_or("")
        )));
    }
    if !root_done {
        return Err(refused("no root element: this is not a receipt file"));
    }
    Ok(out)
}

fn push_text(buf: &mut String, s: &str, limits: &Limits) -> Result<(), Unread> {
    if buf.len() + s.len() > limits.max_text * 4
        || buf.chars().count() + s.chars().count() > limits.max_text
    {
        return Err(refused(format!(
            "an element's text is longer than {} characters",
            limits.max_text
        )));
    }
    buf.push_str(s);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Vec<CustomsReceipt>, Unread> {
        parse(s.as_bytes(), &Limits::default())
    }

    #[test]
    fn reads_one_receipt_and_a_wrapped_list() {
        let one = p("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DEC_RESULT><COP_NO>CW0000000000000001</COP_NO><CHANNEL>T</CHANNEL>\
            <NOTICE_DATE>2026-11-28T10:15:00</NOTICE_DATE><NOTE>a &amp; b &#x4E2D;</NOTE>\
            <TAXES><TAX><TYPE>A</TYPE><AMOUNT>12.50</AMOUNT></TAX><TAX><TYPE>L</TYPE><AMOUNT>3</AMOUNT></TAX></TAXES></DEC_RESULT>")
        .expect("parsed");
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].note.as_deref(), Some("a & b 中"));
        assert_eq!(one[0].notice_date.to_rfc3339(), "2026-11-28T10:15:00+08:00");
        assert_eq!(one[0].taxes.len(), 2);
        let many = p("<DEC_RESULTS><DEC_RESULT><COP_NO>A</COP_NO><CHANNEL>L</CHANNEL><NOTICE_DATE>2026-11-28T10:15:00Z</NOTICE_DATE></DEC_RESULT>\
            <DEC_RESULT><CHANNEL>Sp1</CHANNEL><COP_NO>A</COP_NO><NOTICE_DATE>2026-11-28T11:15:00+08:00</NOTICE_DATE><DOCS><DOC>poa</DOC><DOC>waybill</DOC></DOCS></DEC_RESULT></DEC_RESULTS>")
        .expect("parsed");
        assert_eq!(many.len(), 2);
        assert_eq!(many[1].docs, vec!["poa", "waybill"]);
    }

    #[test]
    fn refuses_what_is_not_a_receipt_and_waits_for_what_is_not_finished() {
        let refusedp = |s: &str| matches!(p(s), Err(Unread::Refused(_)));
        assert!(refusedp("<!DOCTYPE x [<!ENTITY a \"b\">]><DEC_RESULT/>"));
        assert!(refusedp("<DEC_RESULT><NOTE>&xxe;</NOTE></DEC_RESULT>"));
        assert!(refusedp("hello, world"));
        assert!(refusedp("<html/>"));
        assert!(refusedp(&format!(
            "<DEC_RESULT>{}{}</DEC_RESULT>",
            "<a>".repeat(20),
            "</a>".repeat(20)
        )));
        assert!(refusedp(
            "<DEC_RESULT><COP_NO>A</COP_NO><CHANNEL>L</CHANNEL></DEC_RESULT>"
        ));
        assert!(matches!(
            parse(b"<DEC_RESULT>\xff</DEC_RESULT>", &Limits::default()),
            Err(Unread::Refused(_))
        ));
        assert!(matches!(
            p("<DEC_RESULTS><DEC_RESULT><COP_NO>A"),
            Err(Unread::Incomplete(_))
        ));
        assert!(matches!(p(""), Err(Unread::Incomplete(_))));
    }
}
