//! Receipts read from the exchange folder's `inbox/` (docs/customs.md): each code's effect,
//! duplicates recorded once, order not mattering, hostile files refused to `failed/` fast,
//! unknown CopNos kept as anomalies, an Sp1 opening a clearance exception, a file still
//! being written never read early.

use std::time::{Duration, Instant};

use command::customs::inbox::{Inbox, Seen, scan_once};
use command::declaration::DeclarationState;
use command::handler::load;
use command::http::CommandState;
use serde_json::json;
use sqlx::PgPool;
use uuid::Uuid;

use crate::customs::{Exchange, declared, drain, exchange, queued, stream_events};
use crate::helpers::{TestApp, command_state, config, spawn};

pub(crate) fn receipt(cop: &str, channel: &str, notice: &str, extra: &str) -> String {
    format!(
        "<DEC_RESULT><COP_NO>{cop}</COP_NO><CHANNEL>{channel}</CHANNEL><NOTICE_DATE>{notice}</NOTICE_DATE>{extra}</DEC_RESULT>"
    )
}

pub(crate) fn file(receipts: &[String]) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DEC_RESULTS>{}</DEC_RESULTS>\n",
        receipts.concat()
    )
}

/// Drops `xml` into inbox/ the way a gateway does (a temporary name, then a rename).
pub(crate) fn drop_in(ex: &Exchange, name: &str, xml: &str) {
    let tmp = ex.folder.inbox().join(format!(".{name}.part"));
    std::fs::write(&tmp, xml).expect("write");
    std::fs::rename(&tmp, ex.folder.inbox().join(name)).expect("rename");
}

pub(crate) fn quick(ex: &Exchange) -> Inbox {
    Inbox {
        settle: Duration::ZERO,
        ..Inbox::new(ex.folder.clone())
    }
}

async fn scan(state: &CommandState, ex: &Exchange) -> usize {
    scan_once(state, &quick(ex), &mut Seen::default())
        .await
        .expect("scan")
}

async fn status(state: &CommandState, id: Uuid) -> (i16, DeclarationState) {
    let (d, _) = load::<DeclarationState>(&state.store, id)
        .await
        .expect("load");
    (d.status.expect("exists").code(), d)
}

struct Setup {
    app: TestApp,
    state: CommandState,
    ex: Exchange,
}

async fn setup(pool: &PgPool) -> Setup {
    let app = spawn(pool.clone()).await;
    let cfg = config(pool, clearway::config::Mode::Development);
    let state = command_state(pool, &cfg).await;
    let ex = exchange();
    Setup { app, state, ex }
}

/// A declaration declared and its message written: its id and CopNo.
async fn sent(s: &Setup, pool: &PgPool, tracking: &str) -> (Uuid, String) {
    let (id, cop) = declared(&s.app, tracking).await;
    queued(pool, &cop).await;
    drain(&s.state, &s.ex.folder).await;
    assert!(s.ex.folder.outbox().join(format!("{cop}.xml")).exists());
    (id, cop)
}

#[sqlx::test(migrations = "./migrations")]
async fn each_receipt_code_does_what_the_contract_says(pool: PgPool) {
    let s = setup(&pool).await;
    let (a, cop_a) = sent(&s, &pool, "CW30000001").await;
    // L (entry and unified numbers), G, C, T (taxes), H, M: recorded, still 2.
    drop_in(
        &s.ex,
        "a1.xml",
        &file(&[
            receipt(
                &cop_a,
                "L",
                "2026-11-28T10:00:00+08:00",
                "<ENTRY_ID>222420261000012345</ENTRY_ID><CUS_CIQ_NO>I20261128000012345</CUS_CIQ_NO>",
            ),
            receipt(&cop_a, "G", "2026-11-28T10:05:00+08:00", ""),
            receipt(
                &cop_a,
                "C",
                "2026-11-28T10:06:00+08:00",
                "<NOTE>查验</NOTE>",
            ),
            receipt(
                &cop_a,
                "T",
                "2026-11-28T10:07:00+08:00",
                "<TAXES><TAX><TYPE>A</TYPE><AMOUNT>12.50</AMOUNT></TAX><TAX><TYPE>L</TYPE><AMOUNT>31.20</AMOUNT></TAX></TAXES>",
            ),
            receipt(&cop_a, "H", "2026-11-28T10:08:00+08:00", ""),
            receipt(&cop_a, "M", "2026-11-28T10:09:00+08:00", ""),
        ]),
    );
    assert_eq!(scan(&s.state, &s.ex).await, 1);
    assert!(
        s.ex.folder.done().join("a1.xml").exists(),
        "the file moved to done/"
    );
    let (code, d) = status(&s.state, a).await;
    assert_eq!(code, 2);
    assert_eq!(d.data.entry_id.as_deref(), Some("222420261000012345"));
    assert_eq!(d.data.cus_ciq_no.as_deref(), Some("I20261128000012345"));
    assert_eq!(d.customs.taxes.len(), 2);
    assert_eq!(d.customs.receipts.len(), 6);
    // P releases (3), R closes (stays 3).
    drop_in(
        &s.ex,
        "a2.xml",
        &file(&[receipt(&cop_a, "P", "2026-11-28T11:00:00+08:00", "")]),
    );
    scan(&s.state, &s.ex).await;
    assert_eq!(status(&s.state, a).await.0, 3);
    drop_in(
        &s.ex,
        "a3.xml",
        &file(&[receipt(&cop_a, "R", "2026-11-28T12:00:00+08:00", "")]),
    );
    scan(&s.state, &s.ex).await;
    let (code, d) = status(&s.state, a).await;
    assert_eq!(code, 3);
    assert_eq!(d.declaration_status.as_deref(), Some("P"));
    // The receipts are in the history, by the actor "customs".
    let actors: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT metadata->>'actorName' FROM events
          WHERE stream_id = $1 AND event_type = 'DeclarationCustomsReceiptRecorded'",
    )
    .bind(a)
    .fetch_all(&pool)
    .await
    .expect("actors");
    assert_eq!(actors, vec!["customs".to_string()]);

    // E, Z, Y return (10) with customs' note as the reason.
    for (i, code) in ["E", "Z", "Y"].into_iter().enumerate() {
        let (id, cop) = sent(&s, &pool, &format!("CW3000001{i}")).await;
        drop_in(
            &s.ex,
            &format!("r{i}.xml"),
            &file(&[receipt(
                &cop,
                code,
                "2026-11-28T10:00:00",
                &format!("<NOTE>净重有误 {code}</NOTE>"),
            )]),
        );
        scan(&s.state, &s.ex).await;
        assert_eq!(status(&s.state, id).await.0, 10, "{code}");
        let rejected = stream_events(&pool, id, "DeclarationRejected").await;
        assert_eq!(rejected[0]["reason"], json!(format!("净重有误 {code}")));
        assert_eq!(rejected[0]["receiptCode"], json!(code));
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn a_thousand_copies_are_one_event_and_order_does_not_matter(pool: PgPool) {
    let s = setup(&pool).await;
    let (a, cop_a) = sent(&s, &pool, "CW30000101").await;
    let one = receipt(
        &cop_a,
        "L",
        "2026-11-28T10:00:00+08:00",
        "<ENTRY_ID>222420261000099999</ENTRY_ID>",
    );
    drop_in(&s.ex, "dups.xml", &file(&vec![one.clone(); 1000]));
    drop_in(&s.ex, "dup-again.xml", &file(&[one]));
    let started = Instant::now();
    scan(&s.state, &s.ex).await;
    eprintln!(
        "1001 copies of one receipt read and settled in {:?}",
        started.elapsed()
    );
    assert_eq!(
        stream_events(&pool, a, "DeclarationCustomsReceiptRecorded")
            .await
            .len(),
        1
    );

    // In order and in reverse order, the same final status.
    let times = [
        "2026-11-28T10:00:00+08:00",
        "2026-11-28T10:10:00+08:00",
        "2026-11-28T11:00:00+08:00",
        "2026-11-28T12:00:00+08:00",
    ];
    let codes = ["L", "G", "P", "R"];
    let (fwd, cop_f) = sent(&s, &pool, "CW30000102").await;
    let (rev, cop_r) = sent(&s, &pool, "CW30000103").await;
    let forward: Vec<String> = codes
        .iter()
        .zip(times)
        .map(|(c, t)| receipt(&cop_f, c, t, ""))
        .collect();
    let mut backward: Vec<String> = codes
        .iter()
        .zip(times)
        .map(|(c, t)| receipt(&cop_r, c, t, ""))
        .collect();
    backward.reverse();
    drop_in(&s.ex, "fwd.xml", &file(&forward));
    drop_in(&s.ex, "rev.xml", &file(&backward));
    scan(&s.state, &s.ex).await;
    let (f, fd) = status(&s.state, fwd).await;
    let (r, rd) = status(&s.state, rev).await;
    assert_eq!((f, r), (3, 3));
    assert_eq!(fd.customs.receipts.len(), 4);
    assert_eq!(rd.customs.receipts.len(), 4, "the late ones are history");
    let effects: Vec<String> = stream_events(&pool, rev, "DeclarationCustomsReceiptRecorded")
        .await
        .iter()
        .map(|e| e["effect"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(effects, vec!["moved", "late", "late", "late"]);
}

#[sqlx::test(migrations = "./migrations")]
async fn hostile_files_go_to_failed_with_a_reason_fast(pool: PgPool) {
    let s = setup(&pool).await;
    let ex = &s.ex;
    let laughs = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">{}]><DEC_RESULT><NOTE>&lol9;</NOTE></DEC_RESULT>",
        (1..10)
            .map(|i| format!(
                "<!ENTITY lol{i} \"{}\">",
                format!("&lol{};", i - 1).repeat(10)
            ))
            .collect::<String>()
    );
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("xxe.xml", b"<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><DEC_RESULT><NOTE>&x;</NOTE></DEC_RESULT>".to_vec()),
        ("laughs.xml", laughs.into_bytes()),
        ("deep.xml", format!("<DEC_RESULT>{}{}</DEC_RESULT>", "<a>".repeat(100_000), "</a>".repeat(100_000)).into_bytes()),
        ("latin1.xml", b"<DEC_RESULT><NOTE>caf\xe9</NOTE></DEC_RESULT>".to_vec()),
        ("text.xml", b"this is not xml at all".to_vec()),
        ("binary.xml", vec![0u8, 159, 146, 150, 1, 2, 3]),
    ];
    for (name, bytes) in &cases {
        std::fs::write(ex.folder.inbox().join(name), bytes).expect("write");
    }
    // 200 MB, sparse: judged by its size, never read.
    let big = std::fs::File::create(ex.folder.inbox().join("big.xml")).expect("big");
    big.set_len(200 * 1024 * 1024).expect("size");
    drop(big);
    let started = Instant::now();
    scan(&s.state, ex).await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(2), "took {took:?}");
    for name in cases.iter().map(|(n, _)| *n).chain(["big.xml"]) {
        assert!(ex.folder.failed().join(name).exists(), "{name} in failed/");
        let why = std::fs::read_to_string(ex.folder.failed().join(format!("{name}.why.txt")))
            .expect("why");
        assert!(!why.trim().is_empty(), "{name}: a reason");
        assert!(!why.contains("root:"), "nothing read from outside the file");
    }
    let why = std::fs::read_to_string(ex.folder.failed().join("xxe.xml.why.txt")).expect("why");
    assert!(why.contains("DTD"), "{why}");
    assert!(
        std::fs::read_dir(ex.folder.inbox())
            .expect("inbox")
            .next()
            .is_none()
    );
    // The server is unaffected.
    let r = s
        .app
        .client
        .get(s.app.url("/api/v1/health"))
        .send()
        .await
        .expect("health");
    assert!(r.status().is_success());
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_cop_nos_and_impossible_codes_are_kept_as_anomalies(pool: PgPool) {
    let s = setup(&pool).await;
    let (a, cop_a) = sent(&s, &pool, "CW30000201").await;
    drop_in(
        &s.ex,
        "odd.xml",
        &file(&[
            receipt("CW0000000000000000", "P", "2026-11-28T10:00:00+08:00", ""),
            receipt(&cop_a, "Q", "2026-11-28T10:00:00+08:00", ""),
            receipt(&cop_a, "L", "2026-11-28T10:00:00+08:00", "<NOTE>one</NOTE>"),
            receipt(
                &cop_a,
                "L",
                "2026-11-28T10:00:00+08:00",
                "<NOTE>another</NOTE>",
            ),
        ]),
    );
    scan(&s.state, &s.ex).await;
    assert!(s.ex.folder.done().join("odd.xml").exists());
    let kinds: Vec<String> = sqlx::query_scalar(
        "SELECT payload->>'kind' FROM events WHERE stream_type = 'customs_anomaly'
          ORDER BY global_position",
    )
    .fetch_all(&pool)
    .await
    .expect("anomalies");
    assert_eq!(
        kinds,
        vec!["unknown_cop_no", "unknown_code", "different_copy"]
    );
    assert_eq!(status(&s.state, a).await.0, 2);
    // Read again (as after a crash before the move): no second anomaly.
    std::fs::rename(
        s.ex.folder.done().join("odd.xml"),
        s.ex.folder.inbox().join("odd.xml"),
    )
    .expect("back");
    scan(&s.state, &s.ex).await;
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_type = 'customs_anomaly'")
            .fetch_one(&pool)
            .await
            .expect("count");
    assert_eq!(n, 3);
}

#[sqlx::test(migrations = "./migrations")]
async fn an_sp1_holds_the_declaration_and_opens_an_exception(pool: PgPool) {
    let s = setup(&pool).await;
    let (a, cop_a) = sent(&s, &pool, "CW30000301").await;
    drop_in(
        &s.ex,
        "sp1.xml",
        &file(&[receipt(
            &cop_a,
            "Sp1",
            "2026-11-28T10:00:00+08:00",
            "<NOTE>请提供发票和装箱单</NOTE><DOCS><DOC>commercialInvoice</DOC><DOC>packingList</DOC></DOCS>",
        )]),
    );
    scan(&s.state, &s.ex).await;
    let (code, d) = status(&s.state, a).await;
    assert_eq!(code, 4);
    let exception = d.open_exception.expect("an exception holds it");
    let raised: Vec<serde_json::Value> = sqlx::query_scalar(
        "SELECT payload FROM events WHERE stream_id = $1 ORDER BY stream_version",
    )
    .bind(exception)
    .fetch_all(&pool)
    .await
    .expect("exception events");
    let form = &raised[0]["form"];
    assert_eq!(form["exceptionSummary"], json!("请提供发票和装箱单"));
    assert_eq!(form["isCommercialInvoiceChecked"], json!(true));
    assert_eq!(form["isPackingListChecked"], json!(true));
    // The same Sp1 again opens nothing more.
    drop_in(
        &s.ex,
        "sp1-again.xml",
        &file(&[receipt(
            &cop_a,
            "Sp1",
            "2026-11-28T10:00:00+08:00",
            "<NOTE>请提供发票和装箱单</NOTE><DOCS><DOC>commercialInvoice</DOC><DOC>packingList</DOC></DOCS>",
        )]),
    );
    scan(&s.state, &s.ex).await;
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM events WHERE stream_type = 'clearance_exception' AND event_type = 'ClearanceExceptionRaised'")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(n, 1);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_file_still_being_written_is_not_read_early(pool: PgPool) {
    let s = setup(&pool).await;
    let (a, cop_a) = sent(&s, &pool, "CW30000401").await;
    let whole = file(&[receipt(&cop_a, "P", "2026-11-28T10:00:00+08:00", "")]);
    let path = s.ex.folder.inbox().join("slow.xml");
    let inbox = Inbox::new(s.ex.folder.clone());
    let mut seen = Seen::default();
    use std::io::Write;
    let mut f = std::fs::File::create(&path).expect("create");
    for chunk in whole.as_bytes().chunks(16) {
        f.write_all(chunk).expect("write");
        f.flush().expect("flush");
        scan_once(&s.state, &inbox, &mut seen).await.expect("scan");
        assert!(path.exists(), "not moved while being written");
        // About 1.5 s in all: longer than the settling time, so only the rule "unchanged
        // for a moment, and whole" keeps it from being read early.
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    drop(f);
    // Half a file that stays unchanged is not read as a receipt either.
    assert_eq!(status(&s.state, a).await.0, 2);
    tokio::time::sleep(Duration::from_millis(600)).await;
    scan_once(&s.state, &inbox, &mut seen).await.expect("scan");
    assert!(s.ex.folder.done().join("slow.xml").exists());
    assert_eq!(status(&s.state, a).await.0, 3);

    let half = &whole[..whole.len() / 2];
    std::fs::write(s.ex.folder.inbox().join("half.xml"), half).expect("half");
    tokio::time::sleep(Duration::from_millis(600)).await;
    scan_once(&s.state, &inbox, &mut seen).await.expect("scan");
    assert!(
        s.ex.folder.inbox().join("half.xml").exists(),
        "waits for the rest"
    );
}
