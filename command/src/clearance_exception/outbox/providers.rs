//! SMS and WeChat behind one adapter shape: a template id plus named parameters (and the
//! link the notice points to), sent to one address.
//!
//! - SMS: Aliyun `SendSms` (API version 2017-05-25, `POST <base>/?Action=SendSms&...`
//!   signed with ACS3-HMAC-SHA256): `PhoneNumbers`, `SignName`, `TemplateCode`,
//!   `TemplateParam` (the named parameters as JSON) and `OutId` (the delivery's id, for
//!   reconciling with the provider's records). Success is `{"Code": "OK"}`; anything else
//!   is a failure with the provider's `Code` and `Message`.
//! - WeChat: an Official Account template message, `POST
//!   <base>/cgi-bin/message/template/send?access_token=...` with `touser` (the openId),
//!   `template_id`, `url` and `data` (`{name: {value}}`); the access token comes from
//!   `POST <base>/cgi-bin/stable_token` and is kept until shortly before it expires.
//!   Success is `errcode` 0.
//!
//! Neither provider deduplicates a repeated request, so these channels are at most once
//! across a crash, like e-mail (see `outbox.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::sync::Mutex;
use uuid::Uuid;

/// One message on a template channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateMessage {
    pub template_id: String,
    /// Named parameters (the template's variables).
    pub params: BTreeMap<String, String>,
    /// The page the message links to (WeChat opens it; SMS templates may not carry links).
    pub url: String,
    /// An id the provider keeps with the message (the delivery's id).
    pub out_id: String,
}

/// Aliyun SMS settings.
#[derive(Clone, Debug)]
pub struct SmsConfig {
    /// `https://dysmsapi.aliyuncs.com` or a stand-in.
    pub base_url: String,
    pub access_key_id: String,
    pub access_key_secret: String,
    pub sign_name: String,
    pub template_code: String,
}

/// WeChat Official Account settings.
#[derive(Clone, Debug)]
pub struct WechatConfig {
    /// `https://api.weixin.qq.com` or a stand-in.
    pub base_url: String,
    pub app_id: String,
    pub app_secret: String,
    pub template_id: String,
}

/// A transport failure as the reason that is stored: a class (`timeout`, `connection
/// refused`, `TLS`, `HTTP 5xx` ...) and never the error's own text, which names the request
/// URL (an SMS's phone number, WeChat's `access_token`).
pub fn transport_reason(e: &reqwest::Error) -> String {
    let class = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        connect_class(e)
    } else if e.is_redirect() {
        "redirect refused"
    } else if e.is_decode() {
        "the answer is not what the provider sends"
    } else if e.is_body() {
        "the answer was cut off"
    } else if e.is_request() {
        "the connection closed before an answer"
    } else {
        "request failed"
    };
    match e.status() {
        Some(status) => format!("{class} ({})", status_class(status)),
        None => class.to_string(),
    }
}

/// Why a connection could not be made, from the error's causes (never their text).
fn connect_class(e: &reqwest::Error) -> &'static str {
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return match io.kind() {
                std::io::ErrorKind::ConnectionRefused => "connection refused",
                std::io::ErrorKind::ConnectionReset => "connection reset",
                std::io::ErrorKind::TimedOut => "timeout",
                _ => "could not connect",
            };
        }
        let text = cause.to_string().to_ascii_lowercase();
        if text.contains("certificate") || text.contains("tls") || text.contains("handshake") {
            return "TLS handshake failed";
        }
        if text.contains("dns") || text.contains("resolve") {
            return "the provider's name does not resolve";
        }
        source = cause.source();
    }
    "could not connect"
}

/// `HTTP 503 (server error)`.
pub fn status_class(status: reqwest::StatusCode) -> String {
    let class = match status.as_u16() {
        400..=499 => "client error",
        500..=599 => "server error",
        300..=399 => "redirect",
        _ => "unexpected",
    };
    format!("HTTP {} ({class})", status.as_u16())
}

/// A provider's own code and message, cut short: the code is what staff act on.
fn provider_reason(code: &str, message: &str) -> String {
    let message: String = message.chars().take(120).collect();
    format!("{code}: {message}")
}

fn http() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(15))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap_or_default()
}

/// The SMS adapter.
#[derive(Clone, Debug)]
pub struct Sms {
    config: SmsConfig,
    http: reqwest::Client,
}

impl Sms {
    pub fn new(config: SmsConfig) -> Self {
        Self {
            config,
            http: http(),
        }
    }

    pub fn template_id(&self) -> &str {
        &self.config.template_code
    }

    /// Sends `message` to `phone`; the error is the provider's reason.
    pub async fn send(&self, phone: &str, message: &TemplateMessage) -> Result<(), String> {
        let c = &self.config;
        let params = serde_json::to_string(&message.params).map_err(|e| e.to_string())?;
        let mut query: BTreeMap<&str, &str> = BTreeMap::new();
        query.insert("OutId", &message.out_id);
        query.insert("PhoneNumbers", phone);
        query.insert("SignName", &c.sign_name);
        query.insert("TemplateCode", &message.template_id);
        query.insert("TemplateParam", &params);
        let canonical_query = query
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let date = Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string();
        let nonce = Uuid::new_v4().simple().to_string();
        let body_hash = hex::encode(Sha256::digest(b""));
        let host = reqwest::Url::parse(&c.base_url)
            .map_err(|e| format!("CLEARWAY_SMS_BASE_URL: {e}"))?
            .host_str()
            .unwrap_or_default()
            .to_string();
        let headers = [
            ("host", host.as_str()),
            ("x-acs-action", "SendSms"),
            ("x-acs-content-sha256", body_hash.as_str()),
            ("x-acs-date", date.as_str()),
            ("x-acs-signature-nonce", nonce.as_str()),
            ("x-acs-version", "2017-05-25"),
        ];
        let authorization = acs3_authorization(
            &c.access_key_id,
            &c.access_key_secret,
            "POST",
            &canonical_query,
            &headers,
            &body_hash,
        );
        let url = format!("{}/?{canonical_query}", c.base_url.trim_end_matches('/'));
        let mut request = self.http.post(url).header("authorization", authorization);
        for (name, value) in headers.iter().filter(|(n, _)| *n != "host") {
            request = request.header(*name, *value);
        }
        let response = request.send().await.map_err(|e| transport_reason(&e))?;
        let status = response.status();
        let answer: Value = response
            .json()
            .await
            .map_err(|e| format!("{}: {}", status_class(status), transport_reason(&e)))?;
        match answer["Code"].as_str() {
            Some("OK") => Ok(()),
            Some(code) => Err(provider_reason(
                code,
                answer["Message"].as_str().unwrap_or(""),
            )),
            None => Err(status_class(status)),
        }
    }
}

/// RFC 3986 percent-encoding (Aliyun's canonical form).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// HMAC-SHA256 (RFC 2104).
pub fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; 32] {
    let mut block = [0u8; 64];
    if key.len() > 64 {
        block[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        block[..key.len()].copy_from_slice(key);
    }
    let mut inner = Sha256::new();
    inner.update(block.map(|b| b ^ 0x36));
    inner.update(data);
    let mut outer = Sha256::new();
    outer.update(block.map(|b| b ^ 0x5c));
    outer.update(inner.finalize());
    outer.finalize().into()
}

/// The `Authorization` header of Aliyun's ACS3-HMAC-SHA256 signature; `headers` sorted by
/// lower-case name.
pub fn acs3_authorization(
    key_id: &str,
    secret: &str,
    method: &str,
    canonical_query: &str,
    headers: &[(&str, &str)],
    body_hash: &str,
) -> String {
    let canonical_headers: String = headers
        .iter()
        .map(|(n, v)| format!("{n}:{}\n", v.trim()))
        .collect();
    let signed: Vec<&str> = headers.iter().map(|(n, _)| *n).collect();
    let signed = signed.join(";");
    let request =
        format!("{method}\n/\n{canonical_query}\n{canonical_headers}\n{signed}\n{body_hash}");
    let to_sign = format!(
        "ACS3-HMAC-SHA256\n{}",
        hex::encode(Sha256::digest(request.as_bytes()))
    );
    let signature = hex::encode(hmac_sha256(secret.as_bytes(), to_sign.as_bytes()));
    format!("ACS3-HMAC-SHA256 Credential={key_id},SignedHeaders={signed},Signature={signature}")
}

/// The WeChat adapter (with its cached access token).
#[derive(Clone, Debug)]
pub struct Wechat {
    config: WechatConfig,
    http: reqwest::Client,
    token: Arc<Mutex<Option<(String, Instant)>>>,
}

impl Wechat {
    pub fn new(config: WechatConfig) -> Self {
        Self {
            config,
            http: http(),
            token: Arc::new(Mutex::new(None)),
        }
    }

    pub fn template_id(&self) -> &str {
        &self.config.template_id
    }

    async fn access_token(&self) -> Result<String, String> {
        let mut cached = self.token.lock().await;
        if let Some((token, until)) = cached.as_ref()
            && Instant::now() < *until
        {
            return Ok(token.clone());
        }
        let c = &self.config;
        let answer: Value = self
            .http
            .post(format!(
                "{}/cgi-bin/stable_token",
                c.base_url.trim_end_matches('/')
            ))
            .json(&json!({
                "grant_type": "client_credential",
                "appid": c.app_id,
                "secret": c.app_secret,
            }))
            .send()
            .await
            .map_err(|e| format!("access token: {}", transport_reason(&e)))?
            .json()
            .await
            .map_err(|e| format!("access token: {}", transport_reason(&e)))?;
        let Some(token) = answer["access_token"].as_str() else {
            return Err(wechat_error(&answer));
        };
        let lifetime = answer["expires_in"].as_u64().unwrap_or(7200);
        // Renewed five minutes early.
        let until = Instant::now() + Duration::from_secs(lifetime.saturating_sub(300));
        *cached = Some((token.to_string(), until));
        Ok(token.to_string())
    }

    /// Sends `message` to the follower `open_id`; the error is the provider's reason.
    pub async fn send(&self, open_id: &str, message: &TemplateMessage) -> Result<(), String> {
        let token = self.access_token().await?;
        let data: serde_json::Map<String, Value> = message
            .params
            .iter()
            .map(|(k, v)| (k.clone(), json!({ "value": v })))
            .collect();
        let answer: Value = self
            .http
            .post(format!(
                "{}/cgi-bin/message/template/send",
                self.config.base_url.trim_end_matches('/')
            ))
            .query(&[("access_token", token.as_str())])
            .json(&json!({
                "touser": open_id,
                "template_id": message.template_id,
                "url": message.url,
                "data": data,
            }))
            .send()
            .await
            .map_err(|e| transport_reason(&e))?
            .json()
            .await
            .map_err(|e| transport_reason(&e))?;
        match answer["errcode"].as_i64() {
            Some(0) => Ok(()),
            code => {
                if matches!(code, Some(40001 | 40014 | 42001)) {
                    // The token was refused: take a new one next time.
                    *self.token.lock().await = None;
                }
                Err(wechat_error(&answer))
            }
        }
    }
}

fn wechat_error(answer: &Value) -> String {
    provider_reason(
        &format!("errcode {}", answer["errcode"].as_i64().unwrap_or(-1)),
        answer["errmsg"].as_str().unwrap_or("no answer"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::extract::{Query, State};
    use axum::http::HeaderMap;
    use axum::routing::post;
    use axum::{Json, Router};
    use std::collections::HashMap;

    type Seen = Arc<std::sync::Mutex<Vec<Value>>>;

    async fn serve(app: Router) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{addr}")
    }

    fn message() -> TemplateMessage {
        TemplateMessage {
            template_id: "T1".into(),
            params: BTreeMap::from([
                ("trackingNumber".to_string(), "1Z999".to_string()),
                ("deadline".to_string(), "2026-11-27 10:00".to_string()),
            ]),
            url: "https://x.test/customer-exception/detail?id=1".into(),
            out_id: "d-1".into(),
        }
    }

    #[test]
    fn hmac_sha256_matches_rfc_4231() {
        // Test case 2 of RFC 4231.
        assert_eq!(
            hex::encode(hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(encode("a b*~"), "a%20b%2A~");
    }

    #[tokio::test]
    async fn sms_sends_the_send_sms_shape_signed_and_reports_the_providers_reason() {
        let seen: Seen = Arc::default();
        let app = Router::new()
            .route(
                "/",
                post(
                    |State(seen): State<Seen>,
                     headers: HeaderMap,
                     Query(q): Query<HashMap<String, String>>| async move {
                        let h = |n: &str| {
                            headers
                                .get(n)
                                .and_then(|v| v.to_str().ok())
                                .unwrap_or("")
                                .to_string()
                        };
                        seen.lock().expect("lock").push(json!({
                            "query": q, "action": h("x-acs-action"),
                            "version": h("x-acs-version"), "auth": h("authorization"),
                        }));
                        if q.get("PhoneNumbers").map(String::as_str) == Some("13800000000") {
                            Json(json!({"Code": "isv.MOBILE_NUMBER_ILLEGAL", "Message": "invalid number"}))
                        } else {
                            Json(json!({"Code": "OK", "Message": "OK", "BizId": "1"}))
                        }
                    },
                ),
            )
            .with_state(seen.clone());
        let base = serve(app).await;
        let sms = Sms::new(SmsConfig {
            base_url: base,
            access_key_id: "AK".into(),
            access_key_secret: "SECRET".into(),
            sign_name: "Clearway".into(),
            template_code: "SMS_1".into(),
        });
        sms.send("13812345678", &message()).await.expect("sent");
        let err = sms
            .send("13800000000", &message())
            .await
            .expect_err("refused");
        assert_eq!(err, "isv.MOBILE_NUMBER_ILLEGAL: invalid number");
        let seen = seen.lock().expect("lock").clone();
        let first = &seen[0];
        assert_eq!(first["action"], "SendSms");
        assert_eq!(first["version"], "2017-05-25");
        assert_eq!(first["query"]["PhoneNumbers"], "13812345678");
        assert_eq!(first["query"]["SignName"], "Clearway");
        assert_eq!(first["query"]["TemplateCode"], "T1");
        assert_eq!(first["query"]["OutId"], "d-1");
        let params: Value =
            serde_json::from_str(first["query"]["TemplateParam"].as_str().expect("param"))
                .expect("json");
        assert_eq!(params["trackingNumber"], "1Z999");
        let auth = first["auth"].as_str().expect("auth");
        assert!(
            auth.starts_with("ACS3-HMAC-SHA256 Credential=AK,SignedHeaders=host;x-acs-action;"),
            "{auth}"
        );
    }

    #[tokio::test]
    async fn wechat_takes_a_stable_token_once_and_sends_the_template_message() {
        let seen: Seen = Arc::default();
        let app = Router::new()
            .route(
                "/cgi-bin/stable_token",
                post(
                    |State(seen): State<Seen>, Json(b): Json<Value>| async move {
                        seen.lock().expect("lock").push(json!({"token": b}));
                        Json(json!({"access_token": "TOKEN", "expires_in": 7200}))
                    },
                ),
            )
            .route(
                "/cgi-bin/message/template/send",
                post(
                    |State(seen): State<Seen>,
                     Query(q): Query<HashMap<String, String>>,
                     Json(b): Json<Value>| async move {
                        seen.lock()
                            .expect("lock")
                            .push(json!({"send": b, "token": q.get("access_token")}));
                        if b["touser"] == "blocked" {
                            Json(json!({"errcode": 43004, "errmsg": "require subscribe"}))
                        } else {
                            Json(json!({"errcode": 0, "errmsg": "ok", "msgid": 1}))
                        }
                    },
                ),
            )
            .with_state(seen.clone());
        let base = serve(app).await;
        let wechat = Wechat::new(WechatConfig {
            base_url: base,
            app_id: "wxAPP".into(),
            app_secret: "S".into(),
            template_id: "T1".into(),
        });
        wechat.send("oOPEN1", &message()).await.expect("sent");
        let err = wechat
            .send("blocked", &message())
            .await
            .expect_err("refused");
        assert_eq!(err, "errcode 43004: require subscribe");
        let seen = seen.lock().expect("lock").clone();
        assert_eq!(seen.len(), 3, "one token for both messages: {seen:?}");
        assert_eq!(seen[0]["token"]["grant_type"], "client_credential");
        assert_eq!(seen[0]["token"]["appid"], "wxAPP");
        let send = &seen[1];
        assert_eq!(send["token"], "TOKEN");
        assert_eq!(send["send"]["touser"], "oOPEN1");
        assert_eq!(send["send"]["template_id"], "T1");
        assert_eq!(
            send["send"]["url"],
            "https://x.test/customer-exception/detail?id=1"
        );
        assert_eq!(send["send"]["data"]["trackingNumber"]["value"], "1Z999");
    }
}
