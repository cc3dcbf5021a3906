//! Given/when/then tests of the extractor on the sample documents (text, PDF through
//! poppler, xlsx through calamine), of the review and of the proposal's decisions.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use events::ai_draft::{AiDraftEvent, Proposal};
use events::declaration::{ReviewDecision, TypeCode};
use events::reference::ReferenceTableVersionImported;
use serde_json::{Value, json};
use uuid::Uuid;

use super::extract::{Company, Context, Extraction, LibraryProduct, extract};
use super::read::{self, Document, Kind};
use super::sample::{self, Invoice};
use super::*;
use crate::reference::{ReferenceData, parse_table};
use crate::testing::when;

fn table(name: &str, csv: &str) -> ReferenceTableVersionImported {
    let parsed = parse_table(name, csv).expect("seed table");
    ReferenceTableVersionImported {
        table: name.into(),
        effective_from: NaiveDate::from_ymd_opt(2020, 1, 1).expect("date"),
        columns: parsed.columns.clone(),
        row_count: parsed.rows.len() as i64,
        rows: parsed.rows,
        source: "seed".into(),
        content_hash: String::new(),
    }
}

/// The seeded tables the extractor consults.
pub fn reference() -> ReferenceData {
    ReferenceData::from_events([
        table("units", include_str!("../../../seeds/reference/units.csv")),
        table(
            "countries",
            include_str!("../../../seeds/reference/countries.csv"),
        ),
        table(
            "currencies",
            include_str!("../../../seeds/reference/currencies.csv"),
        ),
        table(
            "exchange-rates",
            include_str!("../../../seeds/reference/exchange-rates.csv"),
        ),
    ])
}

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 8, 15).expect("date")
}

fn companies() -> Vec<Company> {
    vec![Company {
        name_cn: "深圳某某科技有限公司".into(),
        name_en: Some("Shenzhen Example Tech".into()),
        uscc: "91440300MA5FHK4H1F".into(),
        customs_code: Some("4403960ABC".into()),
        inspection_code: Some("4700000001".into()),
    }]
}

fn run(docs: &[Document], ty: &str, products: &[LibraryProduct]) -> Extraction {
    let reference = reference();
    let companies = companies();
    let ctx = Context {
        reference: &reference,
        on: today(),
        declaration_type: ty.parse::<TypeCode>().expect("type"),
        companies: &companies,
        products,
    };
    extract(docs, &ctx)
}

fn text_doc(text: &str) -> Document {
    Document {
        name: "mail.txt".into(),
        kind: Kind::Text,
        pages: 1,
        lines: read::text_lines(text),
    }
}

fn value_at(x: &Extraction, path: &str) -> Option<Value> {
    if let Some(rest) = path.strip_prefix("declarationGoodsInfo[") {
        let (i, field) = rest.split_once("].")?;
        let i: usize = i.parse().ok()?;
        return x.goods.get(i)?.get(field).map(|p| p.value.clone());
    }
    x.fields.get(path).map(|p| p.value.clone())
}

/// The expected values the extraction missed or got wrong.
fn misses(x: &Extraction, invoice: &Invoice) -> Vec<String> {
    invoice
        .expected()
        .into_iter()
        .filter(|(path, want)| {
            let got = value_at(x, path);
            !got.as_ref().is_some_and(|g| same(g, want))
        })
        .map(|(path, want)| format!("{path}: want {want}, got {:?}", value_at(x, &path)))
        .collect()
}

#[test]
fn an_english_invoice_as_text_gives_every_stated_value() {
    let invoice = sample::english();
    let x = run(&[text_doc(&invoice.text())], "IC", &[]);
    assert_eq!(misses(&x, &invoice), Vec::<String>::new(), "{x:#?}");
    // The consignee is the customer's trade company: its codes come from the record.
    assert_eq!(
        x.fields["consigneeCompanyCn"].value,
        json!("深圳某某科技有限公司")
    );
    assert_eq!(x.fields["consigneeCompanyCn"].source, "tradeCompany");
    assert_eq!(x.fields["consigneeCustomMaster"].value, json!("4403960ABC"));
    assert_eq!(x.fields["trackingNumber"].source, "document");
    assert_eq!(x.fields["trackingNumber"].location, "mail.txt p.1 line 3");
    assert!(x.fields["trackingNumber"].confidence >= 0.8);
}

#[test]
fn a_chinese_invoice_as_text_gives_every_stated_value() {
    let invoice = sample::chinese();
    let x = run(&[text_doc(&invoice.text())], "IC", &[]);
    assert_eq!(misses(&x, &invoice), Vec::<String>::new(), "{x:#?}");
}

#[test]
fn an_xlsx_invoice_gives_every_stated_value() {
    for invoice in [sample::english(), sample::chinese()] {
        let bytes = invoice.xlsx();
        let doc = tokio::runtime::Runtime::new()
            .expect("runtime")
            .block_on(read::read_local("invoice.xlsx", &bytes))
            .expect("read");
        assert_eq!(doc.kind, Kind::Xlsx);
        let x = run(&[doc], "IC", &[]);
        assert_eq!(misses(&x, &invoice), Vec::<String>::new(), "{x:#?}");
    }
}

#[tokio::test]
async fn a_text_pdf_is_read_with_positions_and_gives_every_stated_value() {
    for invoice in [sample::english(), sample::chinese()] {
        let doc = read::read_local("invoice.pdf", &invoice.pdf())
            .await
            .expect("pdftotext reads the PDF");
        assert_eq!(doc.kind, Kind::Pdf);
        let x = run(&[doc], "IC", &[]);
        assert_eq!(misses(&x, &invoice), Vec::<String>::new(), "{x:#?}");
        assert!(
            x.fields["grossWeight"]
                .location
                .starts_with("invoice.pdf p.1 line ")
        );
    }
}

#[tokio::test]
async fn unreadable_documents_are_refused_with_a_message() {
    let empty = read::read_local("a.pdf", b"").await.expect_err("empty");
    assert_eq!(empty.en, "the file is empty");
    let damaged = read::read_local("a.pdf", b"%PDF-1.4 not really")
        .await
        .expect_err("damaged");
    assert!(
        damaged.en.contains("damaged") || damaged.en.contains("no text layer"),
        "{damaged:?}"
    );
    let binary = read::read_local("a.bin", &[0, 1, 2, 3, 0xFF])
        .await
        .expect_err("binary");
    assert!(binary.en.starts_with("unsupported file type"));
    let blank = read::read_local("blank.pdf", &sample::pdf_document(""))
        .await
        .expect_err("blank");
    assert!(blank.en.contains("no text layer"), "{blank:?}");
    let big = vec![b'a'; read::MAX_DOCUMENT_BYTES + 1];
    assert!(
        read::read_local("big.txt", &big)
            .await
            .expect_err("big")
            .en
            .contains("too large")
    );
}

#[test]
fn the_product_library_fills_the_hs_code_and_elements_the_documents_lack() {
    let text = "AWB No.: 123456\n\nDescription      Qty   Unit   Amount\nSmart phone      2     PCS    USD 400.00\n";
    let products = [LibraryProduct {
        description_cn: "智能手机".into(),
        description_en: Some("Smart Phone".into()),
        hs_code: "8517130000".into(),
        declaration_elements: Some("1|0|品牌:无".into()),
        legal_unit_one: Some("007".into()),
        origin_country: Some("CHN".into()),
    }];
    let x = run(&[text_doc(text)], "IC", &products);
    let g = &x.goods[0];
    assert_eq!(g["goodsCode"].value, json!("8517130000"));
    assert_eq!(g["goodsCode"].source, "productLibrary");
    assert_eq!(g["specification"].value, json!("1|0|品牌:无"));
    assert_eq!(g["totalPrice"].value, json!(400));
    assert_eq!(g["currency"].value, json!("USD"));
    assert_eq!(g["unitPrice"].source, "derived");
}

#[test]
fn the_class_follows_the_value_at_the_days_rate_and_the_consignee() {
    // 440 USD at 7.1 is about CNY 3,124: C for a company.
    let x = run(&[text_doc(&sample::english().text())], "IC", &[]);
    let class = x.class.expect("class");
    assert_eq!(class.class, "C", "{class:?}");
    assert!(class.reason_en.contains("CNY"));
    // 45,600 JPY is about CNY 2,200: C as well; at 10x the value it is D.
    let big = sample::chinese()
        .text()
        .replace("45600", "456000")
        .replace("36000", "360000");
    let x = run(&[text_doc(&big)], "IC", &[]);
    assert_eq!(x.class.expect("class").class, "D");
    assert!(x.warnings.iter().any(|w| w.starts_with("declarationType")));
    // A person receiving a small parcel: B.
    let person = "AWB No.: 77\nConsignee: Li Lei\nCurrency: USD\n\nDescription   Qty  Amount\nBook          1    20.00\n";
    let x = run(&[text_doc(person)], "IB", &[]);
    assert_eq!(x.class.expect("class").class, "B");
}

#[test]
fn a_uscc_that_fails_its_check_character_is_a_warning_not_a_value() {
    let text = "AWB No.: 1\nConsignee: Unknown Trading Co., Ltd.\nUSCC: 91440300MA5FHK4H1X\n";
    let x = run(&[text_doc(text)], "IC", &[]);
    assert!(!x.fields.contains_key("consigneeScc"));
    assert!(
        x.warnings
            .iter()
            .any(|w| w.contains("fails its check character")),
        "{:?}",
        x.warnings
    );
}

fn proposal(value: Value) -> Proposal {
    Proposal {
        value,
        source: "document".into(),
        location: "a.pdf p.1 line 1".into(),
        confidence: 0.9,
    }
}

fn proposed_draft() -> events::ai_draft::Proposed {
    let mut fields = BTreeMap::new();
    fields.insert("trackingNumber".to_string(), proposal(json!("1Z1")));
    fields.insert("grossWeight".to_string(), proposal(json!(12.5)));
    fields.insert("contractNo".to_string(), proposal(json!("INV-1")));
    let mut line = BTreeMap::new();
    line.insert("goodsName".to_string(), proposal(json!("Cup")));
    events::ai_draft::Proposed {
        customer_id: Uuid::nil(),
        declaration_type: "IC".parse().expect("type"),
        documents: vec![],
        fields,
        goods: vec![line],
        warnings: vec![],
        class: None,
    }
}

#[test]
fn the_review_tells_accepted_changed_and_rejected_fields_apart() {
    let p = proposed_draft();
    let mut form = proposed_form(&p);
    assert_eq!(form.tracking_number.as_deref(), Some("1Z1"));
    form.gross_weight = Some("13".parse().expect("decimal"));
    form.contract_no = None;
    let review = review(&p, &form);
    let decision = |f: &str| review.iter().find(|r| r.field == f).map(|r| r.decision);
    assert_eq!(decision("trackingNumber"), Some(ReviewDecision::Accepted));
    assert_eq!(decision("grossWeight"), Some(ReviewDecision::Changed));
    assert_eq!(decision("contractNo"), Some(ReviewDecision::Rejected));
    assert_eq!(
        decision("declarationGoodsInfo[0].goodsName"),
        Some(ReviewDecision::Accepted)
    );
    let changed = review
        .iter()
        .find(|r| r.field == "grossWeight")
        .expect("gross");
    assert_eq!(changed.old, json!(12.5));
    assert_eq!(changed.new, json!(13));
    assert_eq!(changed.source, "document");
}

#[test]
fn a_proposal_is_accepted_once() {
    let mut state = AiDraftState::default();
    let accept = AiDraftCommand::Accept {
        declaration_id: Uuid::nil(),
        fields: vec![],
    };
    assert_eq!(
        when(&state, accept.clone()),
        Err(crate::aggregate::DomainError::NotFound)
    );
    for e in when(&state, AiDraftCommand::Propose(Box::new(proposed_draft()))).expect("propose") {
        state.evolve(&e);
    }
    let events = when(&state, accept.clone()).expect("accept");
    assert!(matches!(events[0], AiDraftEvent::Accepted(_)));
    state.evolve(&events[0]);
    assert!(matches!(
        when(&state, accept),
        Err(crate::aggregate::DomainError::Conflict(_))
    ));
    assert!(matches!(
        when(&state, AiDraftCommand::Propose(Box::new(proposed_draft()))),
        Err(crate::aggregate::DomainError::Conflict(_))
    ));
}

/// The page of `pdf` rendered as a PNG by poppler's `pdftoppm` at `dpi` (a "scan").
pub fn render_png(pdf: &[u8], dpi: u32) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("clearway-render-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).expect("dir");
    let input = dir.join("page.pdf");
    std::fs::write(&input, pdf).expect("pdf");
    let status = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", &dpi.to_string(), "-singlefile"])
        .arg(&input)
        .arg(dir.join("page"))
        .status()
        .expect("pdftoppm (poppler-utils)");
    assert!(status.success());
    let png = std::fs::read(dir.join("page.png")).expect("png");
    let _ = std::fs::remove_dir_all(&dir);
    png
}

#[tokio::test]
async fn a_scanned_english_invoice_is_read_by_ocr_with_most_values_right() {
    let invoice = sample::english();
    let png = render_png(&invoice.pdf(), 200);
    let doc = read::read_local("scan.png", &png)
        .await
        .expect("tesseract reads the scan");
    assert_eq!(doc.kind, Kind::Image);
    let x = run(&[doc], "IC", &[]);
    let total = invoice.expected().len();
    let wrong = misses(&x, &invoice);
    let right = total - wrong.len();
    eprintln!("OCR of the English invoice at 200 dpi: {right}/{total} fields right");
    // The target for images: at least 85% of the fields right.
    assert!(
        right * 100 >= total * 85,
        "{right}/{total} right; missed: {wrong:#?}"
    );
    // OCR confidence is carried into the proposal.
    assert!(x.fields["trackingNumber"].confidence < 1.0);
}

#[test]
fn an_older_drafted_event_without_provenance_still_reads() {
    use events::DomainEvent;
    let payload = json!({
        "declarationId": Uuid::nil(), "declarationType": "IC", "customerId": Uuid::nil(),
        "username": "acme", "companyName": null, "data": {"trackingNumber": "1"}
    });
    let recorded = events::RecordedEvent {
        global_position: 1,
        tx_id: 1,
        stream_type: "declaration".into(),
        stream_id: Uuid::nil(),
        stream_version: 1,
        event_id: Uuid::nil(),
        event_type: "DeclarationDrafted".into(),
        schema_version: 2,
        payload,
        metadata: events::Metadata::default(),
        recorded_at: chrono::Utc::now(),
    };
    let e = events::declaration::DeclarationEvent::from_recorded(&recorded).expect("reads");
    let events::declaration::DeclarationEvent::Drafted(d) = e else {
        panic!("drafted")
    };
    assert_eq!(d.provenance, None);
    // And one with provenance writes it, and reads it back.
    let mut with = d.clone();
    with.provenance = Some(events::declaration::Provenance {
        ai_draft_id: Uuid::nil(),
        reviewer_id: Uuid::nil(),
        reviewer_name: "op".into(),
        fields: review(&proposed_draft(), &proposed_form(&proposed_draft())),
    });
    let n = events::declaration::DeclarationEvent::Drafted(with.clone()).to_new_event();
    assert_eq!(n.payload["provenance"]["fields"][0]["decision"], "accepted");
}

/// A local HTTP server standing in for an OpenAI-compatible endpoint: it checks what a
/// real one needs (the key, the model, a JSON schema response format) and answers `content`.
async fn stand_in(content: Value) -> (String, tokio::sync::oneshot::Receiver<Value>) {
    use axum::{Json, Router, http::HeaderMap, routing::post};
    let (tx, rx) = tokio::sync::oneshot::channel();
    let tx = std::sync::Arc::new(std::sync::Mutex::new(Some(tx)));
    let app = Router::new().route(
        "/v1/chat/completions",
        post(move |headers: HeaderMap, Json(body): Json<Value>| {
            let tx = tx.clone();
            let content = content.clone();
            async move {
                let authorized = headers.get("authorization").and_then(|v| v.to_str().ok()) == Some("Bearer k-123");
                let shaped = body["response_format"]["type"] == "json_schema"
                    && body["response_format"]["json_schema"]["schema"]["properties"]["goods"].is_object()
                    && body["model"] == "m-1";
                if let Some(tx) = tx.lock().ok().and_then(|mut t| t.take()) {
                    let _ = tx.send(body);
                }
                if !authorized || !shaped {
                    return (axum::http::StatusCode::BAD_REQUEST, Json(json!({"error": "bad request"})));
                }
                (
                    axum::http::StatusCode::OK,
                    Json(json!({"choices": [{"message": {"role": "assistant", "content": content.to_string()}}]})),
                )
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}"), rx)
}

#[tokio::test]
async fn the_models_proposals_are_checked_and_fill_only_what_the_documents_lack() {
    let answer = json!({
        "fields": {
            "trackingNumber": "FROM-THE-MODEL",
            "voyageNo": "CA1234",
            "currencyCode": "XYZ",
            "consigneeScc": "91440300MA5FHK4H1X",
            "grossWeight": 3.5
        },
        "goods": [
            {"goodsName": "Cup", "goodsCode": "9617001100", "goodsQuantity": 2, "goodsUnit": "PCS",
             "unitPrice": null, "totalPrice": 10, "currency": "USD", "originCountry": "Japan"},
            {"goodsName": "Plate", "goodsCode": "999999", "goodsQuantity": "many", "goodsUnit": null,
             "unitPrice": null, "totalPrice": null, "currency": null, "originCountry": null}
        ]
    });
    let (url, seen) = stand_in(answer).await;
    let cfg = llm::LlmConfig {
        url,
        model: "m-1".into(),
        key: Some("k-123".into()),
        timeout: std::time::Duration::from_secs(10),
    };
    let doc = text_doc("AWB No.: 1Z-DOC\nSome text without a goods table\n");
    let got = llm::ask(&cfg, std::slice::from_ref(&doc))
        .await
        .expect("the stand-in answers");
    let sent = seen.await.expect("request");
    assert!(
        sent["messages"][1]["content"]
            .as_str()
            .expect("prompt")
            .contains("1Z-DOC")
    );

    let reference = reference();
    let companies = companies();
    let ctx = Context {
        reference: &reference,
        on: today(),
        declaration_type: "IC".parse().expect("type"),
        companies: &companies,
        products: &[],
    };
    let mut x = extract(std::slice::from_ref(&doc), &ctx);
    llm::merge(&mut x, &got, &ctx);
    // The document's value stays; the model fills what the document lacks.
    assert_eq!(x.fields["trackingNumber"].value, json!("1Z-DOC"));
    assert_eq!(x.fields["trackingNumber"].source, "document");
    assert_eq!(x.fields["voyageNo"].value, json!("CA1234"));
    assert_eq!(x.fields["voyageNo"].source, "LLM");
    assert_eq!(x.fields["grossWeight"].value, json!(3.5));
    // Checked like any value: an unknown currency and a bad USCC are refused with a warning.
    assert!(!x.fields.contains_key("currencyCode"));
    assert!(!x.fields.contains_key("consigneeScc"));
    let warnings = x.warnings.join("\n");
    assert!(
        warnings.contains("currencyCode: the model's proposal was refused"),
        "{warnings}"
    );
    assert!(
        warnings.contains("consigneeScc: the model's proposal was refused"),
        "{warnings}"
    );
    assert!(
        warnings.contains("declarationGoodsInfo[1].goodsCode"),
        "{warnings}"
    );
    assert!(
        warnings.contains("declarationGoodsInfo[1].goodsQuantity"),
        "{warnings}"
    );
    let g = &x.goods[0];
    assert_eq!(g["goodsUnit"].value, json!("007"));
    assert_eq!(g["originCountry"].value, json!("JPN"));
    assert_eq!(g["goodsCode"].source, "LLM");
    assert_eq!(x.goods[1]["goodsName"].value, json!("Plate"));
    assert!(!x.goods[1].contains_key("goodsCode"));

    // A wrong key: the endpoint refuses and the caller is told why.
    let wrong = llm::LlmConfig {
        key: Some("nope".into()),
        ..cfg
    };
    let (url, _seen) = stand_in(json!({})).await;
    let err = llm::ask(&llm::LlmConfig { url, ..wrong }, &[doc])
        .await
        .expect_err("refused");
    assert!(err.contains("HTTP 400"), "{err}");
}

/// `scripts/bench.sh extract`: fields right / total per document kind over the generated
/// invoices (English and Chinese; text PDF, the PDF rendered to PNG at 200 dpi and read by
/// OCR, xlsx). Ignored in the normal test run (it needs a CJK font for the Chinese scan).
#[tokio::test]
#[ignore]
async fn bench_extract() {
    let mut all = Vec::new();
    for (lang, invoice) in [("en", sample::english()), ("zh", sample::chinese())] {
        let pdf = invoice.pdf();
        let kinds: [(&str, Vec<u8>, &str); 3] = [
            ("text PDF", pdf.clone(), "invoice.pdf"),
            ("PNG (OCR)", render_png(&pdf, 200), "invoice.png"),
            ("xlsx", invoice.xlsx(), "invoice.xlsx"),
        ];
        for (kind, bytes, name) in kinds {
            let started = std::time::Instant::now();
            let (right, total, missed) = match read::read_local(name, &bytes).await {
                Ok(doc) => {
                    let x = run(&[doc], "IC", &[]);
                    let total = invoice.expected().len();
                    let missed = misses(&x, &invoice);
                    (total - missed.len(), total, missed)
                }
                Err(e) => (0, invoice.expected().len(), vec![e.en]),
            };
            let ms = started.elapsed().as_millis();
            println!(
                "extract {lang} {kind:<10} {right:>2}/{total} fields right ({:.0}%), {ms} ms",
                right as f64 * 100.0 / total as f64
            );
            for m in &missed {
                println!("    missed {m}");
            }
            all.push((kind, right, total));
        }
    }
    for kind in ["text PDF", "PNG (OCR)", "xlsx"] {
        let (r, t) = all
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .fold((0, 0), |(r, t), (_, r2, t2)| (r + r2, t + t2));
        println!(
            "extract all {kind:<10} {r}/{t} ({:.1}%)",
            r as f64 * 100.0 / t as f64
        );
    }
}
