//! What images and PDFs declare about themselves, checked before a tool trusts it.
//!
//! - An image's pixel dimensions, read from its header (PNG `IHDR`, JPEG `SOFn`, GIF's
//!   screen, BMP's info header, WebP's `VP8 `/`VP8L`/`VP8X`, every TIFF page's IFD):
//!   refused beyond [`MAX_SIDE`] pixels a side or [`MAX_PIXELS`] in all, before tesseract
//!   would allocate them. An image whose header cannot be read is refused.
//! - A PDF's page count, from `pdfinfo` (in the child, under its limits): refused beyond
//!   [`MAX_PDF_PAGES`]; only the first pages are read anyway.
//! - What a PDF's streams expand to ([`check_pdf_streams`]): every stream but images is
//!   inflated through its `FlateDecode` filters (as many as it names) with what is read
//!   capped, and the PDF is refused when they expand beyond [`MAX_PDF_EXPANDED`] together
//!   (a page of a few KB that expands without end kept pdftotext growing past 20 GB).
//!
//! The `inspect` job (`crate::read_document`) judges a stored document (exception documents, the recipient link's
//! uploads) readable: an xlsx passes the workbook checks, a PDF its page count and a text
//! read of its first pages within the limits, an image its declared dimensions.

use super::FileError;

/// Longest side of an image, in pixels.
pub const MAX_SIDE: u64 = 16_384;
/// Most pixels of an image (a page at 600 dpi is about 35 million).
pub const MAX_PIXELS: u64 = 40_000_000;
/// Most pages a PDF may declare.
pub const MAX_PDF_PAGES: u64 = 500;
/// Most bytes a PDF's content streams (all but images) may expand to, together.
pub const MAX_PDF_EXPANDED: u64 = 64 * 1024 * 1024;
/// Most pages (IFDs) of a TIFF looked at.
const MAX_TIFF_PAGES: usize = 64;

/// The child's job that judges a stored document.
pub const INSPECT_JOB: &str = "inspect";

fn unreadable_image() -> FileError {
    FileError::new(
        "图片文件头无法读取（文件已损坏）",
        "the image's header cannot be read (the file is damaged)",
    )
}

fn be16(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_be_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}
fn be32(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_be_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}
fn le16(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u16::from_le_bytes(
        b.get(at..at + 2)?.try_into().ok()?,
    )))
}
fn le32(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from(u32::from_le_bytes(
        b.get(at..at + 4)?.try_into().ok()?,
    )))
}

/// Is `bytes` an image we know the header of?
pub fn is_image(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(&[0xFF, 0xD8, 0xFF])
        || bytes.starts_with(b"II*\0")
        || bytes.starts_with(b"MM\0*")
        || bytes.starts_with(b"GIF8")
        || bytes.starts_with(b"BM")
        || (bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP"))
}

/// Every (width, height) the image declares (one per page for a TIFF).
pub fn dimensions(b: &[u8]) -> Option<Vec<(u64, u64)>> {
    if b.starts_with(b"\x89PNG\r\n\x1a\n") {
        (b.get(12..16) == Some(b"IHDR")).then_some(())?;
        return Some(vec![(be32(b, 16)?, be32(b, 20)?)]);
    }
    if b.starts_with(&[0xFF, 0xD8]) {
        return jpeg(b).map(|d| vec![d]);
    }
    if b.starts_with(b"II*\0") || b.starts_with(b"MM\0*") {
        return tiff(b);
    }
    if b.starts_with(b"GIF8") {
        return Some(vec![(le16(b, 6)?, le16(b, 8)?)]);
    }
    if b.starts_with(b"BM") {
        let w = le32(b, 18)? as u32 as i32;
        let h = le32(b, 22)? as u32 as i32;
        return Some(vec![(
            u64::from(w.unsigned_abs()),
            u64::from(h.unsigned_abs()),
        )]);
    }
    if b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WEBP") {
        return match b.get(12..16)? {
            b"VP8 " => Some(vec![(le16(b, 26)? & 0x3FFF, le16(b, 28)? & 0x3FFF)]),
            b"VP8L" => {
                let v = le32(b, 21)?;
                Some(vec![((v & 0x3FFF) + 1, ((v >> 14) & 0x3FFF) + 1)])
            }
            b"VP8X" => {
                let w = le32(b, 24)? & 0xFF_FFFF;
                let h = le32(b, 27)? & 0xFF_FFFF;
                Some(vec![(w + 1, h + 1)])
            }
            _ => None,
        };
    }
    None
}

fn jpeg(b: &[u8]) -> Option<(u64, u64)> {
    let mut at = 2;
    while at + 4 <= b.len() {
        if b[at] != 0xFF {
            return None;
        }
        let marker = b[at + 1];
        if marker == 0xFF {
            at += 1;
            continue;
        }
        if (0xD0..=0xD9).contains(&marker) || marker == 0x01 {
            at += 2;
            continue;
        }
        let len = be16(b, at + 2)? as usize;
        let sof = (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker);
        if sof {
            return Some((be16(b, at + 7)?, be16(b, at + 5)?));
        }
        at += 2 + len;
    }
    None
}

fn tiff(b: &[u8]) -> Option<Vec<(u64, u64)>> {
    let le = b.starts_with(b"II");
    let u16_at = |at: usize| if le { le16(b, at) } else { be16(b, at) };
    let u32_at = |at: usize| if le { le32(b, at) } else { be32(b, at) };
    let mut ifd = u32_at(4)? as usize;
    let mut pages = Vec::new();
    while ifd != 0 {
        if pages.len() >= MAX_TIFF_PAGES {
            return None;
        }
        let n = u16_at(ifd)? as usize;
        let (mut w, mut h) = (None, None);
        for i in 0..n {
            let e = ifd + 2 + i * 12;
            let tag = u16_at(e)?;
            let value = match u16_at(e + 2)? {
                3 => u16_at(e + 8)?,
                4 => u32_at(e + 8)?,
                _ => continue,
            };
            match tag {
                256 => w = Some(value),
                257 => h = Some(value),
                _ => {}
            }
        }
        pages.push((w?, h?));
        let next = u32_at(ifd + 2 + n * 12)? as usize;
        // Offsets only go forward: a loop of IFDs ends here.
        if next <= ifd {
            break;
        }
        ifd = next;
    }
    (!pages.is_empty()).then_some(pages)
}

/// Refuses an image whose declared dimensions exceed the caps (or cannot be read).
pub fn check_image(bytes: &[u8]) -> Result<(), FileError> {
    let pages = dimensions(bytes).ok_or_else(unreadable_image)?;
    for (w, h) in pages {
        if w == 0 || h == 0 {
            return Err(unreadable_image());
        }
        if w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_PIXELS {
            return Err(FileError::new(
                format!(
                    "图片声明的尺寸为 {w} x {h} 像素，超出上限（每边 {MAX_SIDE}，共 {} 百万像素）",
                    MAX_PIXELS / 1_000_000
                ),
                format!(
                    "the image declares {w} x {h} pixels, more than allowed ({MAX_SIDE} a side, {} million in all)",
                    MAX_PIXELS / 1_000_000
                ),
            ));
        }
    }
    Ok(())
}

/// The page count `pdfinfo` reads from the PDF's page tree (in the child).
pub async fn check_pdf_pages(pdf: &[u8]) -> Result<u64, FileError> {
    let info = super::tools::run_tool("pdfinfo", &["{input}"], pdf, ".pdf").await?;
    let pages = info
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .ok_or_else(|| {
            FileError::new(
                "PDF 文件已损坏或无法读取",
                "the PDF is damaged or cannot be read",
            )
        })?;
    if pages > MAX_PDF_PAGES {
        return Err(FileError::new(
            format!("PDF 声明了 {pages} 页，超出上限 {MAX_PDF_PAGES} 页"),
            format!("the PDF declares {pages} pages, more than {MAX_PDF_PAGES}"),
        ));
    }
    Ok(pages)
}

/// Refuses a PDF whose streams (images aside) expand beyond [`MAX_PDF_EXPANDED`].
pub fn check_pdf_streams(pdf: &[u8]) -> Result<(), FileError> {
    use std::io::Read;
    let mut total: u64 = 0;
    let mut at = 0;
    while let Some(i) = find(&pdf[at..], b"stream") {
        let start = at + i;
        at = start + 6;
        if pdf[..start].ends_with(b"end") {
            continue;
        }
        let data_start = match pdf.get(at..at + 2) {
            Some([b'\r', b'\n']) => at + 2,
            Some([b'\n', _]) | Some([b'\r', _]) => at + 1,
            _ => continue,
        };
        // The stream's dictionary: back to the object's start.
        let dict_from = rfind(&pdf[..start], b"obj").map_or(0, |o| o + 3);
        let dict = &pdf[dict_from..start];
        if find(dict, b"/Image").is_some() {
            continue;
        }
        let layers = count(dict, b"/FlateDecode") + count_exact_fl(dict);
        let end = find(&pdf[data_start..], b"endstream").map_or(pdf.len(), |e| data_start + e);
        let data = &pdf[data_start..end];
        at = end;
        if layers == 0 {
            total += data.len() as u64;
        } else {
            let mut reader: Box<dyn Read + '_> = Box::new(data);
            for _ in 0..layers.min(8) {
                reader = Box::new(flate2::read::ZlibDecoder::new(reader));
            }
            let room = MAX_PDF_EXPANDED - total.min(MAX_PDF_EXPANDED);
            // A broken stream is pdftotext's to judge; only the size matters here.
            total += std::io::copy(&mut reader.take(room + 1), &mut std::io::sink()).unwrap_or(0);
        }
        if total > MAX_PDF_EXPANDED {
            return Err(FileError::new(
                format!(
                    "PDF 解压后超过 {} MB，已拒绝",
                    MAX_PDF_EXPANDED / 1024 / 1024
                ),
                format!(
                    "the PDF expands to more than {} MB and is refused",
                    MAX_PDF_EXPANDED / 1024 / 1024
                ),
            ));
        }
    }
    Ok(())
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn rfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).rposition(|w| w == needle)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// `/Fl` (the abbreviated filter name) not followed by a name character.
fn count_exact_fl(hay: &[u8]) -> usize {
    hay.windows(4)
        .filter(|w| &w[..3] == b"/Fl" && !w[3].is_ascii_alphanumeric())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut b = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        b.extend_from_slice(&w.to_be_bytes());
        b.extend_from_slice(&h.to_be_bytes());
        b.extend_from_slice(&[8, 2, 0, 0, 0]);
        b
    }

    #[test]
    fn a_png_declaring_thirty_thousand_pixels_a_side_is_refused() {
        let e = check_image(&png(30_000, 30_000)).expect_err("refused");
        assert!(e.en.contains("30000 x 30000"), "{}", e.en);
        assert!(check_image(&png(2480, 3508)).is_ok());
    }

    #[test]
    fn a_jpeg_is_judged_by_its_frame_header() {
        // SOI, APP0 (length 4), SOF0: length 11, precision 8, height 20000, width 20000.
        let b = [
            0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x4E,
            0x20, 0x4E, 0x20, 0x01, 0x01, 0x11, 0x00,
        ];
        assert_eq!(dimensions(&b), Some(vec![(20_000, 20_000)]));
        assert!(check_image(&b).is_err());
    }

    #[test]
    fn a_pdf_stream_deflated_twice_is_measured_through_both_filters() {
        use std::io::Write;
        let deflate = |b: &[u8]| {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            z.write_all(b).expect("deflate");
            z.finish().expect("deflate")
        };
        let text = b"BT (A) Tj ET\n".repeat(100 * 1024 * 1024 / 13);
        let twice = deflate(&deflate(&text));
        let mut pdf =
            b"%PDF-1.7\n4 0 obj\n<< /Length 1 /Filter [/FlateDecode /FlateDecode] >>\nstream\n"
                .to_vec();
        pdf.extend_from_slice(&twice);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        let e = check_pdf_streams(&pdf).expect_err("refused");
        assert!(e.en.contains("expands"), "{}", e.en);
        let small = deflate(b"BT (A) Tj ET\n");
        let mut ok = b"%PDF-1.7\n4 0 obj\n<< /Filter /FlateDecode >>\nstream\n".to_vec();
        ok.extend_from_slice(&small);
        ok.extend_from_slice(b"\nendstream\nendobj\n");
        assert!(check_pdf_streams(&ok).is_ok());
    }

    #[test]
    fn a_header_that_cannot_be_read_is_refused() {
        assert!(check_image(b"\x89PNG\r\n\x1a\n").is_err());
    }
}
