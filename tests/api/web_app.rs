//! The web app served by `clearway serve` with no `CLEARWAY_WEB_DIR`: the embedded
//! `webapp/dist`, or, in a build without it, a 503 page saying the app was not built.

use crate::helpers::*;
use sqlx::PgPool;

/// Whether this build carries the app: rust-embed resolves `webapp/dist` against the
/// crate's manifest directory, the same place looked at here.
fn app_was_built() -> bool {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("webapp/dist/index.html")
        .exists()
}

#[sqlx::test(migrations = "./migrations")]
async fn an_app_route_serves_the_embedded_app_without_a_web_dir(pool: PgPool) {
    let cfg = config(&pool, clearway::config::Mode::Development);
    assert!(cfg.web_dir.is_none());
    let app = spawn_with(pool, cfg).await;
    let answer = app
        .client
        .get(app.url("/login-c"))
        .send()
        .await
        .expect("send");
    let status = answer.status().as_u16();
    let content_type = answer
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let text = answer.text().await.expect("text");
    assert!(content_type.starts_with("text/html"), "{content_type}");
    if app_was_built() {
        let index = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("webapp/dist/index.html"),
        )
        .expect("index.html");
        assert_eq!(status, 200);
        assert_eq!(text, index);
    } else {
        assert_eq!(status, 503);
        assert!(text.contains("web app was not built"), "{text}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn api_paths_never_fall_back_to_the_app_page(pool: PgPool) {
    let app = spawn(pool).await;
    let v = body(
        app.client
            .get(app.url("/api/v1/nothing-here"))
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(v["_status"], 404);
    assert_envelope(&v);
}
