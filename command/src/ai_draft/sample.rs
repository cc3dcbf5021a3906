//! Sample shipping documents with known values, made here so that the tests and
//! `scripts/bench.sh extract` read documents nobody typed by hand: a commercial invoice in
//! English or Chinese, written as plain text, a text PDF (written directly: Helvetica for
//! Latin text, the non-embedded Adobe font STSong-Light with the `UniGB-UCS2-H` CMap for
//! Chinese, which poppler maps back to Unicode through poppler-data) and an xlsx.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

/// One goods line of a sample invoice.
#[derive(Debug, Clone)]
pub struct Item {
    pub name: &'static str,
    pub hs: &'static str,
    pub qty: &'static str,
    /// As written on the invoice (`PCS`, `千克`).
    pub unit_word: &'static str,
    /// The unit table's code it means.
    pub unit_code: &'static str,
    pub price: &'static str,
    pub total: &'static str,
    pub origin_word: &'static str,
    pub origin_code: &'static str,
}

/// A commercial invoice with every value it states.
#[derive(Debug, Clone)]
pub struct Invoice {
    pub chinese: bool,
    pub tracking: &'static str,
    pub invoice_no: &'static str,
    pub shipper: &'static str,
    pub consignee: &'static str,
    pub consignee_uscc: &'static str,
    pub currency: &'static str,
    pub gross: &'static str,
    pub net: &'static str,
    pub packages: &'static str,
    pub freight: &'static str,
    pub items: Vec<Item>,
    pub total: &'static str,
}

/// The English sample: an import (IC) for the demo customer's trade company.
pub fn english() -> Invoice {
    Invoice {
        chinese: false,
        tracking: "1Z999AA10123456784",
        invoice_no: "INV-2026-0815",
        shipper: "Pacific Gadgets Inc.",
        consignee: "Shenzhen Example Tech Co., Ltd.",
        consignee_uscc: "91440300MA5FHK4H1F",
        currency: "USD",
        gross: "12.5",
        net: "10.2",
        packages: "3",
        freight: "45.00",
        items: vec![
            Item {
                name: "Bluetooth headphones",
                hs: "8518300000",
                qty: "20",
                unit_word: "PCS",
                unit_code: "007",
                price: "15.50",
                total: "310.00",
                origin_word: "USA",
                origin_code: "USA",
            },
            Item {
                name: "Cotton T-shirts",
                hs: "6109100000",
                qty: "40",
                unit_word: "PCS",
                unit_code: "007",
                price: "3.25",
                total: "130.00",
                origin_word: "Viet Nam",
                origin_code: "VNM",
            },
        ],
        total: "440.00",
    }
}

/// The Chinese sample.
pub fn chinese() -> Invoice {
    Invoice {
        chinese: true,
        tracking: "SF1234567890123",
        invoice_no: "FP20260815",
        shipper: "大阪精密工业株式会社",
        consignee: "深圳某某科技有限公司",
        consignee_uscc: "91440300MA5FHK4H1F",
        currency: "JPY",
        gross: "8.6",
        net: "7.9",
        packages: "2",
        freight: "3000",
        items: vec![
            Item {
                name: "不锈钢保温杯",
                hs: "9617001100",
                qty: "30",
                unit_word: "个",
                unit_code: "007",
                price: "1200",
                total: "36000",
                origin_word: "日本",
                origin_code: "JPN",
            },
            Item {
                name: "陶瓷餐盘",
                hs: "6911101900",
                qty: "12",
                unit_word: "千克",
                unit_code: "035",
                price: "800",
                total: "9600",
                origin_word: "日本",
                origin_code: "JPN",
            },
        ],
        total: "45600",
    }
}

/// Column x positions (points) of the goods table.
const COLUMNS: [f64; 7] = [50.0, 210.0, 290.0, 340.0, 385.0, 445.0, 515.0];

impl Invoice {
    /// The document as lines of (x in points, text).
    pub fn lines(&self) -> Vec<Vec<(f64, String)>> {
        let zh = self.chinese;
        let t = |en: &str, cn: &str| if zh { cn.to_string() } else { en.to_string() };
        let mut out: Vec<Vec<(f64, String)>> = vec![
            vec![(200.0, t("COMMERCIAL INVOICE", "商业发票"))],
            vec![
                (
                    50.0,
                    format!("{} {}", t("Invoice No.:", "发票号："), self.invoice_no),
                ),
                (330.0, format!("{} 2026-08-15", t("Date:", "日期："))),
            ],
            vec![(
                50.0,
                format!("{} {}", t("AWB No.:", "运单号："), self.tracking),
            )],
            vec![(
                50.0,
                format!("{} {}", t("Shipper:", "发货人："), self.shipper),
            )],
            vec![(
                50.0,
                format!("{} {}", t("Consignee:", "收货人："), self.consignee),
            )],
            vec![(50.0, format!("USCC: {}", self.consignee_uscc))],
            vec![(
                50.0,
                format!("{} {}", t("Currency:", "币制："), self.currency),
            )],
            vec![],
            vec![
                (COLUMNS[0], t("Description", "品名")),
                (COLUMNS[1], t("HS Code", "商品编码")),
                (COLUMNS[2], t("Qty", "数量")),
                (COLUMNS[3], t("Unit", "单位")),
                (COLUMNS[4], t("Unit Price", "单价")),
                (COLUMNS[5], t("Amount", "总价")),
                (COLUMNS[6], t("Origin", "原产国")),
            ],
        ];
        for item in &self.items {
            out.push(vec![
                (COLUMNS[0], item.name.to_string()),
                (COLUMNS[1], item.hs.to_string()),
                (COLUMNS[2], item.qty.to_string()),
                (COLUMNS[3], item.unit_word.to_string()),
                (COLUMNS[4], item.price.to_string()),
                (COLUMNS[5], item.total.to_string()),
                (COLUMNS[6], item.origin_word.to_string()),
            ]);
        }
        out.push(vec![
            (COLUMNS[0], t("Total", "合计")),
            (COLUMNS[5], self.total.to_string()),
        ]);
        out.push(vec![]);
        out.push(vec![(
            50.0,
            format!("{} {} KG", t("Gross Weight:", "毛重："), self.gross),
        )]);
        out.push(vec![(
            50.0,
            format!("{} {} KG", t("Net Weight:", "净重："), self.net),
        )]);
        out.push(vec![(
            50.0,
            format!("{} {}", t("Packages:", "件数："), self.packages),
        )]);
        out.push(vec![(
            50.0,
            format!(
                "{} {} {}",
                t("Freight:", "运费："),
                self.currency,
                self.freight
            ),
        )]);
        out
    }

    /// Plain text, one character column per 5 points (Chinese characters count double).
    pub fn text(&self) -> String {
        let mut s = String::new();
        for line in self.lines() {
            let mut row = String::new();
            let mut width = 0usize;
            for (x, text) in line {
                let col = (x / 5.0) as usize;
                while width < col {
                    row.push(' ');
                    width += 1;
                }
                if width > col {
                    row.push_str("  ");
                    width += 2;
                }
                row.push_str(&text);
                width += text
                    .chars()
                    .map(|c| if (c as u32) >= 0x2E80 { 2 } else { 1 })
                    .sum::<usize>();
            }
            s.push_str(row.trim_end());
            s.push('\n');
        }
        s
    }

    /// A one-page text PDF.
    pub fn pdf(&self) -> Vec<u8> {
        let mut content = String::new();
        let mut y = 800.0;
        for line in self.lines() {
            for (x, text) in line {
                // Chinese labels with Latin values: each run in its own font.
                let mut cx = x;
                for (cjk, run) in runs(&text) {
                    if cjk {
                        let hex: String = run.encode_utf16().map(|u| format!("{u:04X}")).collect();
                        let _ = writeln!(content, "BT /F2 10 Tf {cx:.1} {y:.1} Td <{hex}> Tj ET");
                        cx += 10.0 * run.chars().count() as f64;
                    } else {
                        let _ = writeln!(
                            content,
                            "BT /F1 10 Tf {cx:.1} {y:.1} Td ({}) Tj ET",
                            escape(&run)
                        );
                        cx += 5.6 * run.chars().count() as f64;
                    }
                }
            }
            y -= 18.0;
        }
        pdf_document(&content)
    }

    /// An xlsx: the same lines, one cell per positioned text.
    pub fn xlsx(&self) -> Vec<u8> {
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        for (r, line) in self.lines().iter().enumerate() {
            for (x, text) in line {
                let col = COLUMNS.iter().rposition(|c| *c <= *x + 1.0).unwrap_or(0);
                let _ = sheet.write_string(r as u32, col as u16, text);
            }
        }
        book.save_to_buffer().unwrap_or_default()
    }

    /// Every value the invoice states, as the proposal should name it.
    pub fn expected(&self) -> BTreeMap<String, Value> {
        let n = |s: &str| serde_json::from_str::<Value>(s).unwrap_or(Value::Null);
        let mut m = BTreeMap::new();
        m.insert("trackingNumber".into(), json!(self.tracking));
        m.insert("contractNo".into(), json!(self.invoice_no));
        m.insert("consignorCompanyEn".into(), json!(self.shipper));
        m.insert("consigneeScc".into(), json!(self.consignee_uscc));
        m.insert("currencyCode".into(), json!(self.currency));
        m.insert("grossWeight".into(), n(self.gross));
        m.insert("netWeight".into(), n(self.net));
        m.insert("packageQuantity".into(), n(self.packages));
        m.insert("transpotationFeeValue".into(), n(self.freight));
        for (i, item) in self.items.iter().enumerate() {
            let p = |f: &str| format!("declarationGoodsInfo[{i}].{f}");
            m.insert(p("goodsName"), json!(item.name));
            m.insert(p("goodsCode"), json!(item.hs));
            m.insert(p("goodsQuantity"), n(item.qty));
            m.insert(p("goodsUnit"), json!(item.unit_code));
            m.insert(p("unitPrice"), n(item.price));
            m.insert(p("totalPrice"), n(item.total));
            m.insert(p("originCountry"), json!(item.origin_code));
            m.insert(p("currency"), json!(self.currency));
        }
        m
    }
}

/// Splits `s` into runs of Chinese (and full-width) and other characters.
fn runs(s: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    for c in s.chars() {
        let cjk = (c as u32) >= 0x2E80;
        match out.last_mut() {
            Some((k, run)) if *k == cjk => run.push(c),
            _ => out.push((cjk, c.to_string())),
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('(', "\\(")
        .replace(')', "\\)")
}

/// A one-page PDF around `content` (an A4 page, fonts F1 Helvetica and F2 STSong-Light).
pub fn pdf_document(content: &str) -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> /Contents 4 0 R >>".to_string(),
        format!("<< /Length {} >>\nstream\n{content}endstream", content.len()),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>".to_string(),
        "<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [7 0 R] >>".to_string(),
        "<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 8 0 R /DW 1000 >>".to_string(),
        "<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    let mut tail = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
    for o in offsets {
        let _ = writeln!(tail, "{o:010} 00000 n ");
    }
    let _ = write!(
        tail,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    );
    out.extend_from_slice(tail.as_bytes());
    out
}
