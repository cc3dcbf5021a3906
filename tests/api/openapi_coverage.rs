//! Both directions between the router and the OpenAPI document: every route the server
//! mounts is documented, and every documented operation is mounted.
//!
//! What is mounted is read from the built router itself, not from a list kept by hand: axum's
//! router lists its path table in its `Debug` output, and the methods of each path are found
//! by asking it (a method the path does not have answers 405 from the method fallback,
//! before any guard or handler).

use crate::helpers::*;
use reqwest::Method;
use serde_json::Value;
use sqlx::PgPool;
use std::collections::BTreeSet;

const METHODS: &[&str] = &["get", "post", "put", "delete", "patch"];

/// Paths that serve the document itself and its page, not the API.
fn is_docs(path: &str) -> bool {
    path == "/api/openapi.json" || path == "/api/docs" || path.starts_with("/api/docs/")
}

/// Every path template in the router's path table (axum prints it as `RouteId(n): "path"`;
/// the fallback router's table, printed after it, is not a route).
fn mounted_paths(router: &axum::Router) -> BTreeSet<String> {
    let printed = format!("{router:?}");
    let printed = printed
        .split_once("fallback_router")
        .map_or(printed.as_str(), |(routes, _)| routes);
    let mut out = BTreeSet::new();
    for piece in printed.split("RouteId(").skip(1) {
        let Some(rest) = piece.split_once("): \"").map(|(_, r)| r) else {
            continue;
        };
        let Some((path, _)) = rest.split_once('"') else {
            continue;
        };
        if path.starts_with('/') && !path.contains("__private__axum") && !is_docs(path) {
            out.insert(path.to_string());
        }
    }
    out
}

/// A template with its parameters filled with values of the right shape.
fn fill(path: &str) -> String {
    path.split('/')
        .map(|segment| match segment {
            "{table}" => "countries",
            "{action}" => "submit",
            s if s.starts_with('{') => "0190a1b2-c3d4-7e5f-8a9b-0123456789ab",
            s => s,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether two templates name the same route: equal literal segments, a parameter on either
/// side matching any one segment (`/declarations/{id}/{action}` covers `/{id}/submit`).
fn same_route(a: &str, b: &str) -> bool {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    a.len() == b.len()
        && a.iter()
            .zip(&b)
            .all(|(x, y)| x == y || x.starts_with('{') || y.starts_with('{'))
}

fn documented(doc: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in item.as_object().expect("path item").keys() {
            if METHODS.contains(&method.as_str()) {
                out.push((method.clone(), path.clone()));
            }
        }
    }
    out
}

#[sqlx::test(migrations = "./migrations")]
async fn every_mounted_route_is_documented_and_every_documented_one_mounted(pool: PgPool) {
    let cfg = config(&pool, clearway::config::Mode::Development);
    let router = clearway::startup::router(&cfg, pool.clone())
        .await
        .expect("router");
    let paths = mounted_paths(&router);
    // The control: the table is really read (the health route and a command route are in it).
    assert!(paths.contains("/api/v1/health"), "{paths:?}");
    assert!(paths.contains("/api/v1/declarations/{id}"), "{paths:?}");

    let app = spawn_with(pool, cfg).await;
    let mut mounted = Vec::new();
    for path in &paths {
        for method in METHODS {
            let m = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
            let status = app
                .client
                .request(m, app.url(&fill(path)))
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .expect("send")
                .status()
                .as_u16();
            if status != 405 {
                mounted.push((method.to_string(), path.clone()));
            }
        }
    }
    // The control: a path mounted for GET only is found with GET only.
    assert!(mounted.contains(&("get".into(), "/api/v1/health".into())));
    assert!(!mounted.contains(&("delete".into(), "/api/v1/health".into())));

    let doc: Value = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .expect("send")
        .json()
        .await
        .expect("the document");
    let documented = documented(&doc);

    let undocumented: BTreeSet<(String, String)> = mounted
        .iter()
        .filter(|(m, p)| {
            !documented
                .iter()
                .any(|(dm, dp)| dm == m && same_route(p, dp))
        })
        .cloned()
        .collect();
    assert!(
        undocumented.is_empty(),
        "mounted but not documented: {undocumented:?}"
    );
    let unmounted: Vec<_> = documented
        .iter()
        .filter(|(m, p)| !mounted.iter().any(|(mm, mp)| mm == m && same_route(p, mp)))
        .collect();
    assert!(
        unmounted.is_empty(),
        "documented but not mounted: {unmounted:?}"
    );
}
