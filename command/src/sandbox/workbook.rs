//! The checks every workbook passes before a parser sees it (steps 1 to 5 of the upload's
//! reader, [`crate::upload::read`]): its size, its type from the bytes, the zip central
//! directory, each entry decompressed with what is read capped (no DTD, bounded nesting),
//! and the shared-string table's declared counts. They sit beside [`super::declared`], which
//! holds the declared-size checks of the other documents, so that every reader of a
//! workbook (the upload, the mapping-scheme preview, AI drafts) shares them from below.

use std::io::{Cursor, Read};

use super::FileError;
/// Largest file accepted, in bytes.
pub const MAX_FILE_BYTES: usize = 20 * 1024 * 1024;
/// Most entries a workbook archive may hold.
pub const MAX_ENTRIES: usize = 500;
/// Largest uncompressed entry, in bytes (declared or actually read).
pub const MAX_ENTRY_BYTES: u64 = 256 * 1024 * 1024;
/// Largest uncompressed total, in bytes.
pub const MAX_TOTAL_BYTES: u64 = 512 * 1024 * 1024;
/// Highest compression ratio of an entry over 1 MiB (spreadsheet XML stays far below).
pub const MAX_RATIO: u64 = 200;
/// Most rows a sheet may have (header included).
pub const MAX_ROWS: u32 = 200_001;
/// Most columns a sheet may have.
pub const MAX_COLUMNS: u32 = 512;
/// Most shared strings a workbook may declare (`uniqueCount`).
pub const MAX_SHARED_STRINGS: u64 = 5_000_000;
/// Most shared-string references a workbook may declare (`count`): one per cell at most.
pub const MAX_SHARED_REFERENCES: u64 = MAX_ROWS as u64 * MAX_COLUMNS as u64;
/// Deepest element nesting of an XML entry (spreadsheet XML stays under 10).
pub const MAX_XML_DEPTH: u32 = 128;
/// The smallest shared string in XML (`<si/>`), in bytes.
const MIN_SHARED_STRING_BYTES: u64 = 5;
/// Longest text of one cell, in characters (Excel's own limit).
pub const MAX_CELL_CHARS: usize = 32_767;
/// Longest text of one row, in bytes.
pub const MAX_ROW_BYTES: usize = 1024 * 1024;

fn too_large() -> FileError {
    FileError::new(
        format!("文件过大（上限 {} MB）", MAX_FILE_BYTES / 1024 / 1024),
        format!(
            "the file is too large (at most {} MB)",
            MAX_FILE_BYTES / 1024 / 1024
        ),
    )
}

/// Step 1: the size, before anything else is looked at.
pub fn check_size(len: usize) -> Result<(), FileError> {
    if len > MAX_FILE_BYTES {
        return Err(too_large());
    }
    if len == 0 {
        return Err(FileError::new("文件为空", "the file is empty"));
    }
    Ok(())
}

/// Step 2: the type, from the first bytes.
pub fn check_type(bytes: &[u8]) -> Result<(), FileError> {
    if bytes.starts_with(b"PK\x03\x04") {
        return Ok(());
    }
    if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        return Err(FileError::new(
            "不支持旧版 .xls 文件，请另存为 .xlsx 后上传",
            "old .xls files are not supported: save the file as .xlsx and upload it again",
        ));
    }
    Err(FileError::new(
        "文件不是 Excel（.xlsx）文件",
        "the file is not an Excel (.xlsx) file",
    ))
}

/// Steps 1 to 4: everything judged before a parser sees the file.
pub fn check_file(bytes: &[u8]) -> Result<(), FileError> {
    check_size(bytes.len())?;
    check_type(bytes)?;
    check_archive(bytes)
}

fn not_xlsx() -> FileError {
    FileError::new(
        "文件不是有效的 Excel（.xlsx）文件",
        "the file is not a valid Excel (.xlsx) workbook",
    )
}

/// Steps 3 and 4: the central directory, then every entry with the bytes read capped.
pub fn check_archive(bytes: &[u8]) -> Result<(), FileError> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|_| not_xlsx())?;
    if zip.len() > MAX_ENTRIES {
        return Err(FileError::new(
            format!("压缩包条目过多（上限 {MAX_ENTRIES}）"),
            format!("the workbook archive has too many entries (at most {MAX_ENTRIES})"),
        ));
    }
    let mut total: u64 = 0;
    let mut workbook = false;
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i).map_err(|_| not_xlsx())?;
        let name = entry.name().map(|n| n.to_string()).unwrap_or_default();
        workbook |= name == "xl/workbook.xml";
        let size = entry.size();
        check_entry_size(&name, size, entry.compressed_size())?;
        total = total.saturating_add(size);
        if total > MAX_TOTAL_BYTES {
            return Err(expands_too_much());
        }
    }
    if !workbook {
        return Err(not_xlsx());
    }
    // The declared sizes may lie: decompress each entry with what is read capped.
    let mut read_total: u64 = 0;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|_| not_xlsx())?;
        let name = entry.name().map(|n| n.to_string()).unwrap_or_default();
        let declared = entry.size();
        let xml = name.ends_with(".xml") || name.ends_with(".rels");
        let cap = declared.min(MAX_ENTRY_BYTES);
        let shared = name.to_ascii_lowercase().ends_with("sharedstrings.xml");
        let mut head = Vec::new();
        let read = scan(
            &mut (&mut entry).take(cap + 1),
            xml,
            shared.then_some(&mut head),
        )?;
        if shared {
            check_shared_strings(&head, read)?;
        }
        if read > cap {
            return Err(FileError::new(
                format!("文件条目 {name} 解压后大于其声明的大小"),
                format!("the entry {name} expands beyond the size it declares"),
            ));
        }
        read_total += read;
        if read_total > MAX_TOTAL_BYTES {
            return Err(expands_too_much());
        }
    }
    Ok(())
}

fn expands_too_much() -> FileError {
    FileError::new(
        "文件解压后过大",
        "the file expands to too much data when unpacked",
    )
}

fn check_entry_size(name: &str, size: u64, compressed: u64) -> Result<(), FileError> {
    if size > MAX_ENTRY_BYTES {
        return Err(expands_too_much());
    }
    if size > 1024 * 1024 && size / compressed.max(1) > MAX_RATIO {
        return Err(FileError::new(
            format!("文件条目 {name} 的压缩比异常"),
            format!("the entry {name} has a suspicious compression ratio (over {MAX_RATIO}:1)"),
        ));
    }
    Ok(())
}

/// Bytes of an entry's start kept to find its root element's attributes.
const HEAD_BYTES: usize = 64 * 1024;

/// Reads `r` to the end, counting the bytes; XML is refused when it carries a DTD. With
/// `head`, the first [`HEAD_BYTES`] are kept there.
fn scan(r: &mut impl Read, xml: bool, mut head: Option<&mut Vec<u8>>) -> Result<u64, FileError> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut carry: Vec<u8> = Vec::new();
    let mut n_total = 0u64;
    let mut depth = Depth::default();
    loop {
        let n = r.read(&mut buf).map_err(|_| not_xlsx())?;
        if n == 0 {
            return Ok(n_total);
        }
        n_total += n as u64;
        if let Some(head) = head.as_deref_mut() {
            let room = HEAD_BYTES.saturating_sub(head.len()).min(n);
            head.extend_from_slice(&buf[..room]);
        }
        if xml {
            if depth.too_deep(&buf[..n]) {
                return Err(FileError::new(
                    format!("文件的 XML 嵌套过深（上限 {MAX_XML_DEPTH} 层）"),
                    format!("the file's XML nests deeper than {MAX_XML_DEPTH} levels"),
                ));
            }
            carry.extend_from_slice(&buf[..n]);
            if has_dtd(&carry) {
                return Err(FileError::new(
                    "文件含有 DTD 声明，已拒绝",
                    "the file carries a DTD (<!DOCTYPE or <!ENTITY) and is refused",
                ));
            }
            let keep = carry.len().saturating_sub(9);
            carry.drain(..keep);
        }
    }
}

/// The element depth of XML read in pieces.
#[derive(Default)]
struct Depth {
    depth: u32,
    /// 0 text, 1 after `<`, 2 in a start tag, 3 in an end tag, declaration or comment.
    state: u8,
    quote: u8,
    last: u8,
}

impl Depth {
    /// Feeds the next bytes; `true` once an element opens deeper than [`MAX_XML_DEPTH`].
    fn too_deep(&mut self, bytes: &[u8]) -> bool {
        for &c in bytes {
            match self.state {
                0 if c == b'<' => self.state = 1,
                0 => {}
                1 => {
                    self.state = match c {
                        b'/' => {
                            self.depth = self.depth.saturating_sub(1);
                            3
                        }
                        b'?' | b'!' => 3,
                        _ => 2,
                    }
                }
                2 if self.quote != 0 && c == self.quote => self.quote = 0,
                2 if self.quote != 0 => {}
                2 if c == b'"' || c == b'\'' => self.quote = c,
                2 if c == b'>' => {
                    if self.last != b'/' {
                        self.depth += 1;
                        if self.depth > MAX_XML_DEPTH {
                            return true;
                        }
                    }
                    self.state = 0;
                }
                2 => {}
                _ if c == b'>' => self.state = 0,
                _ => {}
            }
            self.last = c;
        }
        false
    }
}

/// Step 5: the `<sst count=".." uniqueCount="..">` of a shared-string table whose real
/// (decompressed) size is `real`.
pub fn check_shared_strings(head: &[u8], real: u64) -> Result<(), FileError> {
    let text = String::from_utf8_lossy(head);
    let Some(tag) = root_tag(&text, "sst") else {
        return Ok(());
    };
    let fits = real / MIN_SHARED_STRING_BYTES;
    for (attr, cap) in [
        ("uniqueCount", MAX_SHARED_STRINGS.min(fits)),
        ("count", MAX_SHARED_REFERENCES),
    ] {
        let Some(raw) = attribute(tag, attr) else {
            continue;
        };
        let declared: Option<u64> = raw.trim().parse().ok();
        if declared.is_none_or(|n| n > cap) {
            return Err(FileError::new(
                format!("共享字符串表声明的数量（{attr}={raw}）超出文件实际可容纳或上限 {cap}"),
                format!(
                    "the shared-string table declares {attr}=\"{raw}\", more than its size could hold or the limit ({cap})"
                ),
            ));
        }
    }
    Ok(())
}

/// The start tag of the first element named `local` (any namespace prefix), attributes
/// included, without its `<` and `>`.
fn root_tag<'t>(xml: &'t str, local: &str) -> Option<&'t str> {
    let mut at = 0;
    while let Some(i) = xml[at..].find('<') {
        let start = at + i + 1;
        let rest = &xml[start..];
        let end = rest.find('>')?;
        let tag = &rest[..end];
        let name = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        if name.rsplit(':').next() == Some(local) {
            return Some(tag);
        }
        at = start;
    }
    None
}

/// The value of attribute `name` in a start tag (either quote).
fn attribute<'t>(tag: &'t str, name: &str) -> Option<&'t str> {
    let mut from = 0;
    while let Some(i) = tag[from..].find(name) {
        let at = from + i;
        let before_ok = at == 0 || tag[..at].ends_with(|c: char| c.is_whitespace());
        let rest = tag[at + name.len()..].trim_start();
        if before_ok && let Some(rest) = rest.strip_prefix('=') {
            let rest = rest.trim_start();
            let quote = rest.chars().next()?;
            if quote == '"' || quote == '\'' {
                let body = &rest[1..];
                return body.find(quote).map(|e| &body[..e]);
            }
        }
        from = at + name.len();
    }
    None
}

fn has_dtd(b: &[u8]) -> bool {
    b.windows(9).any(|w| w.eq_ignore_ascii_case(b"<!DOCTYPE"))
        || b.windows(8).any(|w| w.eq_ignore_ascii_case(b"<!ENTITY"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_nested_deeper_than_the_cap_is_refused() {
        let mut d = Depth::default();
        let deep = "<a>".repeat(MAX_XML_DEPTH as usize + 1);
        assert!(d.too_deep(deep.as_bytes()));
        let mut flat = Depth::default();
        let wide = "<row r=\"1\"><c/><c a='>'/></row>".repeat(10_000);
        assert!(!flat.too_deep(wide.as_bytes()));
    }
}
