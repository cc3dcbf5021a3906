//! `POST /api/v1/declarations/validate`: the wizard's live check of a form. It answers the
//! problems a draft and a submit would meet and the class check, stores nothing, and
//! refuses what create refuses (a body that does not parse, an unknown type, staff naming
//! no, an unknown or a disabled customer) with 400 naming the field.

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

const PATH: &str = "/api/v1/declarations/validate";

fn good_form() -> Value {
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(
        "1ZCHECK0001P000007",
        "PVG",
        "SHA01",
    ))
    .expect("json");
    data["declarationType"] = json!("OC");
    data
}

async fn event_count(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM events")
        .fetch_one(&app.pool)
        .await
        .expect("count")
}

#[sqlx::test(migrations = "./migrations")]
async fn a_good_form_passes_with_its_class_and_nothing_is_stored(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let before = event_count(&app).await;
    let r = body(app.post(&acme, PATH, good_form()).await).await;
    assert_envelope(&r);
    assert_eq!(r["code"], 200, "{r}");
    let d = &r["data"];
    assert_eq!(d["declarationType"], "OC");
    assert_eq!(d["valid"], true, "{d}");
    assert_eq!(d["draftValid"], true);
    assert_eq!(d["problems"], json!([]));
    assert_eq!(d["class"]["declared"], "C");
    assert_eq!(d["class"]["proposed"], "C", "{d}");
    assert_eq!(d["class"]["agrees"], true);
    assert!(
        d["class"]["reasonZh"]
            .as_str()
            .is_some_and(|s| !s.is_empty())
    );
    assert!(
        d["class"]["reasonEn"]
            .as_str()
            .is_some_and(|s| s.contains("USD")),
        "{d}"
    );
    assert!(
        d["class"]["valueCny"].as_f64().is_some_and(|v| v > 0.0),
        "{d}"
    );
    assert_eq!(event_count(&app).await, before, "validate appended events");
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_fields_are_named_by_their_paths_in_the_callers_language(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut form = good_form();
    form["declarationGoodsInfo"][0]["goodsCode"] = json!("61091");
    form["netWeight"] = json!(9);
    form["trackingNumber"] = Value::Null;
    let r = body(
        app.client
            .post(app.url(PATH))
            .bearer_auth(&acme)
            .header("accept-language", "en")
            .json(&form)
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let d = &r["data"];
    assert_eq!(d["valid"], false);
    assert_eq!(
        d["draftValid"], false,
        "no tracking number: not even a draft"
    );
    let problems = d["problems"].as_array().expect("problems");
    let find = |field: &str| {
        problems
            .iter()
            .find(|p| p["field"] == field)
            .unwrap_or_else(|| panic!("{field} not named in {problems:?}"))
    };
    let code = find("declarationGoodsInfo[0].goodsCode");
    assert_eq!(code["blocksDraft"], false);
    assert!(
        code["message"]
            .as_str()
            .expect("message")
            .starts_with("Goods line 1 · HS Code"),
        "named as the form labels it: {code}"
    );
    assert!(
        !code["message"]
            .as_str()
            .expect("message")
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "English asked: {code}"
    );
    assert_eq!(find("netWeight")["blocksDraft"], false);
    assert_eq!(find("trackingNumber")["blocksDraft"], true);

    // Too dear for class C: the class check proposes D with its reason.
    let mut dear = good_form();
    dear["declarationGoodsInfo"][0]["totalPrice"] = json!(1700);
    dear["declarationGoodsInfo"][0]["unitPrice"] = json!(85);
    let r = body(app.post(&acme, PATH, dear).await).await;
    let d = &r["data"];
    assert_eq!(d["class"]["proposed"], "D", "{d}");
    assert_eq!(d["class"]["agrees"], false);
    assert!(
        d["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .any(|p| p["field"] == "declarationGoodsInfo" && p["rule"] == "class_c_limit"),
        "{d}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn staff_must_name_a_live_customer_and_a_customer_checks_as_itself(pool: PgPool) {
    let app = spawn(pool).await;
    let op = app.login("operator").await;
    let admin = app.login("admin").await;
    let none = body(app.post(&op, PATH, good_form()).await).await;
    assert_eq!(none["_status"], 400, "{none}");
    assert_eq!(none["data"][0]["field"], "customerId");

    let mut unknown = good_form();
    unknown["customerId"] = json!("00000000-0000-0000-0000-0000000000aa");
    let r = body(app.post(&op, PATH, unknown).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "customerId");

    let globex = clearway::seed::customer_id("globex");
    let mut for_globex = good_form();
    for_globex["customerId"] = json!(globex);
    let r = body(app.post(&op, PATH, for_globex.clone()).await).await;
    assert_eq!(r["code"], 200, "{r}");

    let disabled = body(
        app.post(
            &admin,
            &format!("/api/v1/customers/{globex}/disable"),
            json!({"reason": "contract paused"}),
        )
        .await,
    )
    .await;
    assert_eq!(disabled["code"], 200, "{disabled}");
    let r = body(app.post(&op, PATH, for_globex.clone()).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "customerId");

    // A customer checks as its own company whatever the body names, as create files for it.
    let acme = app.login("acme").await;
    let r = body(app.post(&acme, PATH, for_globex).await).await;
    assert_eq!(r["code"], 200, "{r}");
    assert_eq!(r["data"]["valid"], true);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_malformed_body_answers_400_naming_the_field(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let mut form = good_form();
    form["grossWeight"] = json!("heavy");
    let r = body(app.post(&acme, PATH, form).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "grossWeight", "{r}");

    let mut form = good_form();
    form["declarationGoodsInfo"][0]["goodsQuantity"] = json!({"n": 1});
    let r = body(app.post(&acme, PATH, form).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert!(
        r["data"][0]["field"]
            .as_str()
            .is_some_and(|f| f.starts_with("declarationGoodsInfo[0]")),
        "{r}"
    );

    let mut form = good_form();
    form["declarationType"] = json!("XX");
    let r = body(app.post(&acme, PATH, form).await).await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_eq!(r["data"][0]["field"], "declarationType");

    let r = body(
        app.client
            .post(app.url(PATH))
            .bearer_auth(&acme)
            .header("content-type", "application/json")
            .body("{\"declarationType\": \"OC\",")
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(r["_status"], 400, "{r}");
    assert_envelope(&r);

    let r = body(
        app.client
            .post(app.url(PATH))
            .bearer_auth(&acme)
            .header("content-type", "text/plain")
            .body("x")
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(r["_status"], 415, "{r}");

    let anonymous = app
        .client
        .post(app.url(PATH))
        .json(&good_form())
        .send()
        .await
        .expect("post");
    assert_eq!(anonymous.status().as_u16(), 401);
}
