//! Reading documents into positioned words: plain text as is, xlsx through calamine (the
//! upload's checked reader), PDFs with a text layer through poppler's `pdftotext
//! -bbox-layout`, scans and photos through `tesseract` (TSV). Both tools run as processes
//! with a time limit; the kind of a file is judged from its content, never its name.
//!
//! The reading itself runs in a child process with memory, CPU and time limits
//! ([`crate::sandbox`]): [`read`] sends the document there, where [`read_local`] checks what
//! the file declares about itself (an image's pixel dimensions, a PDF's page count, a
//! workbook's sizes) and starts the tools, which inherit the child's limits.

use serde::{Deserialize, Serialize};

use crate::sandbox::tools::run_tool;
use crate::sandbox::{ReadError, Sandbox, declared};
use crate::upload::read::{FileError, LocalWorkbook};

/// The child's job that reads a document ([`crate::read_document`]).
pub const DOCUMENT_JOB: &str = "document";

/// Largest document accepted, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 10 * 1024 * 1024;
/// Most documents in one request.
pub const MAX_DOCUMENTS: usize = 10;
/// Largest pasted text, in bytes.
pub const MAX_TEXT_BYTES: usize = 200 * 1024;
/// Lines kept per document (the rest is not read).
pub const MAX_LINES: usize = 2000;
/// Pages read from a PDF.
pub const MAX_PAGES: u32 = 20;

/// A word and its box on its page (points for PDFs, pixels for images, character
/// columns for text, cell columns x 1000 for spreadsheets).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Word {
    pub text: String,
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    /// 0.0 ..= 1.0 (OCR's own confidence; 1 for text layers).
    pub confidence: f64,
}

/// A line of a document: its words left to right.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    pub page: u32,
    pub number: u32,
    pub words: Vec<Word>,
}

impl Line {
    pub fn text(&self) -> String {
        let mut out = String::new();
        for w in &self.words {
            push_word(&mut out, &w.text);
        }
        out
    }
}

fn is_cjk(c: char) -> bool {
    ('\u{2E80}'..='\u{9FFF}').contains(&c)
        || ('\u{F900}'..='\u{FAFF}').contains(&c)
        || ('\u{FF00}'..='\u{FFEF}').contains(&c)
}

/// Appends `word` to `out` with a space between words, except between two Chinese
/// characters: OCR returns Chinese text one or two characters per "word".
pub fn push_word(out: &mut String, word: &str) {
    let joined = out.chars().last().is_some_and(is_cjk) && word.chars().next().is_some_and(is_cjk);
    if !out.is_empty() && !joined {
        out.push(' ');
    }
    out.push_str(word);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Kind {
    Text,
    Pdf,
    Xlsx,
    Image,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Text => "text",
            Kind::Pdf => "pdf",
            Kind::Xlsx => "xlsx",
            Kind::Image => "image",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub name: String,
    pub kind: Kind,
    pub pages: u32,
    pub lines: Vec<Line>,
}

/// The kind of a file from its first bytes; `None` for anything we cannot read.
pub fn sniff(bytes: &[u8]) -> Option<Kind> {
    if bytes.starts_with(b"%PDF-") {
        Some(Kind::Pdf)
    } else if bytes.starts_with(b"PK\x03\x04") {
        Some(Kind::Xlsx)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(&[0xFF, 0xD8, 0xFF])
        || bytes.starts_with(b"II*\0")
        || bytes.starts_with(b"MM\0*")
    {
        Some(Kind::Image)
    } else if std::str::from_utf8(bytes).is_ok() && !bytes.contains(&0) {
        Some(Kind::Text)
    } else {
        None
    }
}

/// Reads one document in a child process of `sandbox` (see the module notes). Every
/// failure is a [`ReadError`] with a message for the user.
pub async fn read(sandbox: &Sandbox, name: &str, bytes: &[u8]) -> Result<Document, ReadError> {
    check(bytes)?;
    check_name(name, bytes)?;
    let docs: Vec<Document> = sandbox
        .run(vec![DOCUMENT_JOB.to_string()], bytes.to_vec())
        .await?;
    let mut doc = docs.into_iter().next().ok_or_else(|| {
        ReadError::Refused(FileError::new(
            "文件读取失败",
            "the document could not be read",
        ))
    })?;
    doc.name = name.to_string();
    Ok(doc)
}

/// The checks made before a document is sent anywhere: not empty, not too large, a kind
/// we read.
fn check(bytes: &[u8]) -> Result<Kind, FileError> {
    if bytes.is_empty() {
        return Err(FileError::new("文件为空", "the file is empty"));
    }
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(too_large());
    }
    sniff(bytes).ok_or_else(|| {
        FileError::new(
            "不支持的文件类型（可上传 PDF、xlsx、PNG/JPEG/TIFF 图片或文本）",
            "unsupported file type (PDF, xlsx, PNG/JPEG/TIFF images or plain text)",
        )
    })
}

/// The kind a file's name claims (by its extension), when it claims one.
fn claimed(name: &str) -> Option<Kind> {
    let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "pdf" => Some(Kind::Pdf),
        "xlsx" | "xlsm" => Some(Kind::Xlsx),
        "png" | "jpg" | "jpeg" | "tif" | "tiff" => Some(Kind::Image),
        "txt" | "csv" | "tsv" => Some(Kind::Text),
        _ => None,
    }
}

/// A document whose content is not what its name says (a text file named `.xlsx`) is
/// refused: the content decides how it is read, and a mismatch is a damaged or disguised
/// file, not one to guess about.
pub fn check_name(name: &str, bytes: &[u8]) -> Result<(), FileError> {
    let (Some(said), Some(is)) = (claimed(name), sniff(bytes)) else {
        return Ok(());
    };
    if said == is {
        return Ok(());
    }
    Err(FileError::new(
        format!("文件名表明是 {}，内容却是 {}", said.as_str(), is.as_str()),
        format!(
            "the file's name says {} but its content is {}",
            said.as_str(),
            is.as_str()
        ),
    ))
}

/// Reads one document in this process: what the child runs (and tests).
pub async fn read_local(name: &str, bytes: &[u8]) -> Result<Document, FileError> {
    let kind = check(bytes)?;
    let lines = match kind {
        Kind::Text => text_lines(&String::from_utf8_lossy(bytes)),
        Kind::Xlsx => xlsx_lines(bytes)?,
        Kind::Pdf => {
            declared::check_pdf_streams(bytes)?;
            declared::check_pdf_pages(bytes).await?;
            pdf_lines(bytes).await?
        }
        Kind::Image => {
            declared::check_image(bytes)?;
            image_lines(bytes).await?
        }
    };
    if lines.iter().all(|l| l.words.is_empty()) {
        return Err(match kind {
            Kind::Image => FileError::new(
                "图片中没有识别出文字",
                "no text could be recognised in the image",
            ),
            Kind::Pdf => FileError::new(
                "PDF 没有文字层（扫描件请以图片上传）",
                "the PDF has no text layer (upload a scan as an image)",
            ),
            _ => FileError::new("文件中没有文字", "the document holds no text"),
        });
    }
    let pages = lines.iter().map(|l| l.page).max().unwrap_or(1);
    Ok(Document {
        name: name.to_string(),
        kind,
        pages,
        lines,
    })
}

pub fn too_large() -> FileError {
    FileError::new(
        format!("文件过大（上限 {} MB）", MAX_DOCUMENT_BYTES / 1024 / 1024),
        format!(
            "the file is too large (at most {} MB)",
            MAX_DOCUMENT_BYTES / 1024 / 1024
        ),
    )
}

/// Plain text: one line per line; a word's x is its character column (tabs to 8).
pub fn text_lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().take(MAX_LINES).enumerate() {
        let mut words = Vec::new();
        let mut col = 0usize;
        let mut current = String::new();
        let mut start = 0usize;
        let flush = |current: &mut String, start: usize, col: usize, words: &mut Vec<Word>| {
            if !current.is_empty() {
                words.push(Word {
                    text: std::mem::take(current),
                    x0: start as f64,
                    x1: col as f64,
                    y: 0.0,
                    confidence: 1.0,
                });
            }
        };
        for ch in raw.chars() {
            if ch == '\t' {
                flush(&mut current, start, col, &mut words);
                col = (col / 8 + 1) * 8;
            } else if ch.is_whitespace() || ch == '\u{3000}' {
                flush(&mut current, start, col, &mut words);
                col += 1;
            } else {
                if current.is_empty() {
                    start = col;
                }
                current.push(ch);
                // CJK characters take two columns in a monospaced layout.
                col += if (ch as u32) >= 0x2E80 { 2 } else { 1 };
            }
        }
        flush(&mut current, start, col, &mut words);
        out.push(Line {
            page: 1,
            number: i as u32 + 1,
            words,
        });
    }
    out
}

/// Every sheet's rows; a cell is one word at x = column x 1000, so table columns are exact.
fn xlsx_lines(bytes: &[u8]) -> Result<Vec<Line>, FileError> {
    let mut book = LocalWorkbook::open(bytes)?;
    let sheets = book.sheet_names().len();
    let mut out = Vec::new();
    for sheet in 0..sheets {
        book.rows(sheet, |row| {
            if out.len() >= MAX_LINES {
                return Ok(());
            }
            let words = row
                .cells
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.trim().is_empty())
                .map(|(i, c)| Word {
                    text: c.trim().to_string(),
                    x0: i as f64 * 1000.0,
                    x1: i as f64 * 1000.0 + 999.0,
                    y: 0.0,
                    confidence: 1.0,
                })
                .collect();
            out.push(Line {
                page: sheet as u32 + 1,
                number: row.number,
                words,
            });
            Ok(())
        })?;
    }
    Ok(out)
}

/// `pdftotext -bbox-layout`: words with boxes per page; we regroup the words into lines by
/// their vertical position ourselves, since poppler splits a table row into blocks.
pub(crate) async fn pdf_lines(bytes: &[u8]) -> Result<Vec<Line>, FileError> {
    let last = MAX_PAGES.to_string();
    let html = run_tool(
        "pdftotext",
        &["-bbox-layout", "-enc", "UTF-8", "-l", &last, "{input}", "-"],
        bytes,
        ".pdf",
    )
    .await?;
    Ok(group_lines(parse_bbox(&html)))
}

/// (page, word) from poppler's XHTML: `<page ...>` starts a page, `<word xMin=.. yMin=..
/// xMax=.. yMax=..>text</word>` is a word.
pub fn parse_bbox(html: &str) -> Vec<(u32, Word)> {
    let mut out = Vec::new();
    let mut page = 0u32;
    let mut rest = html;
    while let Some(i) = rest.find('<') {
        rest = &rest[i..];
        if rest.starts_with("<page") {
            page += 1;
            rest = &rest[5..];
            continue;
        }
        if rest.starts_with("<word") {
            let Some(end) = rest.find('>') else { break };
            let tag = &rest[..end];
            let body_start = end + 1;
            let Some(close) = rest[body_start..].find("</word>") else {
                break;
            };
            let text = unescape(rest[body_start..body_start + close].trim());
            let attr = |name: &str| -> f64 {
                tag.find(&format!("{name}=\""))
                    .and_then(|p| {
                        let v = &tag[p + name.len() + 2..];
                        v.find('"').and_then(|q| v[..q].parse().ok())
                    })
                    .unwrap_or(0.0)
            };
            if !text.is_empty() {
                let (y0, y1) = (attr("yMin"), attr("yMax"));
                out.push((
                    page.max(1),
                    Word {
                        text,
                        x0: attr("xMin"),
                        x1: attr("xMax"),
                        y: (y0 + y1) / 2.0,
                        confidence: 1.0,
                    },
                ));
            }
            rest = &rest[body_start + close + 7..];
            continue;
        }
        rest = &rest[1..];
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Words of each page sorted top to bottom, joined into a line while their vertical
/// centres lie within half a line height (6 points / pixels scaled by the word height
/// unknown here: a fixed tolerance of 4 units works for 8-14 pt text and 150-300 dpi OCR
/// after the caller scales).
pub fn group_lines(mut words: Vec<(u32, Word)>) -> Vec<Line> {
    words.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.y.total_cmp(&b.1.y)));
    let mut out: Vec<Line> = Vec::new();
    let mut last_y = f64::NEG_INFINITY;
    let mut last_page = 0;
    let tolerance = tolerance_of(&words);
    for (page, word) in words {
        let same = page == last_page && (word.y - last_y).abs() <= tolerance;
        if !same {
            if out.len() >= MAX_LINES {
                break;
            }
            let number = if page == last_page {
                out.last().map_or(1, |l| l.number + 1)
            } else {
                1
            };
            out.push(Line {
                page,
                number,
                words: Vec::new(),
            });
            last_y = word.y;
            last_page = page;
        }
        if let Some(line) = out.last_mut() {
            line.words.push(word);
        }
    }
    for line in &mut out {
        line.words.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    out
}

/// A third of the median word height, estimated from the gaps between distinct centres.
fn tolerance_of(words: &[(u32, Word)]) -> f64 {
    let mut gaps: Vec<f64> = words
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| (w[1].1.y - w[0].1.y).abs())
        .filter(|g| *g > 0.5)
        .collect();
    if gaps.is_empty() {
        return 3.0;
    }
    gaps.sort_by(f64::total_cmp);
    (gaps[gaps.len() / 2] / 3.0).clamp(1.5, 12.0)
}

/// `tesseract <image> - -l chi_sim+eng tsv`: level-5 rows are words with their box and
/// confidence; words below 20% confidence are noise and left out.
async fn image_lines(bytes: &[u8]) -> Result<Vec<Line>, FileError> {
    let languages: Vec<&str> = crate::sandbox::OCR_LANGUAGES
        .iter()
        .map(|(l, _)| *l)
        .collect();
    let languages = languages.join("+");
    let tsv = run_tool(
        "tesseract",
        &["{input}", "-", "-l", &languages, "--psm", "4", "tsv"],
        bytes,
        ".img",
    )
    .await?;
    Ok(group_ocr(&tsv))
}

/// Lines from tesseract's TSV, grouped by its own (page, block, paragraph, line) keys.
pub fn group_ocr(tsv: &str) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut key = (0, 0, 0, 0);
    for row in tsv.lines().skip(1) {
        let c: Vec<&str> = row.split('\t').collect();
        if c.len() < 12 || c[0] != "5" {
            continue;
        }
        let num = |i: usize| c[i].trim().parse::<f64>().unwrap_or(0.0);
        let text = c[11].trim();
        let conf = num(10);
        if text.is_empty() || conf < 20.0 {
            continue;
        }
        let k = (num(1) as u32, num(2) as u32, num(3) as u32, num(4) as u32);
        if k != key || out.is_empty() {
            if out.len() >= MAX_LINES {
                break;
            }
            key = k;
            let page = k.0.max(1);
            let number = out.iter().filter(|l| l.page == page).count() as u32 + 1;
            out.push(Line {
                page,
                number,
                words: Vec::new(),
            });
        }
        let (left, top, width, height) = (num(6), num(7), num(8), num(9));
        if let Some(line) = out.last_mut() {
            line.words.push(Word {
                text: text.to_string(),
                x0: left,
                x1: left + width,
                y: top + height / 2.0,
                confidence: conf / 100.0,
            });
        }
    }
    for line in &mut out {
        line.words.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    }
    out
}
