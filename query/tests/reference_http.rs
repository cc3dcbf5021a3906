//! `GET /api/v1/reference/{table}` against a real PostgreSQL with read-model rows written
//! directly (the projection has its own test in the projector crate).

use query::reference_rows as reference;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};
use sqlx::PgPool;
use tower::ServiceExt;

async fn insert_version(
    pool: &PgPool,
    table: &str,
    from: &str,
    etag: &str,
    rows: &[Value],
) -> Result<(), sqlx::Error> {
    let columns = json!(["code", "name", "nameEn"]);
    sqlx::query(
        "INSERT INTO rm_reference_versions
             (table_name, effective_from, etag, row_count, columns, source, position, imported_at)
         VALUES ($1, $2::date, $3, $4, $5, 'test', 1, now())",
    )
    .bind(table)
    .bind(from)
    .bind(etag)
    .bind(rows.len() as i32)
    .bind(&columns)
    .execute(pool)
    .await?;
    for (i, row) in rows.iter().enumerate() {
        sqlx::query(
            "INSERT INTO rm_reference_rows (table_name, effective_from, code, position, row)
             VALUES ($1, $2::date, $3, $4, $5)",
        )
        .bind(table)
        .bind(from)
        .bind(row["code"].as_str().unwrap_or_default())
        .bind(i as i32)
        .bind(row)
        .execute(pool)
        .await?;
    }
    Ok(())
}

async fn get(pool: &PgPool, uri: &str, headers: &[(&str, &str)]) -> Response {
    let app = reference::router()
        .with_state(pool.clone())
        .layer(axum::middleware::from_fn(api::context::request_context));
    let mut request = Request::builder().uri(uri);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let request = request.body(Body::empty()).unwrap_or_default();
    match app.oneshot(request).await {
        Ok(response) => response,
        Err(never) => match never {},
    }
}

async fn body(response: Response) -> String {
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn header_of(response: &Response, name: header::HeaderName) -> String {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

async fn seed(pool: &PgPool) -> Result<(), sqlx::Error> {
    // Keys inserted out of order on purpose: the answer must follow `columns`.
    insert_version(
        pool,
        "units",
        "2026-01-01",
        "aaaa",
        &[
            json!({"nameEn": "Kilogram", "name": "千克", "code": "035"}),
            json!({"nameEn": "Gram", "name": "克", "code": "036"}),
        ],
    )
    .await?;
    insert_version(
        pool,
        "units",
        "2026-06-01",
        "bbbb",
        &[json!({"code": "035", "name": "公斤", "nameEn": null})],
    )
    .await
}

#[sqlx::test(migrations = "../migrations")]
async fn rows_in_force_on_the_date(pool: PgPool) -> Result<(), sqlx::Error> {
    seed(&pool).await?;

    let response = get(&pool, "/api/v1/reference/units?date=20260301", &[]).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        header_of(&response, header::CACHE_CONTROL),
        "public, max-age=300"
    );
    let etag = header_of(&response, header::ETAG);
    assert_eq!(etag, "\"units-20260101-aaaa-zh\"");
    let text = body(response).await;
    assert!(
        text.contains(r#"[{"code":"035","name":"千克","nameEn":"Kilogram"},{"code":"036","#),
        "{text}"
    );
    let envelope: Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(envelope["code"], 200);

    let later: Value = serde_json::from_str(
        &body(get(&pool, "/api/v1/reference/units?date=20260601", &[]).await).await,
    )
    .unwrap_or_default();
    assert_eq!(
        later["data"],
        json!([{"code": "035", "name": "公斤", "nameEn": null}])
    );

    // Before the first version: an empty list, still cacheable.
    let early = get(&pool, "/api/v1/reference/units?date=20251231", &[]).await;
    assert_eq!(early.status(), StatusCode::OK);
    assert_eq!(header_of(&early, header::ETAG), "\"units-none-zh\"");
    let early: Value = serde_json::from_str(&body(early).await).unwrap_or_default();
    assert_eq!(early["data"], json!([]));

    // No date: today in Shanghai.
    assert_eq!(
        get(&pool, "/api/v1/reference/units", &[]).await.status(),
        StatusCode::OK
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn etag_and_not_modified(pool: PgPool) -> Result<(), sqlx::Error> {
    seed(&pool).await?;
    let first = get(&pool, "/api/v1/reference/units?date=20260301", &[]).await;
    let etag = header_of(&first, header::ETAG);

    let again = get(
        &pool,
        "/api/v1/reference/units?date=20260302",
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert_eq!(header_of(&again, header::ETAG), etag);
    assert!(body(again).await.is_empty());

    // Another version, or another language, is another representation.
    let newer = get(
        &pool,
        "/api/v1/reference/units?date=20260701",
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(newer.status(), StatusCode::OK);
    let english = get(
        &pool,
        "/api/v1/reference/units?date=20260301",
        &[("if-none-match", &etag), ("accept-language", "en")],
    )
    .await;
    assert_eq!(english.status(), StatusCode::OK);
    assert_eq!(
        header_of(&english, header::ETAG),
        "\"units-20260101-aaaa-en\""
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn unknown_table_and_bad_date(pool: PgPool) -> Result<(), sqlx::Error> {
    let missing = get(&pool, "/api/v1/reference/planets", &[]).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    let missing: Value = serde_json::from_str(&body(missing).await).unwrap_or_default();
    assert_eq!(missing["code"], 404);

    for bad in ["2026-03-01", "20260230", "x"] {
        let response = get(&pool, &format!("/api/v1/reference/units?date={bad}"), &[]).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
        let envelope: Value = serde_json::from_str(&body(response).await).unwrap_or_default();
        assert_eq!(envelope["data"][0]["field"], "date", "{bad}");
    }
    Ok(())
}

#[test]
fn every_api_table_is_listed() {
    // The 24 tables of docs/api.md "Reference data".
    assert_eq!(reference::TABLES.len(), 24);
    assert!(
        reference::TABLES.contains(&"exchange-rates")
            && reference::TABLES.contains(&"customs-offices")
            && reference::TABLES.contains(&"tariff")
            && reference::TABLES.contains(&"tax-rules")
            && reference::TABLES.contains(&"personal-articles")
    );
}
