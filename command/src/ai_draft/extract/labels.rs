//! Labels and synonyms in Chinese and English, and the labelled values of the documents.

use std::collections::BTreeMap;

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Key {
    Tracking,
    Bill,
    Contract,
    Invoice,
    Consignee,
    Buyer,
    Shipper,
    Seller,
    Gross,
    Net,
    Packages,
    Currency,
    TradeCountry,
    Origin,
    Freight,
    Insurance,
    Voyage,
    Marks,
    Total,
    Licence,
    /// A label we do not read, known so that a value stops before it.
    Other,
}

pub(super) const LABELS: &[(Key, &[&str])] = &[
    (
        Key::Tracking,
        &[
            "awbno",
            "awb",
            "airwaybillno",
            "airwaybill",
            "waybillno",
            "waybill",
            "trackingno",
            "trackingnumber",
            "运单号",
            "快递单号",
            "运单编号",
            "hawbno",
            "hawb",
            "mawbno",
            "mawb",
        ],
    ),
    (
        Key::Bill,
        &[
            "提运单号",
            "提单号",
            "blno",
            "billofladingno",
            "billoflading",
        ],
    ),
    (
        Key::Contract,
        &["合同号", "合同协议号", "contractno", "contractnumber"],
    ),
    (
        Key::Invoice,
        &[
            "发票号",
            "发票号码",
            "发票编号",
            "invoiceno",
            "invoicenumber",
            "invno",
        ],
    ),
    (
        Key::Consignee,
        &[
            "收货人",
            "收件人",
            "consignee",
            "shipto",
            "deliverto",
            "importer",
        ],
    ),
    (Key::Buyer, &["buyer", "买方", "soldto", "billto"]),
    (
        Key::Shipper,
        &["发货人", "寄件人", "shipper", "consignor", "exporter"],
    ),
    (Key::Seller, &["seller", "卖方", "vendor"]),
    (
        Key::Gross,
        &[
            "毛重",
            "总毛重",
            "grossweight",
            "gw",
            "totalgrossweight",
            "grosswt",
            "gwkg",
            "grossweightkg",
            "毛重kg",
        ],
    ),
    (
        Key::Net,
        &[
            "净重",
            "总净重",
            "netweight",
            "nw",
            "totalnetweight",
            "netwt",
            "nwkg",
            "netweightkg",
            "净重kg",
        ],
    ),
    (
        Key::Packages,
        &[
            "件数",
            "包装件数",
            "总件数",
            "总箱数",
            "noofpackages",
            "numberofpackages",
            "totalpackages",
            "totalcartons",
            "packages",
        ],
    ),
    (Key::Currency, &["币制", "币种", "币别", "currency", "curr"]),
    (
        Key::TradeCountry,
        &[
            "贸易国",
            "贸易国别",
            "贸易国地区",
            "tradecountry",
            "countryoftrade",
        ],
    ),
    (
        Key::Origin,
        &["原产国", "原产地", "countryoforigin", "origin", "madein"],
    ),
    (
        Key::Freight,
        &[
            "运费",
            "freight",
            "freightcharge",
            "freightcharges",
            "shippingcost",
        ],
    ),
    (
        Key::Insurance,
        &["保费", "保险费", "insurance", "insurancepremium"],
    ),
    (
        Key::Voyage,
        &[
            "航班号",
            "航次号",
            "flightno",
            "flight",
            "voyageno",
            "vesselvoyage",
            "航次",
        ],
    ),
    (
        Key::Marks,
        &[
            "唛头",
            "marks",
            "shippingmarks",
            "marksnos",
            "marksandnumbers",
            "标记唛码",
        ],
    ),
    (
        Key::Total,
        &[
            "总金额",
            "合计金额",
            "发票总额",
            "totalamount",
            "totalvalue",
            "invoicetotal",
            "totalinvoicevalue",
            "grandtotal",
            "amountdue",
        ],
    ),
    (
        Key::Licence,
        &[
            "许可证号",
            "licenceno",
            "licenseno",
            "importlicence",
            "exportlicence",
        ],
    ),
    (
        Key::Other,
        &[
            "date",
            "日期",
            "invoicedate",
            "发票日期",
            "tel",
            "phone",
            "电话",
            "fax",
            "传真",
            "address",
            "地址",
            "email",
            "attn",
            "contact",
            "联系人",
            "paymentterms",
            "付款方式",
            "terms",
            "incoterms",
            "成交方式",
            "tradeterms",
            "page",
            "uscc",
            "统一社会信用代码",
            "信用代码",
            "portofloading",
            "portofdischarge",
            "destination",
            "目的港",
            "启运港",
            "装货港",
        ],
    ),
];

pub(super) fn key_of(joined: &str) -> Option<Key> {
    if joined.is_empty() {
        return None;
    }
    LABELS
        .iter()
        .find(|(_, labels)| labels.contains(&joined))
        .map(|(k, _)| *k)
}

/// A piece of a line: a word, or the label or value half of `发票号:INV01`.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub(super) text: String,
    pub(super) x0: f64,
    pub(super) x1: f64,
    pub(super) conf: f64,
}

pub(super) fn pieces(line: &Line) -> Vec<Piece> {
    let mut out = Vec::new();
    for w in &line.words {
        let split = w
            .text
            .char_indices()
            .find(|(_, c)| *c == ':' || *c == '：')
            .map(|(i, c)| i + c.len_utf8());
        match split {
            Some(i) if i < w.text.len() => {
                out.push(Piece {
                    text: w.text[..i].to_string(),
                    x0: w.x0,
                    x1: w.x0,
                    conf: w.confidence,
                });
                out.push(Piece {
                    text: w.text[i..].to_string(),
                    x0: w.x0,
                    x1: w.x1,
                    conf: w.confidence,
                });
            }
            _ => out.push(Piece {
                text: w.text.clone(),
                x0: w.x0,
                x1: w.x1,
                conf: w.confidence,
            }),
        }
    }
    out
}

/// Label at `pieces[i..]`: its key and how many pieces it takes (longest first).
pub(super) fn label_at(pieces: &[Piece], i: usize) -> Option<(Key, usize)> {
    for len in (1..=5.min(pieces.len() - i)).rev() {
        let joined: String = pieces[i..i + len].iter().map(|p| norm(&p.text)).collect();
        if let Some(k) = key_of(&joined) {
            return Some((k, len));
        }
    }
    None
}

/// Largest gap inside one value, in the document's units.
pub(super) fn gap_of(kind: Kind) -> f64 {
    match kind {
        Kind::Text => 3.0,
        Kind::Pdf => 14.0,
        Kind::Image => 45.0,
        Kind::Xlsx => 0.5,
    }
}

/// A labelled value found in a document.
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub(super) text: String,
    pub(super) conf: f64,
    pub(super) location: String,
}

/// The value after a label: pieces until the next label or a wide gap.
pub(super) fn value_after(pieces: &[Piece], from: usize, gap: f64) -> (String, f64, usize) {
    let mut text = String::new();
    let mut conf: f64 = 1.0;
    let mut end = from;
    let mut last_x1: Option<f64> = None;
    while end < pieces.len() {
        if label_at(pieces, end).is_some() && !text.is_empty() {
            break;
        }
        let p = &pieces[end];
        if let Some(x1) = last_x1
            && p.x0 - x1 > gap
        {
            break;
        }
        let t = p.text.trim_matches(|c| c == ':' || c == '：');
        if !t.is_empty() {
            crate::ai_draft::read::push_word(&mut text, t);
            conf = conf.min(p.conf);
            last_x1 = Some(p.x1);
        } else if text.is_empty() {
            last_x1 = Some(p.x1);
        }
        end += 1;
    }
    (text, conf, end)
}

pub(super) fn location(doc: &Document, line: &Line) -> String {
    format!("{} p.{} line {}", doc.name, line.page, line.number)
}

/// Every labelled value of the documents (first occurrence of each key wins), outside the
/// goods table's lines.
pub(super) fn labelled(documents: &[Document], skip: &[(usize, u32, u32)]) -> BTreeMap<Key, Found> {
    let mut out: BTreeMap<Key, Found> = BTreeMap::new();
    for (d, doc) in documents.iter().enumerate() {
        let gap = gap_of(doc.kind);
        for (l, line) in doc.lines.iter().enumerate() {
            if skip.contains(&(d, line.page, line.number)) {
                continue;
            }
            let ps = pieces(line);
            let mut i = 0;
            while i < ps.len() {
                let Some((key, len)) = label_at(&ps, i) else {
                    i += 1;
                    continue;
                };
                let (mut text, mut conf, end) = value_after(&ps, i + len, gap);
                let mut at = line;
                let mut factor = 0.9;
                if text.is_empty() {
                    // The value on the next line, under the label.
                    if let Some(next) = doc.lines.get(l + 1) {
                        let nps = pieces(next);
                        if !nps.is_empty() && label_at(&nps, 0).is_none() {
                            let (t, c, _) = value_after(&nps, 0, gap);
                            text = t;
                            conf = c;
                            at = next;
                            factor = 0.75;
                        }
                    }
                }
                if key != Key::Other && !text.is_empty() && !out.contains_key(&key) {
                    out.insert(
                        key,
                        Found {
                            text,
                            conf: conf * factor,
                            location: location(doc, at),
                        },
                    );
                }
                i = end.max(i + len);
            }
        }
    }
    out
}
