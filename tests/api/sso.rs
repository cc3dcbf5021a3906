//! Staff single sign-on, end to end against a real OpenID Connect provider on loopback
//! (`tests/oidc/provider.mjs`, npm `oidc-provider`): discovery, JWKS, code + PKCE + nonce,
//! and the refusals (state, verifier, reused code, nonce, audience, expiry, signature,
//! unknown staff, a second identity for a linked account).
//!
//! Needs `npm ci` in tests/oidc (scripts/test.sh runs it). Without node_modules these tests
//! fail, unless CLEARWAY_SKIP_OIDC_TESTS=1.

use std::path::PathBuf;
use std::time::Duration;

use crate::helpers::*;
use clearway::config::{Mode, OidcConfig};
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use reqwest::{Client, StatusCode, Url};
use serde_json::{Value, json};
use sqlx::PgPool;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// Redirect URIs registered at the test provider; nothing listens there: the test reads the
/// provider's redirect instead of following it.
const CALLBACK: &str = "http://127.0.0.1:1/cb";
const AZURE_CALLBACK: &str = "http://127.0.0.1:1/azure-cb";
const PASSWORD: &str = "secret-PASSWORD";

struct Provider {
    issuer: String,
    http: Client,
    _child: Child,
}

impl Provider {
    /// Start a provider (its own process, its own port); None when the tests are skipped.
    async fn start(args: &[&str]) -> Option<Provider> {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oidc");
        if !dir.join("node_modules/oidc-provider").is_dir() {
            if std::env::var("CLEARWAY_SKIP_OIDC_TESTS").as_deref() == Ok("1") {
                eprintln!("skipped: CLEARWAY_SKIP_OIDC_TESTS=1 and tests/oidc has no node_modules");
                return None;
            }
            panic!(
                "tests/oidc/node_modules is missing: run `npm ci` in tests/oidc (scripts/test.sh \
                 does), or set CLEARWAY_SKIP_OIDC_TESTS=1 to skip the single sign-on tests"
            );
        }
        let mut child = Command::new("node")
            .arg("provider.mjs")
            .arg("0")
            .args(args)
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs tests/oidc/provider.mjs");
        let stdout = child.stdout.take().expect("stdout");
        let mut lines = BufReader::new(stdout).lines();
        // Node loads oidc-provider and makes two 2048-bit RSA keys before it listens: about a
        // second on an idle machine, but once more than 30 s while CI's other suites ran.
        let line = tokio::time::timeout(Duration::from_secs(120), lines.next_line())
            .await
            .expect("the provider starts within 120 s")
            .expect("read stdout")
            .expect("a first line");
        let issuer = line
            .strip_prefix("listening ")
            .unwrap_or_else(|| panic!("unexpected provider output: {line}"))
            .to_string();
        let http = Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let discovery = format!("{issuer}/.well-known/openid-configuration");
        for _ in 0..100 {
            if let Ok(r) = http.get(&discovery).send().await
                && r.status() == StatusCode::OK
            {
                return Some(Provider {
                    issuer,
                    http,
                    _child: child,
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the provider's discovery document did not answer");
    }

    /// Make the provider re-sign the ID tokens it issues from now on (see provider.mjs).
    async fn tamper(&self, mode: &str) {
        let r = self
            .http
            .post(format!("{}/__test/tamper", self.issuer))
            .form(&[("mode", mode)])
            .send()
            .await
            .expect("tamper");
        assert_eq!(r.status(), StatusCode::OK);
    }

    /// Play the browser at the provider: follow its redirects, sign in as `login`, and
    /// answer the redirect back to our redirect URI (not followed).
    async fn sign_in(&self, authorization_url: &str, login: &str) -> Url {
        let mut cookies: Vec<(String, String)> = Vec::new();
        let mut url = Url::parse(authorization_url).expect("authorization URL");
        let mut form: Option<Vec<(&str, &str)>> = None;
        for _ in 0..12 {
            let cookie_header = cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("; ");
            let request = match form.take() {
                Some(fields) => self.http.post(url.clone()).form(&fields),
                None => self.http.get(url.clone()),
            };
            let response = request
                .header(COOKIE, cookie_header)
                .send()
                .await
                .expect("provider request");
            for set in response.headers().get_all(SET_COOKIE) {
                let set = set.to_str().expect("cookie");
                let pair = set.split(';').next().unwrap_or_default();
                if let Some((name, value)) = pair.split_once('=') {
                    cookies.retain(|(n, _)| n != name);
                    if !value.is_empty() {
                        cookies.push((name.to_string(), value.to_string()));
                    }
                }
            }
            let status = response.status();
            if status.is_redirection() {
                let location = response
                    .headers()
                    .get(LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .expect("Location");
                let next = url.join(location).expect("redirect URL");
                if next.as_str().starts_with("http://127.0.0.1:1/") {
                    return next;
                }
                url = next;
                continue;
            }
            let page = response.text().await.unwrap_or_default();
            assert_eq!(status, StatusCode::OK, "provider answered {status}: {page}");
            let action = page
                .split("action=\"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("no login form: {page}"));
            assert!(
                !page.contains("wrong login or password"),
                "the provider refused the login {login}"
            );
            url = url.join(action).expect("form action");
            form = Some(vec![("login", login), ("password", PASSWORD)]);
        }
        panic!("the provider did not redirect back");
    }
}

/// A server whose single sign-on points at `provider` with `client_id`.
async fn server(
    pool: PgPool,
    provider: &Provider,
    client_id: &str,
    secret: Option<&str>,
) -> TestApp {
    let mut cfg = config(&pool, Mode::Production);
    cfg.oidc = OidcConfig {
        oidc_issuer: Some(provider.issuer.clone()),
        oidc_client_id: Some(client_id.into()),
        oidc_client_secret: secret.map(str::to_string),
        oidc_redirect_url: vec![CALLBACK.into(), AZURE_CALLBACK.into()],
        oidc_post_logout_redirect_url: None,
        oidc_scopes: Some("openid email profile".into()),
    };
    spawn_with(pool, cfg).await
}

async fn clearway_server(pool: PgPool, provider: &Provider) -> TestApp {
    server(pool, provider, "clearway", Some("clearway-test-secret")).await
}

struct Started {
    authorization_url: String,
    state: String,
    verifier: String,
}

async fn start(app: &TestApp, redirect: Option<&str>) -> Started {
    let body_json = match redirect {
        Some(r) => json!({ "redirectUri": r }),
        None => json!({}),
    };
    let r = body(
        app.client
            .post(app.url("/api/v1/sso/start"))
            .json(&body_json)
            .send()
            .await
            .expect("start"),
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    Started {
        authorization_url: r["data"]["authorizationUrl"].as_str().expect("url").into(),
        state: r["data"]["state"].as_str().expect("state").into(),
        verifier: r["data"]["codeVerifier"].as_str().expect("verifier").into(),
    }
}

fn param(url: &Url, name: &str) -> String {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .unwrap_or_else(|| panic!("{url} has no {name}"))
}

async fn callback(app: &TestApp, code: &str, state: &str, verifier: &str) -> Value {
    body(
        app.client
            .post(app.url("/api/v1/sso/callback"))
            .json(&json!({"code": code, "state": state, "codeVerifier": verifier}))
            .send()
            .await
            .expect("callback"),
    )
    .await
}

/// Start, sign in at the provider as `login`, post the code back: our answer.
async fn sign_in(app: &TestApp, provider: &Provider, login: &str) -> Value {
    let started = start(app, None).await;
    let back = provider.sign_in(&started.authorization_url, login).await;
    assert_eq!(param(&back, "state"), started.state);
    callback(
        app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await
}

fn assert_refused(answer: &Value, reason: &str) {
    assert_eq!(answer["code"], 10000, "{answer}");
    assert_eq!(answer["data"]["reason"], reason, "{answer}");
    assert!(answer["message"].as_str().is_some_and(|m| !m.is_empty()));
}

#[sqlx::test(migrations = "./migrations")]
async fn single_sign_on_is_off_without_an_issuer(pool: PgPool) {
    let app = spawn(pool).await;
    let config = body(
        app.client
            .get(app.url("/api/v1/sso/config"))
            .send()
            .await
            .expect("config"),
    )
    .await;
    assert_eq!(config["code"], 200);
    assert_eq!(config["data"]["enabled"], false);
    let start = body(
        app.client
            .post(app.url("/api/v1/sso/start"))
            .send()
            .await
            .expect("start"),
    )
    .await;
    assert_eq!(start["_status"], 404);
}

#[sqlx::test(migrations = "./migrations")]
async fn a_staff_member_signs_in_with_our_role_and_logs_out_at_the_provider(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let config = body(
        app.client
            .get(app.url("/api/v1/sso/config"))
            .send()
            .await
            .expect("config"),
    )
    .await;
    assert_eq!(config["data"]["enabled"], true, "{config}");
    assert_eq!(config["data"]["startUrl"], "/api/v1/sso/start");

    let started = start(&app, None).await;
    let auth_url = Url::parse(&started.authorization_url).expect("url");
    assert!(
        started
            .authorization_url
            .starts_with(&format!("{}/auth?", provider.issuer))
    );
    assert_eq!(param(&auth_url, "code_challenge_method"), "S256");
    assert_eq!(param(&auth_url, "response_type"), "code");
    assert_eq!(param(&auth_url, "client_id"), "clearway");
    assert_eq!(param(&auth_url, "redirect_uri"), CALLBACK);
    assert!(param(&auth_url, "nonce").len() >= 16);
    assert!(param(&auth_url, "scope").split(' ').any(|s| s == "openid"));
    assert!(
        !started.authorization_url.contains(&started.verifier),
        "the PKCE verifier never travels in the URL"
    );
    let back = provider
        .sign_in(&started.authorization_url, "operator")
        .await;
    assert_eq!(param(&back, "state"), started.state);
    let answer = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_eq!(answer["code"], 200, "{answer}");
    let token = answer["data"].as_str().expect("our token").to_string();

    // Our session, with the role from our grants: the provider's groups say SUPER_ADMIN.
    let session = body(app.get(&token, "/api/v1/session").await).await;
    assert_eq!(session["data"]["role"], "OPERATOR", "{session}");
    assert_eq!(session["data"]["username"], "operator");

    // Linked now: the next sign-in (here through /azure-redirect) is the same account.
    let started = start(&app, Some(AZURE_CALLBACK)).await;
    let back = provider
        .sign_in(&started.authorization_url, "operator")
        .await;
    assert!(back.as_str().starts_with(AZURE_CALLBACK));
    let again = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_eq!(again["code"], 200, "{again}");

    // E-mail matching ignores case (the provider says Admin@Clearway.Example.com).
    let admin = sign_in(&app, &provider, "admin").await;
    assert_eq!(admin["code"], 200, "{admin}");
    let session = body(
        app.get(admin["data"].as_str().expect("token"), "/api/v1/session")
            .await,
    )
    .await;
    assert_eq!(session["data"]["role"], "ADMIN");

    // Logout goes through the provider's end-session endpoint with our ID token as hint.
    let logout = body(app.get(&token, "/api/v1/sso/logout-url").await).await;
    assert_eq!(logout["code"], 200, "{logout}");
    let url = Url::parse(logout["data"]["logoutUrl"].as_str().expect("logout URL")).expect("url");
    assert!(
        url.as_str()
            .starts_with(&format!("{}/session/end?", provider.issuer))
    );
    assert_eq!(
        param(&url, "post_logout_redirect_uri"),
        "http://127.0.0.1:1/login-b"
    );
    assert_eq!(param(&url, "client_id"), "clearway");
    assert_eq!(param(&url, "id_token_hint").split('.').count(), 3);
    let page = provider.http.get(url).send().await.expect("end session");
    assert_eq!(
        page.status(),
        StatusCode::OK,
        "the provider accepts the logout request"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn state_verifier_and_code_are_single_use_and_checked(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;

    // An unregistered redirect URI is refused before anything starts.
    let bad = body(
        app.client
            .post(app.url("/api/v1/sso/start"))
            .json(&json!({"redirectUri": "https://evil.example.com/cb"}))
            .send()
            .await
            .expect("start"),
    )
    .await;
    assert_eq!(bad["_status"], 400, "{bad}");

    // Unknown state.
    let verifier = "v".repeat(50);
    let unknown = callback(&app, "some-code", "not-a-state-we-issued", &verifier).await;
    assert_refused(&unknown, "STATE_UNKNOWN");

    // A successful sign-in, then the same callback again (replay): the state is spent.
    let started = start(&app, None).await;
    let back = provider
        .sign_in(&started.authorization_url, "operator")
        .await;
    let code = param(&back, "code");
    let first = callback(&app, &code, &started.state, &started.verifier).await;
    assert_eq!(first["code"], 200, "{first}");
    let replay = callback(&app, &code, &started.state, &started.verifier).await;
    assert_refused(&replay, "STATE_UNKNOWN");

    // The used code with a fresh state and verifier: the provider refuses it.
    let fresh = start(&app, None).await;
    let reused = callback(&app, &code, &fresh.state, &fresh.verifier).await;
    assert_refused(&reused, "CODE_REJECTED");

    // A verifier that is not the one of this state: refused, and the state is spent.
    let started = start(&app, None).await;
    let back = provider
        .sign_in(&started.authorization_url, "operator")
        .await;
    let wrong = callback(&app, &param(&back, "code"), &started.state, &"w".repeat(43)).await;
    assert_refused(&wrong, "VERIFIER_MISMATCH");
    let retry = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_refused(&retry, "STATE_UNKNOWN");

    // A sign-in that took more than 10 minutes.
    let started = start(&app, None).await;
    let back = provider
        .sign_in(&started.authorization_url, "operator")
        .await;
    sqlx::query(
        "UPDATE sso_pending SET created_at = now() - interval '11 minutes' WHERE state = $1",
    )
    .bind(&started.state)
    .execute(&app.pool)
    .await
    .expect("age the sign-in");
    let late = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_refused(&late, "STATE_EXPIRED");

    // Malformed input is a 400 naming the field.
    let missing = body(
        app.client
            .post(app.url("/api/v1/sso/callback"))
            .json(&json!({"state": "x", "codeVerifier": verifier}))
            .send()
            .await
            .expect("callback"),
    )
    .await;
    assert_eq!(missing["_status"], 400);
    assert_eq!(missing["data"][0]["field"], "code", "{missing}");
    let short = callback(&app, "c", "x", "too-short").await;
    assert_eq!(short["_status"], 400);
    assert_eq!(short["data"][0]["field"], "codeVerifier", "{short}");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_nonce_changed_on_the_way_is_refused(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let started = start(&app, None).await;
    let mut url = Url::parse(&started.authorization_url).expect("url");
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| {
            let v = if k == "nonce" {
                "attacker-chosen-nonce".into()
            } else {
                v.into_owned()
            };
            (k.into_owned(), v)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    let back = provider.sign_in(url.as_str(), "operator").await;
    let answer = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_refused(&answer, "TOKEN_NONCE");
}

#[sqlx::test(migrations = "./migrations")]
async fn tokens_for_another_audience_are_refused(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;

    // A code issued to another application at the same provider: the exchange fails.
    let started = start(&app, None).await;
    let mut url = Url::parse(&started.authorization_url).expect("url");
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(k, v)| {
            let v = if k == "client_id" {
                "other-app".into()
            } else {
                v.into_owned()
            };
            (k.into_owned(), v)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    let back = provider.sign_in(url.as_str(), "operator").await;
    let answer = callback(
        &app,
        &param(&back, "code"),
        &started.state,
        &started.verifier,
    )
    .await;
    assert_refused(&answer, "CODE_REJECTED");

    // An ID token the provider signed (real key) for the other application's audience.
    provider.tamper("audience").await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_refused(&answer, "TOKEN_AUDIENCE");
    provider.tamper("off").await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_eq!(answer["code"], 200, "{answer}");
}

#[sqlx::test(migrations = "./migrations")]
async fn server_expecting_another_client_refuses_the_providers_tokens(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    // Our server is the public client `clearway-public`; the provider's tokens for it pass,
    // and tokens it signs for `other-app` do not.
    let app = server(pool, &provider, "clearway-public", None).await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_eq!(
        answer["code"], 200,
        "a public client signs in with PKCE alone: {answer}"
    );
    provider.tamper("audience").await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_refused(&answer, "TOKEN_AUDIENCE");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_expired_id_token_is_refused(pool: PgPool) {
    // The provider's clock is an hour behind: its ID tokens (10 minutes) expired long ago.
    let Some(provider) = Provider::start(&["--clock-offset=-3600"]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_refused(&answer, "TOKEN_EXPIRED");
}

#[sqlx::test(migrations = "./migrations")]
async fn an_id_token_from_the_future_is_refused(pool: PgPool) {
    // The provider's clock is an hour ahead: its tokens are issued in our future.
    let Some(provider) = Provider::start(&["--clock-offset=3600"]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_refused(&answer, "TOKEN_ISSUED_AT");
}

#[sqlx::test(migrations = "./migrations")]
async fn signatures_outside_the_jwks_are_refused(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    for mode in ["foreign-key", "none", "hs256"] {
        provider.tamper(mode).await;
        let answer = sign_in(&app, &provider, "operator").await;
        assert_eq!(answer["code"], 10000, "{mode}: {answer}");
        assert!(
            answer["data"]["reason"]
                .as_str()
                .is_some_and(|r| r.starts_with("TOKEN_")),
            "{mode}: {answer}"
        );
    }
    provider.tamper("off").await;
    let answer = sign_in(&app, &provider, "operator").await;
    assert_eq!(answer["code"], 200, "{answer}");
}

#[sqlx::test(migrations = "./migrations")]
async fn unknown_customer_and_unverified_identities_are_refused(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    assert_refused(&sign_in(&app, &provider, "unknown").await, "UNKNOWN_STAFF");
    // acme@example.com is a customer user: customers never use staff sign-on.
    assert_refused(&sign_in(&app, &provider, "acme").await, "UNKNOWN_STAFF");
    assert_refused(
        &sign_in(&app, &provider, "unverified").await,
        "EMAIL_UNVERIFIED",
    );
    let links: i64 = sqlx::query_scalar("SELECT count(*) FROM sso_links")
        .fetch_one(&app.pool)
        .await
        .expect("links");
    assert_eq!(links, 0, "refused sign-ins link nothing");
}

#[sqlx::test(migrations = "./migrations")]
async fn a_linked_account_refuses_another_identity_with_the_same_email(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let first = sign_in(&app, &provider, "operator").await;
    assert_eq!(first["code"], 200, "{first}");
    // Another directory object claiming the operator's e-mail.
    assert_refused(
        &sign_in(&app, &provider, "operator-twin").await,
        "SUBJECT_MISMATCH",
    );
    let (subject,): (String,) = sqlx::query_as("SELECT subject FROM sso_links")
        .fetch_one(&app.pool)
        .await
        .expect("link");
    assert_eq!(
        subject, "00000000-0000-0000-0000-0000000000a1",
        "linked by oid"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn a_disabled_staff_member_is_refused_with_the_cancelled_message(pool: PgPool) {
    let Some(provider) = Provider::start(&[]).await else {
        return;
    };
    let app = clearway_server(pool, &provider).await;
    let first = sign_in(&app, &provider, "operator").await;
    assert_eq!(first["code"], 200, "{first}");
    // The break-glass super admin may use a password in production.
    let boss = app.login("superadmin").await;
    let operator = events::account::account_id("operator");
    let disabled = body(
        app.post(
            &boss,
            &format!("/api/v1/staff/{operator}/disable"),
            json!({"reason": "left the company"}),
        )
        .await,
    )
    .await;
    assert_eq!(disabled["code"], 200, "{disabled}");
    let refused = sign_in(&app, &provider, "operator").await;
    assert_refused(&refused, "ACCOUNT_DISABLED");
}
