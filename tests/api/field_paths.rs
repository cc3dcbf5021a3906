//! A value of the wrong type anywhere in a JSON body is refused naming its JSON path, also
//! inside the part of a body the handler reads flattened (the declaration data).

use crate::helpers::*;
use serde_json::json;
use sqlx::PgPool;

#[sqlx::test(migrations = "./migrations")]
async fn a_number_where_the_tracking_number_belongs_names_tracking_number(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let v = body(
        app.post(
            &token,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": 2501000161_u64}),
        )
        .await,
    )
    .await;
    assert_eq!(v["_status"], 400, "{v}");
    assert_envelope(&v);
    assert_eq!(v["data"][0]["field"], "trackingNumber", "{v}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_number_where_a_goods_name_belongs_names_the_goods_line(pool: PgPool) {
    let app = spawn(pool).await;
    let token = app.login("acme").await;
    let v = body(
        app.post(
            &token,
            "/api/v1/declarations",
            json!({
                "declarationType": "OC",
                "trackingNumber": "1Z-PATH-1",
                "declarationGoodsInfo": [{"goodsName": 12345}]
            }),
        )
        .await,
    )
    .await;
    assert_eq!(v["_status"], 400, "{v}");
    assert_envelope(&v);
    assert_eq!(
        v["data"][0]["field"], "declarationGoodsInfo[0].goodsName",
        "{v}"
    );
}
