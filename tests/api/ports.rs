//! Port management: register, change, delete ports and their facilities (SLICs), the rules
//! (fields, duplicates, deleted ports, If-Match), the permissions (`ports:management`,
//! `ports:add-slic`) and the lists (`/api/v1/port/slic-info`, `/api/v1/ports`).

use reqwest::Response;
use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;

async fn delete(app: &TestApp, token: &str, path: &str) -> Response {
    app.client
        .delete(app.url(path))
        .bearer_auth(token)
        .send()
        .await
        .expect("delete")
}

async fn put_if(app: &TestApp, token: &str, path: &str, version: i64, body: Value) -> Value {
    let r = app
        .client
        .put(app.url(path))
        .bearer_auth(token)
        .header("If-Match", version.to_string())
        .json(&body)
        .send()
        .await
        .expect("put");
    crate::helpers::body(r).await
}

fn position(answer: &Value) -> i64 {
    answer["data"]["position"].as_i64().expect("position")
}

/// Waits (30 s at most) until `projection` has applied the feed up to `after`: `minPosition`
/// waits 2 s at most, which a loaded machine can exceed.
pub async fn caught_up(app: &TestApp, projection: &str, after: i64) {
    for _ in 0..300 {
        let at: Option<i64> =
            sqlx::query_scalar("SELECT position FROM projection_checkpoints WHERE name = $1")
                .bind(projection)
                .fetch_optional(&app.pool)
                .await
                .expect("checkpoint");
        if at.is_some_and(|p| p >= after) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The live ports of slic-info once the read model has the command's position.
async fn slic_info(app: &TestApp, token: &str, after: i64) -> Vec<Value> {
    caught_up(app, "port_directory", after).await;
    let r = body(
        app.get(
            token,
            &format!("/api/v1/port/slic-info?minPosition={after}"),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    r["data"].as_array().expect("ports").clone()
}

fn port<'a>(ports: &'a [Value], code: &str) -> Option<&'a Value> {
    ports.iter().find(|p| p["portCode"] == code)
}

/// Waits until the demo ports are in the read model.
async fn demo_ports(app: &TestApp, token: &str) -> Vec<Value> {
    for _ in 0..100 {
        let ports = slic_info(app, token, 0).await;
        if ports.len() >= 4 {
            return ports;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the demo ports did not reach the read model")
}

#[sqlx::test(migrations = "./migrations")]
async fn the_demo_ports_are_listed_with_their_facilities_for_staff_and_customers(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let ports = demo_ports(&app, &acme).await;
    let codes: Vec<&str> = ports
        .iter()
        .filter_map(|p| p["portCode"].as_str())
        .collect();
    assert_eq!(codes, ["CGO", "PEK", "PVG", "SZX"], "sorted by port code");
    let pvg = port(&ports, "PVG").expect("PVG");
    assert_eq!(pvg["declarationSlic"], "2001");
    assert_eq!(pvg["portNameEn"], "Shanghai Pudong");
    assert_eq!(pvg["deleted"], false);
    assert_eq!(pvg["createBy"], "system");
    assert!(
        pvg["createTime"]
            .as_str()
            .expect("time")
            .ends_with("+08:00")
    );
    assert!(pvg["version"].as_i64().expect("version") >= 3);
    let facilities = pvg["slicInfoList"].as_array().expect("facilities");
    assert_eq!(facilities.len(), 2);
    for key in [
        "id",
        "upsFacilityName",
        "upsFacilitySlic",
        "createBy",
        "createTime",
        "updateBy",
        "updateTime",
        "deleted",
    ] {
        assert!(facilities[0].get(key).is_some(), "facility lacks {key}");
    }
    // the demo customer's SLIC is a facility of its port
    let profile = body(app.get(&acme, "/api/v1/customer/profile").await).await;
    let slic = profile["data"]["slicCode"].as_str().expect("slic");
    let port_code = profile["data"]["portCode"].as_str().expect("port");
    assert!(
        port(&ports, port_code).expect("port")["slicInfoList"]
            .as_array()
            .expect("list")
            .iter()
            .any(|f| f["upsFacilitySlic"] == slic),
        "{slic} at {port_code}"
    );
    let operator = app.login("operator").await;
    assert_eq!(slic_info(&app, &operator, 0).await.len(), 4);
    let anonymous = app
        .client
        .get(app.url("/api/v1/port/slic-info"))
        .send()
        .await
        .expect("get");
    assert_eq!(anonymous.status().as_u16(), 401);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_port_and_its_facilities_go_through_their_whole_life(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    // a form body, lower case code, fields the client may not set are ignored
    let created: Value = body(
        app.client
            .post(app.url("/api/v1/ports"))
            .bearer_auth(&admin)
            .form(&[
                ("portCode", "xmn"),
                ("portName", "厦门高崎"),
                ("declarationSlic", "3601"),
                ("deleted", "true"),
                ("createBy", "mallory"),
            ])
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    assert_eq!(created["data"]["version"], 1);
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let ports = slic_info(&app, &admin, position(&created)).await;
    let xmn = port(&ports, "XMN").expect("XMN listed");
    assert_eq!(xmn["id"], id.as_str());
    assert_eq!(xmn["portName"], "厦门高崎");
    assert_eq!(xmn["portNameEn"], Value::Null);
    assert_eq!(xmn["deleted"], false);
    assert_eq!(xmn["createBy"], "admin");
    assert_eq!(xmn["slicInfoList"], json!([]));

    // add a facility (JSON)
    let added = body(
        app.post(
            &admin,
            &format!("/api/v1/ports/{id}/slics"),
            json!({"upsFacilityName": "UPS Xiamen Gaoqi Gateway", "upsFacilitySlic": "3611"}),
        )
        .await,
    )
    .await;
    assert_eq!(added["code"], 200, "{added}");
    assert_eq!(added["data"]["version"], 2);
    let ports = slic_info(&app, &admin, position(&added)).await;
    let xmn = port(&ports, "XMN").expect("XMN");
    assert_eq!(xmn["version"], 2);
    let facility = &xmn["slicInfoList"][0];
    assert_eq!(facility["upsFacilitySlic"], "3611");
    let slic_id = facility["id"].as_str().expect("slic id").to_string();

    // change the port: a stale If-Match is a conflict and changes nothing
    let stale = put_if(
        &app,
        &admin,
        &format!("/api/v1/ports/{id}"),
        1,
        json!({"portName": "厦门"}),
    )
    .await;
    assert_eq!(stale["_status"], 409, "{stale}");
    assert_eq!(stale["data"]["reason"], "VERSION_CONFLICT");
    let changed = put_if(
        &app,
        &admin,
        &format!("/api/v1/ports/{id}"),
        2,
        json!({"portName": "厦门", "portNameEn": "Xiamen", "portCode": "ZZZ"}),
    )
    .await;
    assert_eq!(changed["code"], 200, "{changed}");
    assert_eq!(changed["data"]["version"], 3);

    // change the facility
    let slic_path = format!("/api/v1/ports/{id}/slics/{slic_id}");
    let r = body(
        app.put(&admin, &slic_path, json!({"upsFacilitySlic": "3612"}))
            .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let ports = slic_info(&app, &admin, position(&r)).await;
    let xmn = port(&ports, "XMN").expect("XMN");
    assert_eq!(xmn["portName"], "厦门");
    assert_eq!(xmn["portNameEn"], "Xiamen");
    assert_eq!(xmn["portCode"], "XMN", "the code is not changed by PUT");
    assert_eq!(xmn["slicInfoList"][0]["upsFacilitySlic"], "3612");
    assert_eq!(xmn["slicInfoList"][0]["updateBy"], "admin");
    // an empty English name empties it; an absent one leaves it
    let emptied = body(
        app.put(
            &admin,
            &format!("/api/v1/ports/{id}"),
            json!({"portNameEn": ""}),
        )
        .await,
    )
    .await;
    assert_eq!(emptied["code"], 200, "{emptied}");
    let ports = slic_info(&app, &admin, position(&emptied)).await;
    let xmn = port(&ports, "XMN").expect("XMN");
    assert_eq!(xmn["portNameEn"], Value::Null);
    assert_eq!(xmn["portName"], "厦门");

    // the managed list finds it by keyword (a facility SLIC too) and pages
    let list = body(
        app.get(
            &admin,
            &format!("/api/v1/ports?keyword=3612&minPosition={}", position(&r)),
        )
        .await,
    )
    .await;
    assert_eq!(list["data"]["total"], 1, "{list}");
    assert_eq!(list["data"]["records"][0]["portCode"], "XMN");
    let page = body(app.get(&admin, "/api/v1/ports?pageNo=2&pageSize=2").await).await;
    assert_eq!(page["data"]["total"], 5, "{page}");
    assert_eq!(page["data"]["records"].as_array().expect("page").len(), 2);
    assert_eq!(page["data"]["records"][0]["portCode"], "PVG");

    // remove the facility: gone from the list; again is 404
    let removed = body(delete(&app, &admin, &slic_path).await).await;
    assert_eq!(removed["code"], 200, "{removed}");
    let ports = slic_info(&app, &admin, position(&removed)).await;
    assert_eq!(port(&ports, "XMN").expect("XMN")["slicInfoList"], json!([]));
    let again = body(delete(&app, &admin, &slic_path).await).await;
    assert_eq!(again["_status"], 404, "{again}");

    // delete the port: gone from both lists; nothing more happens to it
    let deleted = body(delete(&app, &admin, &format!("/api/v1/ports/{id}")).await).await;
    assert_eq!(deleted["code"], 200, "{deleted}");
    let ports = slic_info(&app, &admin, position(&deleted)).await;
    assert!(port(&ports, "XMN").is_none());
    let list = body(app.get(&admin, "/api/v1/ports?keyword=XMN").await).await;
    assert_eq!(list["data"]["total"], 0, "{list}");
    for r in [
        app.put(
            &admin,
            &format!("/api/v1/ports/{id}"),
            json!({"portName": "x"}),
        )
        .await,
        app.post(
            &admin,
            &format!("/api/v1/ports/{id}/slics"),
            json!({"upsFacilityName": "x", "upsFacilitySlic": "3613"}),
        )
        .await,
        delete(&app, &admin, &format!("/api/v1/ports/{id}")).await,
    ] {
        let r = body(r).await;
        assert_eq!(r["_status"], 404, "{r}");
    }
    let deleted_rows: (bool, i64) =
        sqlx::query_as("SELECT deleted, version FROM rm_ports WHERE port_code = 'XMN'")
            .fetch_one(&app.pool)
            .await
            .expect("row");
    assert_eq!(deleted_rows, (true, 7), "soft delete keeps the row");

    // the code may be registered afresh, without the old facilities
    let again = body(
        app.post(
            &admin,
            "/api/v1/ports",
            json!({"portCode": "XMN", "portName": "厦门翔安", "declarationSlic": "3602"}),
        )
        .await,
    )
    .await;
    assert_eq!(again["code"], 200, "{again}");
    assert_eq!(again["data"]["id"], id.as_str());
    let ports = slic_info(&app, &admin, position(&again)).await;
    let xmn = port(&ports, "XMN").expect("XMN again");
    assert_eq!(xmn["portName"], "厦门翔安");
    assert_eq!(xmn["slicInfoList"], json!([]));

    // unknown ids are 404
    for path in [
        "/api/v1/ports/not-a-uuid".to_string(),
        format!("/api/v1/ports/{}", uuid::Uuid::now_v7()),
        format!("/api/v1/ports/{id}/slics/{}", uuid::Uuid::now_v7()),
    ] {
        let r = body(app.put(&admin, &path, json!({"portName": "x"})).await).await;
        assert_eq!(r["_status"], 404, "{path}: {r}");
    }
}

fn bad_field(r: &Value) -> &str {
    r["data"][0]["field"].as_str().unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_fields_are_named_and_duplicates_are_conflicts(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let ok_port = json!({"portCode": "TAO", "portName": "青岛", "declarationSlic": "2661"});
    let mut cases = Vec::new();
    for (field, value) in [
        ("portCode", json!("TA")),
        ("portCode", json!("T4O")),
        ("portCode", json!(null)),
        ("portName", json!(null)),
        ("portName", json!("名".repeat(51))),
        ("portNameEn", json!("x".repeat(101))),
        ("declarationSlic", json!("266")),
        ("declarationSlic", json!("26a1")),
        ("declarationSlic", json!(2661.5)),
    ] {
        let mut b = ok_port.clone();
        b[field] = value;
        cases.push((field, b));
    }
    for (field, b) in cases {
        let r = body(app.post(&admin, "/api/v1/ports", b.clone()).await).await;
        assert_eq!(r["_status"], 400, "{b}: {r}");
        assert_eq!(bad_field(&r), field, "{b}: {r}");
        assert!(r["message"].is_string());
    }
    let en = body(
        app.client
            .post(app.url("/api/v1/ports"))
            .bearer_auth(&admin)
            .header("Accept-Language", "en")
            .json(&json!({"portCode": "TAO", "portName": "青岛", "declarationSlic": "1"}))
            .send()
            .await
            .expect("post"),
    )
    .await;
    assert_eq!(
        en["data"][0]["message"], "declarationSlic must be 4 digits",
        "{en}"
    );
    let created = body(app.post(&admin, "/api/v1/ports", ok_port.clone()).await).await;
    assert_eq!(created["code"], 200, "{created}");
    let dup = body(
        app.post(
            &admin,
            "/api/v1/ports",
            json!({"portCode": "tao", "portName": "x", "declarationSlic": "1111"}),
        )
        .await,
    )
    .await;
    assert_eq!(dup["_status"], 409, "{dup}");
    assert_eq!(dup["data"]["reason"], "CONFLICT");
    let id = created["data"]["id"].as_str().expect("id");

    let slics = format!("/api/v1/ports/{id}/slics");
    for (field, b) in [
        ("upsFacilityName", json!({"upsFacilitySlic": "2662"})),
        (
            "upsFacilityName",
            json!({"upsFacilityName": "n".repeat(101), "upsFacilitySlic": "2662"}),
        ),
        ("upsFacilitySlic", json!({"upsFacilityName": "Qingdao"})),
        (
            "upsFacilitySlic",
            json!({"upsFacilityName": "Qingdao", "upsFacilitySlic": "26620"}),
        ),
    ] {
        let r = body(app.post(&admin, &slics, b.clone()).await).await;
        assert_eq!(r["_status"], 400, "{b}: {r}");
        assert_eq!(bad_field(&r), field, "{b}: {r}");
    }
    let first = body(
        app.post(
            &admin,
            &slics,
            json!({"upsFacilityName": "Qingdao Liuting", "upsFacilitySlic": "2662"}),
        )
        .await,
    )
    .await;
    assert_eq!(first["code"], 200, "{first}");
    let second = body(
        app.post(
            &admin,
            &slics,
            json!({"upsFacilityName": "Qingdao Jiaodong", "upsFacilitySlic": "2663"}),
        )
        .await,
    )
    .await;
    assert_eq!(second["code"], 200, "{second}");
    let dup = body(
        app.post(
            &admin,
            &slics,
            json!({"upsFacilityName": "Other", "upsFacilitySlic": "2662"}),
        )
        .await,
    )
    .await;
    assert_eq!(dup["_status"], 409, "{dup}");
    // changing a facility to another's SLIC is a conflict too; bad fields are named
    let ports = slic_info(&app, &admin, position(&second)).await;
    let tao = port(&ports, "TAO").expect("TAO");
    let second_id = tao["slicInfoList"]
        .as_array()
        .expect("list")
        .iter()
        .find(|f| f["upsFacilitySlic"] == "2663")
        .and_then(|f| f["id"].as_str())
        .expect("second facility")
        .to_string();
    let path = format!("/api/v1/ports/{id}/slics/{second_id}");
    let clash = body(
        app.put(&admin, &path, json!({"upsFacilitySlic": "2662"}))
            .await,
    )
    .await;
    assert_eq!(clash["_status"], 409, "{clash}");
    let bad = body(
        app.put(&admin, &path, json!({"upsFacilitySlic": "x"}))
            .await,
    )
    .await;
    assert_eq!(bad_field(&bad), "upsFacilitySlic", "{bad}");
    let bad = body(
        app.put(
            &admin,
            &format!("/api/v1/ports/{id}"),
            json!({"declarationSlic": "12"}),
        )
        .await,
    )
    .await;
    assert_eq!(bad_field(&bad), "declarationSlic", "{bad}");
    // the same facility SLIC at another port is fine
    let pvg = events::port::port_id("PVG");
    let other = body(
        app.post(
            &admin,
            &format!("/api/v1/ports/{pvg}/slics"),
            json!({"upsFacilityName": "Elsewhere", "upsFacilitySlic": "2662"}),
        )
        .await,
    )
    .await;
    assert_eq!(other["code"], 200, "{other}");
    // nothing half-applied: the refused commands left exactly the accepted events
    let count: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM events WHERE stream_type = 'port' AND stream_id = $1",
    )
    .bind(uuid::Uuid::parse_str(id).expect("uuid"))
    .fetch_one(&app.pool)
    .await
    .expect("count");
    assert_eq!(count, 3);
    let bad_list = body(app.get(&admin, "/api/v1/ports?pageSize=0").await).await;
    assert_eq!(bad_field(&bad_list), "pageSize", "{bad_list}");
}

#[sqlx::test(migrations = "./migrations")]
async fn adding_a_slic_needs_its_own_permission(pool: PgPool) {
    let app = spawn(pool).await;
    let admin = app.login("admin").await;
    let superadmin = app.login("superadmin").await;
    let operator = app.login("operator").await;
    let acme = app.login("acme").await;
    let pvg = events::port::port_id("PVG");
    let facility =
        json!({"upsFacilityName": "UPS Pudong Cargo Terminal", "upsFacilitySlic": "2019"});

    // OPERATOR and customers: 403 on everything but slic-info
    for token in [&operator, &acme] {
        for r in [
            app.get(token, "/api/v1/ports").await,
            app.post(
                token,
                "/api/v1/ports",
                json!({"portCode": "CAN", "portName": "广州", "declarationSlic": "5101"}),
            )
            .await,
            app.put(
                token,
                &format!("/api/v1/ports/{pvg}"),
                json!({"portName": "x"}),
            )
            .await,
            delete(&app, token, &format!("/api/v1/ports/{pvg}")).await,
            app.post(
                token,
                &format!("/api/v1/ports/{pvg}/slics"),
                facility.clone(),
            )
            .await,
        ] {
            assert_eq!(r.status().as_u16(), 403);
        }
    }

    // ADMIN without ports:add-slic: the facility endpoints are 403, the port ones still work
    let roles = body(app.get(&superadmin, "/api/v1/roles").await).await;
    let admin_codes: Vec<String> = roles["data"]
        .as_array()
        .expect("roles")
        .iter()
        .find(|r| r["roleCode"] == "ADMIN")
        .expect("ADMIN")["permissions"]
        .as_array()
        .expect("codes")
        .iter()
        .filter_map(|p| p["permissionCode"].as_str())
        .filter(|c| *c != "ports:add-slic")
        .map(String::from)
        .collect();
    let r = body(
        app.put(
            &superadmin,
            "/api/v1/roles/ADMIN/permissions",
            json!({"permissionCodes": admin_codes}),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let refused = app
        .post(
            &admin,
            &format!("/api/v1/ports/{pvg}/slics"),
            facility.clone(),
        )
        .await;
    assert_eq!(refused.status().as_u16(), 403);
    let ports = demo_ports(&app, &admin).await;
    let first = port(&ports, "PVG").expect("PVG")["slicInfoList"][0]["id"]
        .as_str()
        .expect("facility")
        .to_string();
    let path = format!("/api/v1/ports/{pvg}/slics/{first}");
    assert_eq!(
        app.put(&admin, &path, json!({"upsFacilityName": "x"}))
            .await
            .status()
            .as_u16(),
        403
    );
    assert_eq!(delete(&app, &admin, &path).await.status().as_u16(), 403);
    let renamed = body(
        app.put(
            &admin,
            &format!("/api/v1/ports/{pvg}"),
            json!({"portNameEn": "Shanghai"}),
        )
        .await,
    )
    .await;
    assert_eq!(renamed["code"], 200, "{renamed}");
    // SUPER_ADMIN holds every code
    let added = body(
        app.post(&superadmin, &format!("/api/v1/ports/{pvg}/slics"), facility)
            .await,
    )
    .await;
    assert_eq!(added["code"], 200, "{added}");
}
