//! The activity feed masks personal data in recorded changes (issue 16, finding 8), as the
//! lists and exports do.

use crate::helpers::*;
use serde_json::{Value, json};
use sqlx::PgPool;

#[sqlx::test(migrations = "./migrations")]
async fn the_activity_feed_masks_id_and_phone_numbers_in_edits_for_every_role(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let form = json!({"trackingNumber": "1ZPII0001P00000008", "recipientName": "张三",
                      "recipientIdNumber": "110101199001011234",
                      "recipientPhone": "13812345678", "shipperPhone": "02161234567",
                      "shipperIdNumber": "440524188001010014"});
    let mut create = form.clone();
    create["declarationType"] = json!("OC");
    let created = body(app.post(&acme, "/api/v1/declarations", create).await).await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let mut edited = form.clone();
    edited["recipientIdNumber"] = json!("11010519491231002X");
    edited["recipientPhone"] = json!("13998765432");
    edited["shipperPhone"] = Value::Null;
    edited["shipperIdNumber"] = json!("E12345678");
    edited["recipientName"] = json!("李四");
    let edit = body(
        app.client
            .put(app.url(&format!("/api/v1/declarations/{id}")))
            .bearer_auth(&acme)
            .header("if-match", "1")
            .json(&edited)
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(edit["code"], 200, "{edit}");
    let position = &edit["data"]["position"];

    for who in ["acme", "operator", "admin", "superadmin"] {
        let token = app.login(who).await;
        // `minPosition` waits at most 2 s; on a loaded machine ask again, up to 30 s.
        let path = format!(
            "/api/v1/declarations/activity?action=edit&trackingNumber=1ZPII0001P00000008&minPosition={position}"
        );
        let mut r = body(app.get(&token, &path).await).await;
        for _ in 0..15 {
            if r["data"]["total"] != 0 {
                break;
            }
            r = body(app.get(&token, &path).await).await;
        }
        assert_eq!(r["code"], 200, "{who}: {r}");
        let records = r["data"]["records"].as_array().expect("records");
        assert_eq!(records.len(), 1, "{who}: {r}");
        let changes = records[0]["changes"].as_array().expect("changes");
        let change = |field: &str| {
            changes
                .iter()
                .find(|c| c["field"] == field)
                .map(|c| (c["old"].clone(), c["new"].clone()))
                .unwrap_or_else(|| panic!("{who}: no change of {field}: {r}"))
        };
        assert_eq!(
            change("recipientIdNumber"),
            (json!("1101**********1234"), json!("1101**********002X")),
            "{who}"
        );
        assert_eq!(
            change("recipientPhone"),
            (json!("138****5678"), json!("139****5432")),
            "{who}"
        );
        assert_eq!(
            change("shipperPhone"),
            (json!("021****4567"), Value::Null),
            "{who}"
        );
        assert_eq!(
            change("shipperIdNumber"),
            (json!("4405**********0014"), json!("E123*5678")),
            "{who}"
        );
        // Other fields are shown as they are.
        assert_eq!(
            change("recipientName"),
            (json!("张三"), json!("李四")),
            "{who}"
        );
        let text = r.to_string();
        for secret in [
            "110101199001011234",
            "13812345678",
            "13998765432",
            "02161234567",
        ] {
            assert!(!text.contains(secret), "{who}: {secret} in {text}");
        }
    }
}
