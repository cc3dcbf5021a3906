//! The OpenAPI document (`/api/openapi.json`) and the docs page (`/api/docs`): the document
//! parses and describes every endpoint, each documented operation reaches a real route (not
//! the router's "no such route" fallback), and the docs page loads its assets from the server.

use crate::helpers::*;
use reqwest::Method;
use serde_json::{Value, json};
use sqlx::PgPool;

/// Every operation the document must describe: docs/api.md and the mounted routes.
const ENDPOINTS: &[(&str, &str)] = &[
    ("post", "/auth/login"),
    ("post", "/auth/logout"),
    ("get", "/api/v1/oauth/token/test"),
    ("get", "/api/v1/customer/profile"),
    ("get", "/api/v1/staff/profile"),
    ("get", "/api/v1/user-permissions"),
    ("get", "/api/v1/session"),
    ("post", "/api/v1/account/password/change"),
    ("post", "/api/v1/declarations"),
    ("put", "/api/v1/declarations/{id}"),
    ("post", "/api/v1/declarations/{id}/submit"),
    ("post", "/api/v1/declarations/{id}/withdraw"),
    ("post", "/api/v1/declarations/{id}/review"),
    ("post", "/api/v1/declarations/{id}/return"),
    ("post", "/api/v1/declarations/{id}/complete"),
    ("post", "/api/v1/declarations/{id}/reject"),
    ("post", "/api/v1/declarations/{id}/redeclare"),
    ("post", "/api/v1/declarations/{id}/send-back"),
    ("post", "/api/v1/declarations/{id}/amend"),
    ("post", "/api/v1/declarations/{id}/delete"),
    ("get", "/api/v1/declarations"),
    ("get", "/api/v1/declarations/{id}"),
    ("get", "/api/v1/declarations/{id}/history"),
    ("get", "/api/v1/declarations/counts"),
    ("get", "/api/v1/declarations/activity"),
    ("post", "/api/v1/declarations/batch-export"),
    ("get", "/api/v1/reference/{table}"),
    ("get", "/api/v1/health"),
];

const SCHEMAS: &[&str] = &[
    "Envelope",
    "FieldError",
    "CommandAnswer",
    "DeclarationSummary",
    "Declaration",
    "GoodsLine",
    "HistoryEntry",
    "ActivityEntry",
    "Page",
];

const TAGS: &[&str] = &["auth", "declarations", "reference", "operations"];

const DUMMY_ID: &str = "0190a1b2-c3d4-7e5f-8a9b-0123456789ab";

/// A documented path with its parameters filled in.
fn fill(path: &str) -> String {
    path.replace("{id}", DUMMY_ID)
        .replace("{table}", "countries")
}

async fn document(app: &TestApp) -> Value {
    let r = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200);
    let content_type = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    r.json().await.expect("the document parses as JSON")
}

/// (method, path, operation) of every operation in the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("path item") {
            if ["get", "post", "put", "delete", "patch"].contains(&method.as_str()) {
                out.push((method.clone(), path.clone(), op.clone()));
            }
        }
    }
    out
}

fn has_param(op: &Value, location: &str, name: &str) -> bool {
    op["parameters"]
        .as_array()
        .is_some_and(|ps| ps.iter().any(|p| p["in"] == location && p["name"] == name))
}

/// Every `$ref` in `v`.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                if k == "$ref" {
                    out.push(x.as_str().unwrap_or("").to_string());
                } else {
                    refs(x, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn the_document_describes_every_endpoint(pool: PgPool) {
    let app = spawn(pool).await;
    let doc = document(&app).await;
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    let description = doc["info"]["description"].as_str().expect("description");
    for code in [
        "10000",
        "10002",
        "10003",
        "10004",
        "10005",
        "10006",
        "409",
        "Accept-Language",
    ] {
        assert!(description.contains(code), "the description names {code}");
    }

    for (method, path) in ENDPOINTS {
        let op = &doc["paths"][path][method];
        assert!(op.is_object(), "{method} {path} is documented");
        assert!(
            op["summary"].as_str().is_some_and(|s| !s.is_empty()),
            "{method} {path} has a summary"
        );
        let tags = op["tags"].as_array().expect("tags");
        assert!(
            !tags.is_empty()
                && tags
                    .iter()
                    .all(|t| TAGS.contains(&t.as_str().unwrap_or(""))),
            "{method} {path} tags {tags:?}"
        );
        assert!(
            op["responses"]["200"].is_object(),
            "{method} {path} documents its success"
        );
        for name in ["id", "table"] {
            if path.contains(&format!("{{{name}}}")) {
                assert!(
                    has_param(op, "path", name),
                    "{method} {path} declares {name}"
                );
            }
        }
        assert!(
            has_param(op, "header", "Accept-Language"),
            "{method} {path}"
        );
    }

    // Parameters, headers and bodies of docs/api.md.
    let paths = &doc["paths"];
    let list = &paths["/api/v1/declarations"]["get"];
    for name in [
        "declarationType",
        "status",
        "shipmentType",
        "trackingNumber",
        "username",
        "customerId",
        "port",
        "slic",
        "fromDate",
        "toDate",
        "sort",
        "pageNo",
        "pageSize",
        "minPosition",
    ] {
        assert!(has_param(list, "query", name), "list takes {name}");
    }
    for name in [
        "actor", "action", "pageNo", "pageSize", "fromDate", "toDate",
    ] {
        assert!(
            has_param(
                &paths["/api/v1/declarations/activity"]["get"],
                "query",
                name
            ),
            "activity takes {name}"
        );
    }
    assert!(has_param(
        &paths["/api/v1/reference/{table}"]["get"],
        "query",
        "date"
    ));
    assert!(has_param(
        &paths["/api/v1/oauth/token/test"]["get"],
        "query",
        "userName"
    ));
    assert!(has_param(
        &paths["/api/v1/declarations"]["post"],
        "header",
        "Idempotency-Key"
    ));
    assert!(has_param(
        &paths["/api/v1/declarations/{id}"]["put"],
        "header",
        "If-Match"
    ));
    assert!(has_param(
        &paths["/api/v1/declarations/{id}/submit"]["post"],
        "header",
        "If-Match"
    ));
    let login = &paths["/auth/login"]["post"]["requestBody"]["content"];
    assert!(login["application/x-www-form-urlencoded"].is_object());
    assert!(login["application/json"].is_object());
    assert!(
        paths["/api/v1/declarations/{id}/return"]["post"]["requestBody"].is_object(),
        "return has a body"
    );

    // Security: the bearer scheme, required where a token is needed, not on login.
    let scheme = &doc["components"]["securitySchemes"]["bearer"];
    assert_eq!(scheme["type"], "http");
    assert_eq!(scheme["scheme"], "bearer");
    assert!(paths["/api/v1/session"]["get"]["security"].is_array());
    assert!(paths["/auth/login"]["post"]["security"].is_null());
    assert!(paths["/api/v1/reference/{table}"]["get"]["security"].is_null());

    // Components: the envelope with its five keys, the named schemas, and every $ref resolves.
    let schemas = &doc["components"]["schemas"];
    for name in SCHEMAS {
        assert!(schemas[name].is_object(), "schema {name}");
    }
    for key in ["code", "message", "data", "refreshed", "accessToken"] {
        assert!(schemas["Envelope"]["properties"][key].is_object(), "{key}");
    }
    for key in ["id", "version", "position"] {
        assert!(schemas["CommandAnswer"]["properties"][key].is_object());
    }
    for key in ["userId", "role", "roles", "customerId", "easyClearIdLogin"] {
        assert!(
            schemas["Session"]["properties"][key].is_object(),
            "Session.{key}"
        );
    }
    for key in [
        "id",
        "version",
        "status",
        "trackingNumber",
        "grossWeight",
        "distinatePort",
        "declarationGoodsInfo",
    ] {
        assert!(
            schemas["Declaration"]["properties"][key].is_object(),
            "Declaration.{key}"
        );
    }
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(!all.is_empty());
    for r in all {
        let target = r
            .trim_start_matches("#/")
            .split('/')
            .fold(&doc, |v, k| &v[k]);
        assert!(target.is_object(), "{r} resolves");
    }
    for status in ["400", "401", "404", "409"] {
        let found = operations(&doc)
            .iter()
            .any(|(_, _, op)| op["responses"][status].is_object());
        assert!(found, "some operation documents {status}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn every_documented_operation_reaches_a_route(pool: PgPool) {
    let app = spawn(pool).await;
    let doc = document(&app).await;
    let ops = operations(&doc);
    assert!(ops.len() >= ENDPOINTS.len());

    // The controls: the fallback answers 404, a known path with another method 405.
    let missing = app
        .client
        .get(app.url("/api/v1/no-such-route"))
        .send()
        .await
        .expect("send");
    assert_eq!(missing.status().as_u16(), 404);
    let wrong_method = app
        .client
        .delete(app.url("/api/v1/declarations"))
        .send()
        .await
        .expect("send");
    assert_eq!(wrong_method.status().as_u16(), 405);

    // Without a token. A secured operation must answer 401, which only a route's handler says
    // (the fallback says 404); a public one neither 404 nor 405.
    for (method, path, op) in &ops {
        let secured = op["security"].as_array().is_some_and(|s| !s.is_empty());
        let m = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        let mut request = app.client.request(m.clone(), app.url(&fill(path)));
        if m != Method::GET {
            request = request.json(&json!({}));
        }
        let r = request.send().await.expect("send");
        let status = r.status().as_u16();
        if secured {
            assert_eq!(status, 401, "{method} {path} without a token");
            assert_envelope(&body(r).await);
        } else {
            assert!(
                status != 404 && status != 405,
                "{method} {path} answered {status}"
            );
        }
    }

    // With a token and a real declaration of the caller's, no operation answers 404 or 405:
    // a path that exists only in the document (a misspelled action, say) would be a 404. The
    // queries go first, the moves next (one of them deletes), logout last.
    let token = app.login("acme").await;
    let created = body(
        app.post(
            &token,
            "/api/v1/declarations",
            json!({"declarationType": "OC", "trackingNumber": "OPENAPI-ROUTES-0001"}),
        )
        .await,
    )
    .await;
    assert_eq!(created["code"], 200, "{created}");
    let id = created["data"]["id"].as_str().expect("id").to_string();
    let position = created["data"]["position"].as_i64().expect("position");
    // The upload routes' `{id}` is an upload's file id.
    let upload = crate::upload::upload_and_wait(&app, &token).await;
    let ai_draft = crate::ai_draft::proposed(&app, &token).await;
    // The clearance exception routes take an exception (and a document of it) for `{id}`.
    let (exception, document, exception_position) =
        crate::clearance_exception::exception_with_document(&app, &token, "1ZEXCDOC01P0000007")
            .await;
    // The master data routes take an id of their own kind: one record of each, the caller's.
    let mut own_ids: Vec<(&str, String)> = Vec::new();
    let mut last = position;
    for (prefix, record) in [
        (
            "/api/v1/trade-companies/",
            json!({"companyNameCn": "某公司", "uscc": "91440300MA5FHK4H1F"}),
        ),
        (
            "/api/v1/products/",
            json!({"descriptionCn": "手机", "hsCode": "8517130000", "declaredUnit": "011"}),
        ),
        (
            "/api/v1/mapping-schemes/",
            json!({"name": "x", "columns": [{"field": "trackingNumber", "header": "A"}]}),
        ),
    ] {
        let r = body(app.post(&token, prefix.trim_end_matches('/'), record).await).await;
        assert_eq!(r["code"], 200, "{prefix}: {r}");
        own_ids.push((prefix, r["data"]["id"].as_str().expect("id").to_string()));
        last = last.max(r["data"]["position"].as_i64().expect("position"));
    }
    let position = position.max(last).max(exception_position);
    // Each record is in its read model before the loop (minPosition waits 2 s at most,
    // which a loaded machine can exceed).
    for (prefix, own) in &own_ids {
        for _ in 0..300 {
            let path = format!("{prefix}{own}");
            if app.get(&token, &path).await.status() == 200 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    }
    let acme_customer = clearway::seed::customer_id("acme").to_string();
    let mut ordered = ops.clone();
    // Deletes go after the other moves: a deleted master data record is gone (404).
    ordered.sort_by_key(|(m, p, _)| (m != "get", p == "/auth/logout", m == "delete"));
    for (method, path, _) in &ordered {
        let m = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
        let id = own_ids
            .iter()
            .find(|(prefix, _)| path.starts_with(prefix))
            .map(|(_, own)| own.as_str())
            .unwrap_or(&id);
        let target = if path.starts_with("/api/v1/upload/") {
            &upload
        } else if path.starts_with("/api/v1/clearance-exceptions/{id}") {
            &exception
        } else if path.starts_with("/api/v1/customers/{id}/contacts") {
            &acme_customer
        } else if path.starts_with("/api/v1/ai-drafts/{id}") {
            &ai_draft
        } else {
            id
        };
        let mut url = app.url(
            &path
                .replace("{id}", target)
                .replace("{documentId}", &document)
                .replace("{table}", "countries"),
        );
        if m == Method::GET && path.contains("{id}") {
            url.push_str(&format!("?minPosition={position}"));
        }
        let mut request = app.client.request(m.clone(), url).bearer_auth(&token);
        if m != Method::GET {
            request = request.json(&json!({}));
        }
        let status = request.send().await.expect("send").status().as_u16();
        assert!(
            status != 404 && status != 405,
            "{method} {path} with a token answered {status}"
        );
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn the_docs_page_is_served_with_its_assets(pool: PgPool) {
    let app = spawn(pool).await;
    // `/api/docs` redirects to `/api/docs/`, the page.
    let r = app
        .client
        .get(app.url("/api/docs"))
        .send()
        .await
        .expect("send");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(r.url().path(), "/api/docs/");
    let content_type = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(content_type.starts_with("text/html"), "{content_type}");
    let html = r.text().await.expect("html");
    assert!(html.contains("swagger-ui"), "{html}");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "the page loads nothing from elsewhere: {html}"
    );

    // Every asset the page references loads from the server.
    let mut assets = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for piece in html.split(attr).skip(1) {
            let value = piece.split('"').next().unwrap_or("");
            assets.push(value.trim_start_matches("./").to_string());
        }
    }
    assert!(
        assets.iter().any(|a| a == "swagger-ui-bundle.js"),
        "{assets:?}"
    );
    assert!(assets.iter().any(|a| a == "swagger-ui.css"), "{assets:?}");
    for asset in &assets {
        let r = app
            .client
            .get(app.url(&format!("/api/docs/{asset}")))
            .send()
            .await
            .expect("send");
        assert_eq!(r.status().as_u16(), 200, "{asset}");
        assert!(!r.bytes().await.expect("bytes").is_empty(), "{asset}");
    }
    let bundle = app
        .client
        .get(app.url("/api/docs/swagger-ui-bundle.js"))
        .send()
        .await
        .expect("send");
    let content_type = bundle
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    assert!(content_type.contains("javascript"), "{content_type}");
    assert!(bundle.bytes().await.expect("bytes").len() > 100_000);

    // The page is configured with our document and no online validator.
    let init = app
        .client
        .get(app.url("/api/docs/swagger-initializer.js"))
        .send()
        .await
        .expect("send")
        .text()
        .await
        .expect("text");
    assert!(init.contains("/api/openapi.json"), "{init}");
    assert!(init.contains("\"validatorUrl\": \"none\""), "{init}");
    assert!(!init.contains("{{config}}"), "{init}");
}

/// The web app's wire types are generated from the server's document: the test keeps a copy
/// of the document in `webapp/src/shared/api/openapi.json` (from which `npm run gen:api`
/// renders `schema.generated.ts`, and the web app's own test checks that rendering), and
/// fails when the copy differs from what the server serves; `UPDATE_GENERATED=1` rewrites it.
#[sqlx::test(migrations = "./migrations")]
async fn the_web_apps_copy_of_the_document_is_the_one_the_server_serves(pool: PgPool) {
    let app = spawn(pool).await;
    let doc = document(&app).await;
    let rendered = serde_json::to_string_pretty(&doc).expect("render") + "\n";
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("webapp/src/shared/api/openapi.json");
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().expect("folder")).expect("create the folder");
        std::fs::write(&path, &rendered).expect("write the document");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "{} is not the document the server serves; run \
         `UPDATE_GENERATED=1 cargo test -p clearway --test api openapi::the_web_apps_copy` \
         then `npm run gen:api` in webapp/, and commit both",
        path.display()
    );
}
