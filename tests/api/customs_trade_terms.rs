//! The declaration's trade terms travel to customs as `DecHead/TransMode` (成交方式, the
//! single window's code: 1 CIF, 3 FOB, ...), and the message stays valid against
//! docs/schemas/DecMessage.xsd (docs/customs.md).

use serde_json::json;
use sqlx::PgPool;

use crate::customs::{declare, drain, exchange, queued, xmllint};
use crate::helpers::{TestApp, body, command_state, config, spawn};

/// A complete class C export with `tradeTerms` set, by acme: its id.
async fn draft_with_terms(app: &TestApp, token: &str, tracking: &str, terms: &str) -> String {
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    data["declarationType"] = json!("OC");
    data["tradeTerms"] = json!(terms);
    let r = body(app.post(token, "/api/v1/declarations", data).await).await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"]["id"].as_str().expect("id").to_string()
}

#[sqlx::test(migrations = "./migrations")]
async fn the_message_carries_the_trade_terms_as_trans_mode(pool: PgPool) {
    let app = spawn(pool.clone()).await;
    let cfg = config(&pool, clearway::config::Mode::Development);
    let state = command_state(&pool, &cfg).await;
    let ex = exchange();
    let acme = app.login("acme").await;
    let op = app.login("operator").await;

    for (tracking, terms, code) in [
        ("CW20261204101", "1", "1"), // CIF
        ("CW20261204103", "3", "3"), // FOB
    ] {
        let id = draft_with_terms(&app, &acme, tracking, terms).await;
        let (_, cop) = declare(&app, &acme, &op, &id).await;
        queued(&pool, &cop).await;
        drain(&state, &ex.folder).await;
        let file = ex.folder.outbox().join(format!("{cop}.xml"));
        let xml = std::fs::read_to_string(&file).expect("the message is in outbox/");
        xmllint(&file, "DecMessage.xsd").expect("valid against DecMessage.xsd");
        assert!(
            xml.contains(&format!("<TransMode>{code}</TransMode>")),
            "{terms}: {xml}"
        );
        assert_eq!(xml.matches("<TransMode>").count(), 1, "{xml}");
    }

    // Without trade terms the element is left out, and the message is still valid.
    let id = app.full_draft(&acme, "CW20261204100").await;
    let (_, cop) = declare(&app, &acme, &op, &id).await;
    queued(&pool, &cop).await;
    drain(&state, &ex.folder).await;
    let file = ex.folder.outbox().join(format!("{cop}.xml"));
    let xml = std::fs::read_to_string(&file).expect("written");
    xmllint(&file, "DecMessage.xsd").expect("valid");
    assert!(!xml.contains("TransMode"), "{xml}");
}

/// The schema itself refuses a transaction mode customs has no code for.
#[test]
fn the_schema_refuses_a_trans_mode_outside_the_code_table() {
    let dir = crate::customs::tempdir::new();
    let file = dir.0.join("m.xml");
    let msg = |t: &str| {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<DecMessage><DecHead>\
             <CopNo>CW0000000000000001</CopNo><IEFlag>E</IEFlag><BillNo>CW1</BillNo>\
             <TransMode>{t}</TransMode></DecHead><DecLists><DecList><GNo>1</GNo>\
             <CodeTS>6109100010</CodeTS><GName>T</GName><GQty>1</GQty><GUnit>011</GUnit>\
             <DeclTotal>1</DeclTotal><TradeCurr>USD</TradeCurr></DecList></DecLists>\
             </DecMessage>\n"
        )
    };
    std::fs::write(&file, msg("3")).expect("write");
    xmllint(&file, "DecMessage.xsd").expect("3 (FOB) is valid");
    std::fs::write(&file, msg("FOB")).expect("write");
    assert!(
        xmllint(&file, "DecMessage.xsd").is_err(),
        "a name is not a code"
    );
    std::fs::write(&file, msg("8")).expect("write");
    assert!(
        xmllint(&file, "DecMessage.xsd").is_err(),
        "8 is not in the table"
    );
}
