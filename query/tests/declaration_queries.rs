//! The declaration query routes against a real PostgreSQL, with read-model rows written
//! directly (the projections have their own tests in the projector crate): filters, paging,
//! sorting, customer isolation, bad input, read-your-writes and the xlsx export.

use std::io::Cursor;

use api::{Actor, Auth, AuthConfig, Role};
use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use calamine::{Data, Reader, Xlsx};
use chrono::{DateTime, Duration, Utc};
use query::{
    QueryState, declaration_activity, declaration_counts, declaration_detail, declaration_history,
    declaration_list, reports, wait,
};
use serde_json::{Value, json};
use sqlx::PgPool;
use tower::ServiceExt;
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn app(pool: &PgPool) -> Router {
    let auth = Auth::new(
        AuthConfig {
            secret: b"declaration-query-tests-secret-0123456789".to_vec(),
            issuer: "clearway".into(),
            audience: "clearway".into(),
            token_ttl: Duration::hours(1),
            refresh_window: Duration::seconds(300),
            absolute_ttl: Duration::hours(8),
        },
        pool.clone(),
    );
    let guards = api::Guards::new(&auth);
    Router::new()
        .merge(declaration_list::routes(&guards))
        .merge(declaration_detail::routes(&guards))
        .merge(declaration_history::routes(&guards))
        .merge(declaration_counts::routes(&guards))
        .merge(declaration_activity::routes(&guards))
        .merge(reports::declaration_export::routes(&guards))
        .with_state(QueryState {
            pool: pool.clone(),
            auth,
            customs_channel: false,
            tax_difference_share: query::declaration_taxes::DEFAULT_DIFFERENCE_SHARE,
        })
        .layer(axum::middleware::from_fn(api::context::request_context))
}

fn actor(role: Role, customer_id: Option<Uuid>) -> Actor {
    Actor {
        id: Uuid::new_v4(),
        username: format!("{role:?}").to_lowercase(),
        display_name: "Test".into(),
        role,
        customer_id,
        session_id: Uuid::new_v4(),
    }
}

struct Answer {
    status: StatusCode,
    headers: axum::http::HeaderMap,
    bytes: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
}

async fn send(pool: &PgPool, who: Option<&Actor>, request: Request<Body>) -> Answer {
    let mut request = request;
    if let Some(who) = who {
        // The route guards take the caller and their role's default codes from here.
        let codes = api::permissions::default_codes(who.role)
            .into_iter()
            .map(String::from)
            .collect();
        request.extensions_mut().insert(who.clone());
        request
            .extensions_mut()
            .insert(api::Granted(std::sync::Arc::new(codes)));
    }
    let response = app(pool).oneshot(request).await.expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    Answer {
        status,
        headers,
        bytes,
    }
}

async fn get(pool: &PgPool, who: &Actor, uri: &str) -> Answer {
    let request = Request::builder()
        .uri(uri)
        .body(Body::empty())
        .expect("request");
    send(pool, Some(who), request).await
}

/// One row of `rm_declarations` (and its counters); `created` is an RFC 3339 instant.
struct Row<'a> {
    id: Uuid,
    tracking: &'a str,
    type_code: &'a str,
    status: i16,
    customer: Uuid,
    username: &'a str,
    port: &'a str,
    created: &'a str,
    data: Value,
}

async fn insert(pool: &PgPool, row: &Row<'_>) -> Result<(), sqlx::Error> {
    let created: DateTime<Utc> = DateTime::parse_from_rfc3339(row.created)
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_default();
    let shipment_type: i16 = if row.type_code.starts_with('I') { 0 } else { 1 };
    sqlx::query(
        "INSERT INTO rm_declarations (id, version, position, tracking_number, declaration_type,
            declaration_class, shipment_type, status, draft_status, customer_id, username,
            company_name, port, slic, service_type, estimated_pickup_time, goods_count,
            total_value, currency, consignee_name, created_at, updated_at, data)
         VALUES ($1, 3, 10, $2, $3, right($3, 1), $4, $5, 0, $6, $7, $8, $9, '2001', '007',
            $10, 2, 120.5, 'CNY', $11, $10, $10, $12)",
    )
    .bind(row.id)
    .bind(row.tracking)
    .bind(row.type_code)
    .bind(shipment_type)
    .bind(row.status)
    .bind(row.customer)
    .bind(row.username)
    .bind(format!("{} Co.", row.username))
    .bind(row.port)
    .bind(created)
    .bind(row.data["consigneeCompanyCn"].as_str())
    .bind(&row.data)
    .execute(pool)
    .await?;
    // The projection's counters: for the customer, for everybody, for the port; acme's
    // still pending as deltas, globex's folded.
    let table = if row.username == "acme" {
        "rm_declaration_count_deltas"
    } else {
        "rm_declaration_counts"
    };
    sqlx::query(&format!(
        "INSERT INTO {table} AS c (scope, declaration_type, status, day, n)
         SELECT s, $2, $3, ($4 AT TIME ZONE 'Asia/Shanghai')::date, 1
         FROM unnest(ARRAY[$1, '00000000-0000-0000-0000-000000000000'::uuid,
                           md5('port:' || $5)::uuid]) AS s"
    ))
    .bind(row.customer)
    .bind(row.type_code)
    .bind(row.status)
    .bind(created)
    .bind(row.port)
    .execute(pool)
    .await?;
    Ok(())
}

struct Fixture {
    acme: Uuid,
    globex: Uuid,
    /// Ids by tracking number.
    ids: Vec<(String, Uuid)>,
}

impl Fixture {
    fn id(&self, tracking: &str) -> Uuid {
        self.ids
            .iter()
            .find(|(t, _)| t == tracking)
            .map(|(_, id)| *id)
            .unwrap_or_default()
    }
}

/// Ten declarations: A1..A7 of acme, G1..G3 of globex.
async fn fixture(pool: &PgPool) -> Result<Fixture, sqlx::Error> {
    let (acme, globex) = (Uuid::new_v4(), Uuid::new_v4());
    // (tracking, type, status, customer, port, created)
    let rows = [
        ("A1", "OD", 0, acme, "PVG", "2026-11-01T02:00:00Z"),
        ("A2", "OD", 1, acme, "PVG", "2026-11-02T02:00:00Z"),
        ("A3", "ID", 3, acme, "CAN", "2026-11-03T02:00:00Z"),
        ("A4", "OB", 5, acme, "PVG", "2026-11-04T02:00:00Z"),
        ("A5", "OC", 1, acme, "SZX", "2026-11-05T02:00:00Z"),
        // 00:30 on 2026-11-06 in Shanghai.
        ("A6", "IB", 2, acme, "PVG", "2026-11-05T16:30:00Z"),
        ("A7", "OD", 11, acme, "PVG", "2026-11-07T02:00:00Z"),
        ("G1", "OD", 1, globex, "PVG", "2026-11-02T03:00:00Z"),
        ("G2", "IC", 0, globex, "CAN", "2026-11-03T03:00:00Z"),
        ("G3", "ID", 3, globex, "PVG", "2026-11-04T03:00:00Z"),
    ];
    let mut ids = Vec::new();
    for (tracking, type_code, status, customer, port, created) in rows {
        let id = Uuid::new_v4();
        let username = if customer == acme { "acme" } else { "globex" };
        let data = json!({
            "trackingNumber": tracking,
            "consigneeCompanyCn": if tracking == "A2" { "=HYPERLINK(\"http://x\")" } else { "收货人" },
            "recipientIdNumber": "110101199001011234",
            "shipperIdNumber": "310101198001012345",
            "recipientPhone": "13812345678",
            "shipperPhone": "13987654321",
            "declarationGoodsInfo": [{"goodsName": "T-shirt", "totalPrice": 100.5}],
        });
        insert(
            pool,
            &Row {
                id,
                tracking,
                type_code,
                status,
                customer,
                username,
                port,
                created,
                data,
            },
        )
        .await?;
        ids.push((tracking.to_string(), id));
    }
    Ok(Fixture { acme, globex, ids })
}

fn trackings(answer: &Answer) -> Vec<String> {
    answer.json()["data"]["records"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r["trackingNumber"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn bad_field(answer: &Answer) -> Option<String> {
    if answer.status != StatusCode::BAD_REQUEST || answer.json()["code"] != json!(400) {
        return None;
    }
    answer.json()["data"][0]["field"]
        .as_str()
        .map(str::to_string)
}

#[sqlx::test(migrations = "../migrations")]
async fn staff_lists_filter_by_type_status_tracking_port_and_day(pool: PgPool) -> TestResult {
    fixture(&pool).await?;
    let operator = actor(Role::Operator, None);

    // Newest first; deleted rows hidden unless asked for.
    let all = get(&pool, &operator, "/api/v1/declarations?pageSize=50").await;
    assert_eq!(all.status, StatusCode::OK);
    assert_eq!(all.json()["code"], json!(200));
    assert_eq!(
        trackings(&all),
        ["A7", "A6", "A5", "G3", "G2", "A3", "G1", "A2", "A1"]
    );
    assert_eq!(all.json()["data"]["total"], json!(9));

    let class_d = get(
        &pool,
        &operator,
        "/api/v1/declarations?declarationType=D&status=-1",
    )
    .await;
    assert_eq!(trackings(&class_d), ["A7", "G3", "A3", "G1", "A2", "A1"]);
    let export_d = get(
        &pool,
        &operator,
        "/api/v1/declarations?declarationType=D&shipmentType=1",
    )
    .await;
    assert_eq!(trackings(&export_d), ["A7", "G1", "A2", "A1"]);
    let od_unprocessed = get(
        &pool,
        &operator,
        "/api/v1/declarations?declarationType=OD&status=1",
    )
    .await;
    assert_eq!(trackings(&od_unprocessed), ["G1", "A2"]);
    let deleted = get(&pool, &operator, "/api/v1/declarations?status=5").await;
    assert_eq!(trackings(&deleted), ["A4"]);

    let many = get(
        &pool,
        &operator,
        "/api/v1/declarations?trackingNumber=A1,%20G2%0AA3%0D%0AXX&sort=trackingNumber,asc",
    )
    .await;
    assert_eq!(trackings(&many), ["A1", "A3", "G2"]);
    let one = get(&pool, &operator, "/api/v1/declarations?trackingNumber=G3").await;
    assert_eq!(trackings(&one), ["G3"]);

    let port = get(
        &pool,
        &operator,
        "/api/v1/declarations?port=CAN&username=globex",
    )
    .await;
    assert_eq!(trackings(&port), ["G2"]);
    let by_customer = get(
        &pool,
        &operator,
        &format!("/api/v1/declarations?customerId={}", Uuid::nil()),
    )
    .await;
    assert_eq!(by_customer.json()["data"]["total"], json!(0));

    // Days are Shanghai days: A6 was created at 00:30 on the 6th there.
    let day = get(
        &pool,
        &operator,
        "/api/v1/declarations?fromDate=20261106&toDate=20261106",
    )
    .await;
    assert_eq!(trackings(&day), ["A6"]);
    let range = get(
        &pool,
        &operator,
        "/api/v1/declarations?fromDate=20261102&toDate=20261103",
    )
    .await;
    assert_eq!(trackings(&range), ["G2", "A3", "G1", "A2"]);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn pages_and_sorts_are_stable_and_the_total_counts_every_match(pool: PgPool) -> TestResult {
    let f = fixture(&pool).await?;
    let admin = actor(Role::Admin, None);
    let page2 = get(&pool, &admin, "/api/v1/declarations?pageNo=2&pageSize=4").await;
    assert_eq!(trackings(&page2), ["G2", "A3", "G1", "A2"]);
    assert_eq!(page2.json()["data"]["total"], json!(9));
    let page3 = get(&pool, &admin, "/api/v1/declarations?pageNo=3&pageSize=4").await;
    assert_eq!(trackings(&page3), ["A1"]);
    assert_eq!(page3.json()["data"]["total"], json!(9));
    let beyond = get(&pool, &admin, "/api/v1/declarations?pageNo=9&pageSize=4").await;
    assert_eq!(trackings(&beyond), Vec::<String>::new());
    assert_eq!(beyond.json()["data"]["total"], json!(9));

    // Totals from the port's counters, and counted when port and customer go together.
    let port = get(&pool, &admin, "/api/v1/declarations?port=PVG&pageSize=2").await;
    assert_eq!(trackings(&port), ["A7", "A6"]);
    assert_eq!(port.json()["data"]["total"], json!(6));
    let port_od = get(
        &pool,
        &admin,
        "/api/v1/declarations?port=PVG&declarationType=OD&pageSize=1",
    )
    .await;
    assert_eq!(port_od.json()["data"]["total"], json!(4));
    let f_total = get(
        &pool,
        &admin,
        &format!(
            "/api/v1/declarations?port=PVG&pageSize=1&customerId={}",
            f.globex
        ),
    )
    .await;
    assert_eq!(trackings(&f_total), ["G3"]);
    assert_eq!(f_total.json()["data"]["total"], json!(2));

    let by_status = get(
        &pool,
        &admin,
        "/api/v1/declarations?sort=status,desc&pageSize=3",
    )
    .await;
    assert_eq!(trackings(&by_status), ["A7", "G3", "A3"]);
    let oldest = get(
        &pool,
        &admin,
        "/api/v1/declarations?sort=createdAt,asc&pageSize=2",
    )
    .await;
    assert_eq!(trackings(&oldest), ["A1", "A2"]);
    let by_type = get(
        &pool,
        &admin,
        "/api/v1/declarations?sort=declarationType,asc&pageSize=3",
    )
    .await;
    assert_eq!(trackings(&by_type), ["A6", "G2", "G3"]);

    let record = &get(&pool, &admin, "/api/v1/declarations?trackingNumber=A6")
        .await
        .json()["data"]["records"][0];
    assert_eq!(record["declarationType"], json!("IB"));
    assert_eq!(record["shipmentType"], json!(0));
    assert_eq!(record["status"], json!(2));
    assert_eq!(record["totalValue"], json!(120.5));
    assert_eq!(record["goodsCount"], json!(2));
    assert_eq!(record["consigneeName"], json!("收货人"));
    assert_eq!(record["createdAt"], json!("2026-11-06T00:30:00+08:00"));
    assert!(record.get("recipientIdNumber").is_none());
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_is_a_400_naming_the_field(pool: PgPool) -> TestResult {
    let operator = actor(Role::Operator, None);
    let cases = [
        ("/api/v1/declarations?fromDate=2026-11-01", "fromDate"),
        ("/api/v1/declarations?toDate=20260230", "toDate"),
        (
            "/api/v1/declarations?fromDate=20261102&toDate=20261101",
            "toDate",
        ),
        ("/api/v1/declarations?sort=password,asc", "sort"),
        ("/api/v1/declarations?sort=createdAt,up", "sort"),
        ("/api/v1/declarations?pageSize=501", "pageSize"),
        ("/api/v1/declarations?pageNo=0", "pageNo"),
        ("/api/v1/declarations?pageNo=abc", "pageNo"),
        ("/api/v1/declarations?status=7", "status"),
        ("/api/v1/declarations?shipmentType=2", "shipmentType"),
        (
            "/api/v1/declarations?declarationType=OD&shipmentType=0",
            "shipmentType",
        ),
        ("/api/v1/declarations?declarationType=XX", "declarationType"),
        ("/api/v1/declarations?customerId=nope", "customerId"),
        ("/api/v1/declarations/activity?action=hack", "action"),
        ("/api/v1/declarations/activity?pageSize=501", "pageSize"),
        (
            "/api/v1/declarations/counts?fromDate=20240101&toDate=20261101",
            "toDate",
        ),
    ];
    for (uri, field) in cases {
        let answer = get(&pool, &operator, uri).await;
        assert_eq!(bad_field(&answer).as_deref(), Some(field), "{uri}");
    }
    let many = (0..501)
        .map(|i| format!("T{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let answer = get(
        &pool,
        &operator,
        &format!("/api/v1/declarations?trackingNumber={many}"),
    )
    .await;
    assert_eq!(bad_field(&answer).as_deref(), Some("trackingNumber"));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn customers_only_ever_see_their_own_company(pool: PgPool) -> TestResult {
    let f = fixture(&pool).await?;
    let acme = actor(Role::Customer, Some(f.acme));
    let globex = actor(Role::Customer, Some(f.globex));

    let own = get(&pool, &globex, "/api/v1/declarations").await;
    assert_eq!(trackings(&own), ["G3", "G2", "G1"]);
    // Asking for another company's rows still answers only one's own.
    let forced = get(
        &pool,
        &globex,
        &format!(
            "/api/v1/declarations?customerId={}&trackingNumber=A1,G1",
            f.acme
        ),
    )
    .await;
    assert_eq!(trackings(&forced), ["G1"]);
    assert_eq!(forced.json()["data"]["total"], json!(1));
    let by_username = get(&pool, &globex, "/api/v1/declarations?username=acme").await;
    assert_eq!(by_username.json()["data"]["total"], json!(0));

    // A foreign id is a 404, exactly like a missing one.
    let foreign = get(
        &pool,
        &acme,
        &format!("/api/v1/declarations/{}", f.id("G1")),
    )
    .await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
    assert_eq!(foreign.json()["code"], json!(404));
    let missing = get(
        &pool,
        &acme,
        &format!("/api/v1/declarations/{}", Uuid::new_v4()),
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    assert_eq!(foreign.json()["message"], missing.json()["message"]);
    let mine = get(
        &pool,
        &acme,
        &format!("/api/v1/declarations/{}", f.id("A1")),
    )
    .await;
    assert_eq!(mine.status, StatusCode::OK);

    let counts = get(&pool, &globex, "/api/v1/declarations/counts").await;
    let total: i64 = counts.json()["data"]["byStatus"]
        .as_array()
        .map(|rows| rows.iter().filter_map(|r| r["count"].as_i64()).sum())
        .unwrap_or_default();
    assert_eq!(total, 3);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn the_detail_shows_every_field_in_full_and_is_not_cached(pool: PgPool) -> TestResult {
    let f = fixture(&pool).await?;
    let acme = actor(Role::Customer, Some(f.acme));
    let answer = get(
        &pool,
        &acme,
        &format!("/api/v1/declarations/{}", f.id("A6")),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer
            .headers
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let d = &answer.json()["data"];
    assert_eq!(d["id"], json!(f.id("A6")));
    assert_eq!(d["version"], json!(3));
    assert_eq!(d["trackingNumber"], json!("A6"));
    assert_eq!(d["declarationType"], json!("IB"));
    assert_eq!(d["declarationClass"], json!("B"));
    assert_eq!(d["shipmentType"], json!(0));
    assert_eq!(d["status"], json!(2));
    assert_eq!(d["draftStatus"], json!(0));
    assert_eq!(d["customerId"], json!(f.acme));
    assert_eq!(d["username"], json!("acme"));
    assert_eq!(d["port"], json!("PVG"));
    assert_eq!(d["recipientIdNumber"], json!("110101199001011234"));
    assert_eq!(d["recipientPhone"], json!("13812345678"));
    assert_eq!(d["declarationGoodsInfo"][0]["goodsName"], json!("T-shirt"));
    assert_eq!(d["createdAt"], json!("2026-11-06T00:30:00+08:00"));

    let staff = actor(Role::Operator, None);
    let answer = get(
        &pool,
        &staff,
        &format!("/api/v1/declarations/{}", f.id("G2")),
    )
    .await;
    assert_eq!(answer.json()["data"]["trackingNumber"], json!("G2"));
    let malformed = get(&pool, &staff, "/api/v1/declarations/not-a-uuid").await;
    assert_eq!(malformed.status, StatusCode::NOT_FOUND);

    let anonymous = send(
        &pool,
        None,
        Request::builder()
            .uri("/api/v1/declarations")
            .body(Body::empty())?,
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(anonymous.json()["code"], json!(401));
    Ok(())
}

#[allow(clippy::too_many_arguments)]
async fn insert_history(
    pool: &PgPool,
    position: i64,
    declaration: Uuid,
    version: i64,
    customer: Uuid,
    action: &str,
    actor_name: &str,
    at: &str,
) -> Result<(), sqlx::Error> {
    let (from, to): (Option<i16>, Option<i16>) = match action {
        "create" => (None, Some(0)),
        "submit" => (Some(0), Some(1)),
        "review" => (Some(1), Some(2)),
        _ => (None, None),
    };
    let changes = if action == "edit" {
        json!([{"field": "port", "old": "PVG", "new": "CAN"}])
    } else {
        json!([])
    };
    sqlx::query(
        "INSERT INTO rm_declaration_history (position, declaration_id, version, recorded_at,
            actor_id, actor_name, actor_role, event_type, action, from_status, to_status,
            reason, receipt_code, changes, customer_id, tracking_number, declaration_type)
         VALUES ($1, $2, $3, $4::timestamptz, NULL, $5, 'OPERATOR', 'Declaration' || $6, $6,
            $7, $8, NULL, NULL, $9, $10, 'T-' || $2::text, 'OD')",
    )
    .bind(position)
    .bind(declaration)
    .bind(version)
    .bind(at)
    .bind(actor_name)
    .bind(action)
    .bind(from)
    .bind(to)
    .bind(changes)
    .bind(customer)
    .execute(pool)
    .await?;
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn history_and_activity_show_who_did_what(pool: PgPool) -> TestResult {
    let (acme, globex) = (Uuid::new_v4(), Uuid::new_v4());
    let (a, g) = (Uuid::new_v4(), Uuid::new_v4());
    insert_history(
        &pool,
        1,
        a,
        1,
        acme,
        "create",
        "acme",
        "2026-11-01T01:00:00Z",
    )
    .await?;
    insert_history(
        &pool,
        2,
        g,
        1,
        globex,
        "create",
        "globex",
        "2026-11-01T02:00:00Z",
    )
    .await?;
    insert_history(&pool, 3, a, 2, acme, "edit", "acme", "2026-11-01T03:00:00Z").await?;
    insert_history(
        &pool,
        4,
        a,
        3,
        acme,
        "submit",
        "acme",
        "2026-11-02T01:00:00Z",
    )
    .await?;
    insert_history(
        &pool,
        5,
        a,
        4,
        acme,
        "review",
        "operator",
        "2026-11-03T01:00:00Z",
    )
    .await?;

    let owner = actor(Role::Customer, Some(acme));
    let history = get(&pool, &owner, &format!("/api/v1/declarations/{a}/history")).await;
    assert_eq!(history.status, StatusCode::OK);
    let entries = history.json()["data"].clone();
    let versions: Vec<i64> = entries
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["version"].as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(versions, [1, 2, 3, 4]);
    assert_eq!(entries[1]["changes"][0]["new"], json!("CAN"));
    assert_eq!(entries[3]["actor"]["name"], json!("operator"));
    assert_eq!(entries[3]["actor"]["role"], json!("OPERATOR"));
    assert_eq!(entries[3]["fromStatus"], json!(1));
    assert_eq!(entries[3]["toStatus"], json!(2));
    assert_eq!(entries[3]["at"], json!("2026-11-03T09:00:00+08:00"));
    let foreign = get(&pool, &owner, &format!("/api/v1/declarations/{g}/history")).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);

    let staff = actor(Role::Admin, None);
    let feed = get(&pool, &staff, "/api/v1/declarations/activity").await;
    let positions: Vec<i64> = feed.json()["data"]["records"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x["position"].as_i64()).collect())
        .unwrap_or_default();
    assert_eq!(positions, [5, 4, 3, 2, 1]);
    assert_eq!(feed.json()["data"]["total"], json!(5));
    let first = &feed.json()["data"]["records"][0];
    assert_eq!(first["declarationId"], json!(a));
    assert_eq!(first["declarationType"], json!("OD"));
    assert_eq!(first["action"], json!("review"));

    let by_actor = get(
        &pool,
        &staff,
        "/api/v1/declarations/activity?actor=acme&pageSize=2",
    )
    .await;
    assert_eq!(by_actor.json()["data"]["total"], json!(3));
    assert_eq!(by_actor.json()["data"]["records"][0]["position"], json!(4));
    let by_action = get(&pool, &staff, "/api/v1/declarations/activity?action=create").await;
    assert_eq!(by_action.json()["data"]["total"], json!(2));
    let by_day = get(
        &pool,
        &staff,
        "/api/v1/declarations/activity?fromDate=20261102&toDate=20261102",
    )
    .await;
    assert_eq!(by_day.json()["data"]["total"], json!(1));
    let by_tracking = get(
        &pool,
        &staff,
        &format!("/api/v1/declarations/activity?trackingNumber=T-{g}"),
    )
    .await;
    assert_eq!(by_tracking.json()["data"]["total"], json!(1));

    let customer_feed = get(&pool, &owner, "/api/v1/declarations/activity").await;
    assert_eq!(customer_feed.json()["data"]["total"], json!(4));
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn counts_give_statuses_per_type_and_every_day_of_the_range(pool: PgPool) -> TestResult {
    fixture(&pool).await?;
    let staff = actor(Role::Operator, None);
    let answer = get(
        &pool,
        &staff,
        "/api/v1/declarations/counts?fromDate=20261101&toDate=20261107",
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let data = answer.json()["data"].clone();
    let per_day: Vec<(String, i64)> = data["perDay"]
        .as_array()
        .map(|d| {
            d.iter()
                .map(|x| {
                    (
                        x["date"].as_str().unwrap_or_default().to_string(),
                        x["count"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    // A4 (deleted) does not count per day; A6 is on the 6th in Shanghai.
    assert_eq!(
        per_day,
        [
            ("2026-11-01".to_string(), 1),
            ("2026-11-02".into(), 2),
            ("2026-11-03".into(), 2),
            ("2026-11-04".into(), 1),
            ("2026-11-05".into(), 1),
            ("2026-11-06".into(), 1),
            ("2026-11-07".into(), 1),
        ]
    );
    let od: Vec<(i64, i64)> = data["byStatus"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter(|r| r["declarationType"] == json!("OD"))
                .map(|r| {
                    (
                        r["status"].as_i64().unwrap_or_default(),
                        r["count"].as_i64().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(od, [(0, 1), (1, 2), (11, 1)]);

    let imports = get(&pool, &staff, "/api/v1/declarations/counts?shipmentType=0").await;
    let types: Vec<String> = imports.json()["data"]["byStatus"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .filter_map(|r| r["declarationType"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(types, ["IB", "IC", "ID"]);
    assert_eq!(
        imports.json()["data"]["perDay"].as_array().map(Vec::len),
        Some(30)
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn min_position_waits_for_the_checkpoint_and_then_answers(pool: PgPool) -> TestResult {
    fixture(&pool).await?;
    // No checkpoint yet: the projection has passed nothing.
    let reached = wait::wait_for_at_most(
        &pool,
        &["declaration_list"],
        Some(1),
        std::time::Duration::from_millis(50),
    )
    .await?;
    assert!(!reached);
    assert!(wait::wait_for(&pool, &["declaration_list"], None).await?);

    sqlx::query(
        "INSERT INTO projection_checkpoints (name, position) VALUES ('declaration_list', 7)",
    )
    .execute(&pool)
    .await?;
    // With no unapplied event at or below the position, it has passed.
    assert!(wait::passed(&pool, &["declaration_list"], 7).await?);
    let answer = get(
        &pool,
        &actor(Role::Operator, None),
        "/api/v1/declarations?minPosition=7&trackingNumber=A1",
    )
    .await;
    assert_eq!(trackings(&answer), ["A1"]);
    Ok(())
}

async fn export(pool: &PgPool, who: &Actor, content_type: &str, body: String) -> Answer {
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/declarations/batch-export")
        .header(header::CONTENT_TYPE, content_type)
        .body(Body::from(body))
        .expect("request");
    send(pool, Some(who), request).await
}

fn sheet_rows(bytes: &[u8]) -> Result<Vec<Vec<Data>>, Box<dyn std::error::Error>> {
    let mut workbook: Xlsx<_> = calamine::open_workbook_from_rs(Cursor::new(bytes.to_vec()))?;
    let name = workbook.sheet_names().first().cloned().ok_or("no sheet")?;
    let range = workbook.worksheet_range(&name)?;
    Ok(range.rows().map(|r| r.to_vec()).collect())
}

fn text(cell: &Data) -> String {
    match cell {
        Data::String(s) => s.clone(),
        Data::Empty => String::new(),
        other => other.to_string(),
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_export_is_a_real_xlsx_with_one_safe_row_per_declaration(pool: PgPool) -> TestResult {
    fixture(&pool).await?;
    let admin = actor(Role::Admin, None);
    let answer = export(
        &pool,
        &admin,
        "application/json",
        json!({
            "declarationType": "D", "shipmentType": "-1", "status": -1,
            "fromDate": "20261101", "toDate": "20261107", "sort": 2,
            "username": "", "port": null
        })
        .to_string(),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.json());
    let header_of = |name: header::HeaderName| {
        answer
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        header_of(header::CONTENT_TYPE),
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    assert_eq!(header_of(header::CACHE_CONTROL), "no-store");
    let disposition = header_of(header::CONTENT_DISPOSITION);
    assert!(
        disposition.starts_with("attachment; filename=\"declarations-D-")
            && disposition.contains(".xlsx\"; filename*=UTF-8''declarations-D-"),
        "{disposition}"
    );

    let rows = sheet_rows(&answer.bytes)?;
    assert_eq!(text(&rows[0][0]), "运单号");
    // Sort 2: by customer account, then newest first.
    let tracking: Vec<String> = rows[1..].iter().map(|r| text(&r[0])).collect();
    assert_eq!(tracking, ["A7", "A3", "A2", "A1", "G3", "G1"]);
    let a2 = &rows[3];
    assert_eq!(text(&a2[1]), "OD");
    assert_eq!(text(&a2[2]), "未处理");
    assert_eq!(text(&a2[4]), "acme");
    assert_eq!(text(&a2[13]), "'=HYPERLINK(\"http://x\")");
    // Export (OD): the shipper's ID number and phone, masked.
    assert_eq!(text(&a2[14]), "3101**********2345");
    assert_eq!(text(&a2[15]), "139****4321");
    assert_eq!(a2[10], Data::Float(2.0));
    assert_eq!(a2[11], Data::Float(120.5));
    // Import (ID): the recipient's.
    assert_eq!(text(&rows[2][14]), "1101**********1234");
    assert_eq!(text(&rows[2][16]), "2026-11-03 10:00:00");

    // Form-encoded, one type code and status, English.
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/declarations/batch-export")
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(header::ACCEPT_LANGUAGE, "en")
        .body(Body::from(
            "declarationType=OD&status=1&fromDate=20261101&toDate=20261130&sort=1&slic=2001",
        ))?;
    let answer = send(&pool, Some(&actor(Role::SuperAdmin, None)), request).await;
    assert_eq!(answer.status, StatusCode::OK);
    let rows = sheet_rows(&answer.bytes)?;
    assert_eq!(text(&rows[0][0]), "Tracking number");
    let tracking: Vec<String> = rows[1..].iter().map(|r| text(&r[0])).collect();
    assert_eq!(tracking, ["G1", "A2"]);
    assert_eq!(text(&rows[1][2]), "unprocessed");
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn the_export_is_for_admins_only_and_checks_its_form(pool: PgPool) -> TestResult {
    let form = json!({"fromDate": "20261101", "toDate": "20261107"}).to_string();
    for role in [Role::Operator, Role::Customer] {
        let answer = export(
            &pool,
            &actor(role, Some(Uuid::new_v4())),
            "application/json",
            form.clone(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::FORBIDDEN);
        assert_eq!(answer.json()["code"], json!(403));
    }
    let admin = actor(Role::Admin, None);
    let cases = [
        (json!({"fromDate": "20261101"}), "toDate"),
        (json!({"toDate": "20261101"}), "fromDate"),
        (
            json!({"fromDate": "20250101", "toDate": "20260102"}),
            "toDate",
        ),
        (
            json!({"fromDate": "2026-11-01", "toDate": "20261102"}),
            "fromDate",
        ),
        (
            json!({"fromDate": "20261101", "toDate": "20261102", "sort": 9}),
            "sort",
        ),
        (
            json!({"fromDate": "20261101", "toDate": "20261102", "status": "x"}),
            "status",
        ),
        (
            json!({"fromDate": "20261101", "toDate": "20261102", "declarationType": "OD", "shipmentType": 0}),
            "shipmentType",
        ),
    ];
    for (body, field) in cases {
        let answer = export(&pool, &admin, "application/json", body.to_string()).await;
        assert_eq!(bad_field(&answer).as_deref(), Some(field), "{body}");
        assert!(
            answer
                .headers
                .get(header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("application/json"))
        );
    }
    Ok(())
}

/// Export time and size for a large range of an existing database (a measurement, not a
/// check): `DECL_EXPORT_BENCH_URL=postgres://.../db cargo test --release -p query --test
/// declaration_queries -- --ignored --nocapture export_throughput`.
#[tokio::test]
#[ignore]
async fn export_throughput() -> TestResult {
    let Ok(url) = std::env::var("DECL_EXPORT_BENCH_URL") else {
        return Ok(());
    };
    let pool = PgPool::connect(&url).await?;
    let from = std::env::var("DECL_EXPORT_FROM").unwrap_or_else(|_| "20261001".into());
    let to = std::env::var("DECL_EXPORT_TO").unwrap_or_else(|_| "20261130".into());
    let form: reports::declaration_export::ExportForm = serde_json::from_value(json!({
        "declarationType": "D", "fromDate": from, "toDate": to, "sort": 3
    }))?;
    let request = form.check().map_err(|e| format!("{e:?}"))?;
    let path = std::env::temp_dir().join(format!("export-bench-{}.xlsx", Uuid::new_v4()));
    let started = std::time::Instant::now();
    let rows = reports::declaration_export::build(&pool, &request, api::Lang::Zh, &path)
        .await
        .map_err(|e| format!("{e:?}"))?;
    let secs = started.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path)?.len();
    std::fs::remove_file(&path)?;
    println!(
        "export: {rows} rows in {secs:.2} s ({:.0} rows/s), {:.1} MB",
        f64::from(rows) / secs,
        size as f64 / 1e6
    );
    Ok(())
}
