//! Values a read model could not index, and values the rules could not compute with: a 400
//! naming the field, never a 500 (issue 16, findings 3 and 6).

use crate::helpers::*;
use serde_json::{Value, json};
use sqlx::PgPool;

/// Varied CJK characters (3 bytes each in UTF-8).
fn cjk(n: usize) -> String {
    (0..n)
        .map(|i| char::from_u32(0x4E00 + (i as u32 * 37) % 0x5000).unwrap_or('中'))
        .collect()
}

fn fields(r: &Value) -> Vec<String> {
    r["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|f| f["field"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn a_draft_whose_port_passes_the_character_cap_but_not_the_byte_cap_is_refused(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    // 900 characters of varied CJK: 2,700 bytes, within the 1,000-character rule, over the
    // B-tree entry limit of rm_declarations_port_slic_idx with the SLIC beside it.
    let r = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZCAP0001P00000000",
                   "port": cjk(900), "slic": cjk(900)}),
        )
        .await,
    )
    .await;
    assert_envelope(&r);
    assert_eq!(r["_status"], 400, "{r}");
    let f = fields(&r);
    assert!(f.contains(&"port".to_string()), "{r}");
    assert!(f.contains(&"slic".to_string()), "{r}");
    assert!(
        r["message"].as_str().unwrap_or_default().contains("口岸"),
        "{r}"
    );
    assert!(
        r["data"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("32"),
        "{r}"
    );

    // The list projection keeps going: a draft saved afterwards reaches the list.
    let ok = body(
        app.post(
            &acme,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "1ZCAP0002P00000009",
                   "port": "PVG", "slic": "SHA01"}),
        )
        .await,
    )
    .await;
    assert_eq!(ok["code"], 200, "{ok}");
    // `minPosition` waits at most 2 s; on a loaded machine ask again, up to 30 s.
    let path = format!(
        "/api/v1/declarations?declarationType=OC&trackingNumber=1ZCAP0002P00000009&minPosition={}",
        ok["data"]["position"]
    );
    let mut total = json!(0);
    for _ in 0..15 {
        let list = body(app.get(&acme, &path).await).await;
        assert_eq!(list["code"], 200, "{list}");
        total = list["data"]["total"].clone();
        if total == 1 {
            break;
        }
    }
    assert_eq!(
        total, 1,
        "the list projection did not reach the later draft"
    );
}

/// A class C export draft of acme's whose first goods line is changed by `change`.
async fn draft_with(app: &TestApp, token: &str, tracking: &str, change: Value) -> String {
    let mut data = serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
        .expect("json");
    data["declarationType"] = json!("OC");
    if let (Some(line), Some(change)) = (
        data["declarationGoodsInfo"][0].as_object_mut(),
        change.as_object(),
    ) {
        for (k, v) in change {
            line.insert(k.clone(), v.clone());
        }
    }
    let r = body(app.post(token, "/api/v1/declarations", data).await).await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"]["id"].as_str().expect("id").to_string()
}

#[sqlx::test(migrations = "./migrations")]
async fn overflowing_goods_values_and_a_multibyte_district_code_answer_400_naming_the_field(
    pool: PgPool,
) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    // goodsQuantity = unitPrice = 1e20: their product leaves decimal range.
    let big = draft_with(
        &app,
        &acme,
        "1ZBIG0001P00000004",
        json!({"goodsQuantity": 1e20, "unitPrice": 1e20, "totalPrice": 1}),
    )
    .await;
    // `123é`: 5 bytes, byte 4 inside the `é`.
    let district = draft_with(
        &app,
        &acme,
        "1ZDIS0001P00000000",
        json!({"districtCode": "123é"}),
    )
    .await;
    for (id, field) in [
        (big, "declarationGoodsInfo[0].totalPrice"),
        (district, "declarationGoodsInfo[0].districtCode"),
    ] {
        let r = body(
            app.post(
                &acme,
                &format!("/api/v1/declarations/{id}/submit"),
                json!({}),
            )
            .await,
        )
        .await;
        assert_envelope(&r);
        assert_eq!(r["_status"], 400, "{field}: {r}");
        assert!(fields(&r).contains(&field.to_string()), "{field}: {r}");
    }
}
