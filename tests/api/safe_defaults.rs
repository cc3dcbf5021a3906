//! Safe defaults (issue 16, findings 2 and 15): without `CLEARWAY_MODE` the server runs in
//! production, with no test login; the production seed never shows the first super
//! admin's password, it writes it to a file only its owner can read.

use std::os::unix::fs::PermissionsExt;

use crate::helpers::*;
use clap::{CommandFactory, FromArgMatches, Parser};
use clearway::config::{Config, Mode};
use clearway::seed::Bootstrap;
use sqlx::PgPool;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    config: Config,
}

/// The configuration as the binary parses it from these flags, ignoring any
/// `CLEARWAY_MODE` of the environment the tests run in (as if it were unset).
fn parsed(flags: &[&str]) -> Config {
    let command = Cli::command().mut_arg("mode", |a| a.env(None::<&str>));
    let matches = command
        .try_get_matches_from(flags.iter().copied())
        .expect("flags");
    Cli::from_arg_matches(&matches).expect("config").config
}

#[sqlx::test(migrations = "./migrations")]
async fn a_server_started_without_a_mode_has_no_test_login(pool: PgPool) {
    let mut cfg = parsed(&["clearway", "--database-url", "postgres://unused/x"]);
    assert_eq!(cfg.mode, Mode::Production);
    let test = config(&pool, cfg.mode);
    cfg.addr = test.addr;
    cfg.jwt_secret = test.jwt_secret;
    cfg.identity = test.identity;
    cfg.oidc = test.oidc;
    cfg.audit = test.audit;
    cfg.personal_data = test.personal_data;
    let app = spawn_with(pool, cfg).await;
    for user in ["superadmin", "acme"] {
        let r = app
            .client
            .get(app.url(&format!("/api/v1/oauth/token/test?userName={user}")))
            .send()
            .await
            .expect("send");
        assert_eq!(r.status().as_u16(), 404, "{user}");
    }
    // Development is there when asked for.
    let dev = parsed(&[
        "clearway",
        "--database-url",
        "postgres://unused/x",
        "--mode",
        "development",
    ]);
    assert_eq!(dev.mode, Mode::Development);
}

fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("clearway-{name}-{}", uuid::Uuid::now_v7().simple()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[sqlx::test(migrations = "./migrations")]
async fn the_first_super_admins_password_goes_to_an_owner_only_file_never_to_output(pool: PgPool) {
    let cfg = config(&pool, Mode::Production);
    let state = command_state(&pool, &cfg).await;
    let dir = scratch_dir("bootstrap");
    // A folder that does not exist yet, and a stale file from an earlier install beside it.
    let file = dir.join("secrets").join("bootstrap-password");
    std::fs::create_dir_all(dir.join("secrets")).expect("dir");
    std::fs::write(&file, "stale").expect("stale");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");

    let outcome = clearway::seed::bootstrap_first_admin(&state, "superadmin", None, &file)
        .await
        .expect("seed");
    assert_eq!(
        outcome,
        Bootstrap::WrittenTo {
            username: "superadmin".into(),
            file: file.clone()
        }
    );
    let meta = std::fs::metadata(&file).expect("file");
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    let password = std::fs::read_to_string(&file).expect("read");
    let password = password.trim().to_string();
    assert!(password.len() >= 10 && password != "stale");
    // What the seed prints names the file, not the password.
    let printed = outcome.to_string();
    assert!(printed.contains(&file.display().to_string()), "{printed}");
    assert!(!printed.contains(&password), "{printed}");

    // Seeding again creates nothing and leaves the file as it is.
    let again = clearway::seed::bootstrap_first_admin(&state, "superadmin", None, &file)
        .await
        .expect("again");
    assert_eq!(
        again,
        Bootstrap::Existing {
            username: "superadmin".into()
        }
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read").trim(),
        password
    );

    // The password in the file is the one-time password: the first sign-in must set a new one.
    let app = start(pool, cfg).await;
    let first = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "superadmin"), ("password", password.as_str())])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(first["code"], 10002, "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_given_bootstrap_password_is_used_and_nothing_is_written(pool: PgPool) {
    let cfg = config(&pool, Mode::Production);
    let state = command_state(&pool, &cfg).await;
    let dir = scratch_dir("given");
    let file = dir.join("bootstrap-password");
    let outcome = clearway::seed::bootstrap_first_admin(
        &state,
        "superadmin",
        Some("Bootstrap2026pw".into()),
        &file,
    )
    .await
    .expect("seed");
    assert_eq!(
        outcome,
        Bootstrap::GivenPassword {
            username: "superadmin".into()
        }
    );
    assert!(!outcome.to_string().contains("Bootstrap2026pw"));
    assert!(!file.exists());
    let app = start(pool, cfg).await;
    let first = body(
        app.client
            .post(app.url("/auth/login"))
            .form(&[("username", "superadmin"), ("password", "Bootstrap2026pw")])
            .send()
            .await
            .expect("send"),
    )
    .await;
    assert_eq!(first["code"], 10002, "{first}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every `<script>` of `html` loads a file and holds no code of its own.
fn no_inline_script(html: &str) -> bool {
    html.split("<script").skip(1).all(|rest| {
        let Some((tag, after)) = rest.split_once('>') else {
            return false;
        };
        let body = after.split("</script>").next().unwrap_or_default();
        tag.contains("src=") && body.trim().is_empty()
    })
}

async fn answer(
    app: &TestApp,
    path: &str,
    proto: Option<&str>,
) -> (reqwest::header::HeaderMap, String) {
    let mut request = app.client.get(app.url(path));
    if let Some(p) = proto {
        request = request.header("x-forwarded-proto", p);
    }
    let r = request.send().await.expect("send");
    let headers = r.headers().clone();
    (headers, r.text().await.expect("text"))
}

fn csp(headers: &reqwest::header::HeaderMap) -> &str {
    headers
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn every_answer_has_a_content_security_policy_and_no_hsts_over_plain_http(pool: PgPool) {
    use clearway::security_headers::{APP_POLICY, DOCS_POLICY};
    let app = spawn(pool).await;
    for path in ["/api/v1/health", "/login-c", "/api/v1/nothing-here"] {
        // Without a trusted proxy, a client's own X-Forwarded-Proto is not believed.
        let (headers, _) = answer(&app, path, Some("https")).await;
        assert_eq!(csp(&headers), APP_POLICY, "{path}");
        assert!(headers.get("strict-transport-security").is_none(), "{path}");
    }
    assert!(APP_POLICY.contains("script-src 'self';"));
    assert!(!APP_POLICY.contains("unsafe-eval"));

    // The Swagger UI page works under its own policy: no inline script, its scripts served.
    let (headers, html) = answer(&app, "/api/docs/", None).await;
    assert_eq!(csp(&headers), DOCS_POLICY);
    assert!(html.contains("swagger-ui"), "{html}");
    assert!(no_inline_script(&html), "{html}");
    for script in [
        "/api/docs/swagger-ui-bundle.js",
        "/api/docs/swagger-initializer.js",
    ] {
        let r = app
            .client
            .get(app.url(script))
            .send()
            .await
            .expect("script");
        assert_eq!(r.status(), 200, "{script}");
    }

    // The built web app (when this build carries it) has no inline script either.
    let index = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("webapp/dist/index.html");
    if let Ok(html) = std::fs::read_to_string(index) {
        assert!(no_inline_script(&html), "{html}");
    }
}

#[sqlx::test(migrations = "./migrations")]
async fn behind_a_trusted_proxy_that_says_https_the_answer_carries_hsts(pool: PgPool) {
    let mut cfg = config(&pool, Mode::Development);
    cfg.identity.trusted_proxies = 1;
    let app = spawn_with(pool, cfg).await;
    let (headers, _) = answer(&app, "/api/v1/health", Some("https")).await;
    assert_eq!(
        headers
            .get("strict-transport-security")
            .and_then(|v| v.to_str().ok()),
        Some(clearway::security_headers::HSTS)
    );
    let (headers, _) = answer(&app, "/api/v1/health", Some("http")).await;
    assert!(headers.get("strict-transport-security").is_none());
    let (headers, _) = answer(&app, "/api/v1/health", None).await;
    assert!(headers.get("strict-transport-security").is_none());
}

#[test]
fn an_inline_script_is_found() {
    assert!(no_inline_script(
        r#"<script type="module" src="/a.js"></script>"#
    ));
    assert!(!no_inline_script("<script>alert(1)</script>"));
    assert!(!no_inline_script(r#"<script src="/a.js">x()</script>"#));
}
