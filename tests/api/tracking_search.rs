//! Finding a shipment by its tracking number: case, spaces and hyphens do not matter, every
//! declaration type is searched, and each caller finds only what they may see (a customer
//! their own company's, staff with `declarations:management` any).

use serde_json::Value;
use sqlx::PgPool;

use crate::helpers::*;

async fn find(app: &TestApp, token: &str, number: &str) -> Value {
    let q = number.replace(' ', "%20");
    body(
        app.get(
            token,
            &format!("/api/v1/declarations?trackingNumber={q}&minPosition=0"),
        )
        .await,
    )
    .await
}

#[sqlx::test(migrations = "./migrations")]
async fn a_tracking_number_is_found_whatever_its_case_and_spacing_by_who_may_see_it(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let operator = app.login("operator").await;
    let number = ups("ACME00DEMO03");
    let id = app.full_draft(&acme, &number).await;

    // "1zacme-00demo-03..." in lower case with hyphens (spaces separate numbers in a list;
    // the header's search box sends one number without them).
    let typed = format!(
        "{}-{}-{}",
        &number[..6].to_lowercase(),
        &number[6..12].to_lowercase(),
        &number[12..]
    );
    let mut mine = Value::Null;
    for _ in 0..100 {
        mine = find(&app, &acme, &typed).await;
        assert_eq!(mine["code"], 200, "{mine}");
        if mine["data"]["total"] == 1 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(mine["code"], 200, "{mine}");
    assert_eq!(mine["data"]["total"], 1, "{typed}: {mine}");
    assert_eq!(mine["data"]["records"][0]["id"], id.as_str());
    assert_eq!(
        mine["data"]["records"][0]["trackingNumber"],
        number.as_str()
    );

    let staff = find(&app, &operator, &number.to_lowercase()).await;
    assert_eq!(
        staff["data"]["total"], 1,
        "staff find any customer's: {staff}"
    );

    let other = find(&app, &globex, &number).await;
    assert_eq!(other["code"], 200, "{other}");
    assert_eq!(
        other["data"]["total"], 0,
        "another customer finds nothing: {other}"
    );
}
