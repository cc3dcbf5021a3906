//! The busy server of the restart test: clients that send commands and queries in a loop and
//! record every answer, and the checks run on what they recorded.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use command::upload::fields::{GOODS, HEADER, header_text};
use serde_json::{Map, Value, json};
use sqlx::PgPool;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The server's answer to one request, as the test judges it.
#[derive(Debug)]
enum Answer {
    /// code 200: the envelope's data.
    Done(Value),
    /// 503 in the envelope, saying the database is unavailable.
    Unavailable,
    /// Anything else (a 500, a 409, a broken connection, a timeout): a finding.
    Other(String),
}

#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
    acme: String,
    operator: String,
}

async fn login(http: &reqwest::Client, base: &str, username: &str) -> anyhow::Result<String> {
    let v: Value = http
        .post(format!("{base}/auth/login"))
        .form(&[
            ("username", username),
            ("password", clearway::seed::DEMO_PASSWORD),
        ])
        .send()
        .await?
        .json()
        .await?;
    v["data"]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("login of {username} answered {v}"))
}

impl Api {
    pub async fn new(base: &str) -> anyhow::Result<Self> {
        // A generous client timeout: an answer that takes longer is a hang, reported as such.
        let http = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(30))
            .build()?;
        Ok(Self {
            acme: login(&http, base, "acme").await?,
            operator: login(&http, base, "operator").await?,
            http,
            base: base.to_string(),
        })
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> Answer {
        let response = match request.header("Accept-Language", "en").send().await {
            Ok(r) => r,
            Err(e) => return Answer::Other(format!("no answer: {e}")),
        };
        let status = response.status().as_u16();
        let v: Value = match response.json().await {
            Ok(v) => v,
            Err(e) => return Answer::Other(format!("HTTP {status}, not an envelope: {e}")),
        };
        match (status, v["code"].as_i64()) {
            (200, Some(200)) => Answer::Done(v["data"].clone()),
            (503, Some(503))
                if v["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("database is unavailable")) =>
            {
                Answer::Unavailable
            }
            _ => Answer::Other(format!("HTTP {status}: {v}")),
        }
    }

    async fn post(&self, token: &str, path: &str, body: Value) -> Answer {
        self.send(
            self.http
                .post(format!("{}{path}", self.base))
                .bearer_auth(token)
                .json(&body),
        )
        .await
    }

    async fn get(&self, token: &str, path: &str) -> Answer {
        self.send(
            self.http
                .get(format!("{}{path}", self.base))
                .bearer_auth(token),
        )
        .await
    }

    async fn create(&self, tracking: &str) -> Answer {
        let mut body =
            serde_json::to_value(clearway::seed::demo_c_export(tracking, "PVG", "SHA01"))
                .expect("json");
        body["declarationType"] = json!("OC");
        self.post(&self.acme, "/api/v1/declarations", body).await
    }

    /// A request of each side while PostgreSQL is down: each must be a 503 in the envelope
    /// within `bound`.
    pub async fn expect_unavailable(&self, bound: Duration) -> anyhow::Result<()> {
        let started = Instant::now();
        let command = self.create("1ZDOWN0000P0000002").await;
        let query = self
            .get(&self.acme, "/api/v1/declarations?pageNo=1&pageSize=5")
            .await;
        let took = started.elapsed();
        for (what, answer) in [("command", command), ("query", query)] {
            anyhow::ensure!(
                matches!(answer, Answer::Unavailable),
                "a {what} during the outage answered {answer:?}"
            );
        }
        anyhow::ensure!(
            took <= bound * 2,
            "two requests during the outage took {took:?}"
        );
        Ok(())
    }

    /// How long after `since` the first command succeeds, and its position.
    pub async fn first_success_after(
        &self,
        prefix: &str,
        since: Instant,
        limit: Duration,
    ) -> anyhow::Result<(Duration, i64)> {
        let mut n = 0;
        loop {
            n += 1;
            let answer = self.create(&format!("{prefix}{n:04}")).await;
            if let Answer::Done(data) = answer {
                let position = data["position"].as_i64().context("no position")?;
                return Ok((since.elapsed(), position));
            }
            anyhow::ensure!(
                since.elapsed() < limit,
                "no command succeeded within {limit:?} of the restart: {answer:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Until the declaration list has applied `position` (asked with `minPosition`).
    pub async fn read_back(&self, position: i64, limit: Duration) -> anyhow::Result<()> {
        let started = Instant::now();
        loop {
            let r = self
                .http
                .get(format!(
                    "{}/api/v1/declarations?pageNo=1&pageSize=1&minPosition={position}",
                    self.base
                ))
                .bearer_auth(&self.acme)
                .send()
                .await?;
            if r.status() == 200 && r.headers().get("x-read-behind").is_none() {
                return Ok(());
            }
            anyhow::ensure!(
                started.elapsed() < limit,
                "the read models never reached {position}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Posts a fixed-template file of `rows` declarations (tracking numbers `prefix`n);
    /// answers the upload's id.
    pub async fn upload(&self, prefix: &str, rows: usize) -> anyhow::Result<String> {
        let file = table_file(prefix, rows);
        let boundary = "----clearway-restart-boundary";
        let mut body = Vec::new();
        for (name, value) in [
            ("declarationType", "OC"),
            ("isRowData", "true"),
            ("isFixed", "true"),
        ] {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; \
                 filename=\"{prefix}.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&file);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let v: Value = self
            .http
            .post(format!("{}/api/v1/upload", self.base))
            .bearer_auth(&self.acme)
            .header(
                "content-type",
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .send()
            .await?
            .json()
            .await?;
        v["data"][0]
            .as_str()
            .map(str::to_string)
            .with_context(|| format!("upload answered {v}"))
    }

    /// Until every upload has a final status.
    pub async fn uploads_finished(&self, ids: &[String], limit: Duration) -> anyhow::Result<()> {
        let started = Instant::now();
        loop {
            let answer = self
                .get(
                    &self.acme,
                    &format!("/api/v1/upload/log/status?fileIdList={}", ids.join(",")),
                )
                .await;
            if let Answer::Done(records) = &answer {
                let open: Vec<&Value> = records
                    .as_array()
                    .map(|r| r.iter().filter(|r| r["status"] == "3").collect())
                    .unwrap_or_default();
                let known = records.as_array().map_or(0, Vec::len);
                if known == ids.len() && open.is_empty() {
                    for r in records.as_array().into_iter().flatten() {
                        anyhow::ensure!(
                            r["status"] == "1",
                            "an upload did not finish clean after the restarts: {r}"
                        );
                    }
                    return Ok(());
                }
            }
            anyhow::ensure!(
                started.elapsed() < limit,
                "uploads unfinished after {limit:?}: {answer:?}"
            );
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
    }
}

/// A fixed-template (table form) workbook of `rows` demo class C declarations.
fn table_file(prefix: &str, rows: usize) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let fields: Vec<_> = HEADER.iter().chain(GOODS).collect();
    for (c, f) in fields.iter().enumerate() {
        sheet
            .write_string(0, c as u16, header_text(f))
            .expect("header");
    }
    let text = |v: &Value| match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    let mut r = 1u32;
    for n in 0..rows {
        let tracking = format!("{prefix}{n:05}");
        let data = serde_json::to_value(clearway::seed::demo_c_export(&tracking, "PVG", "SHA01"))
            .expect("json");
        let header: Map<String, Value> = HEADER
            .iter()
            .filter_map(|f| Some((f.wire.to_string(), Value::String(text(data.get(f.wire)?)?))))
            .collect();
        for line in data["declarationGoodsInfo"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let mut row = header.clone();
            for f in GOODS {
                if let Some(t) = line.get(f.wire).and_then(text) {
                    row.insert(f.wire.into(), Value::String(t));
                }
            }
            for (c, f) in fields.iter().enumerate() {
                if let Some(Value::String(v)) = row.get(f.wire) {
                    sheet.write_string(r, c as u16, v).expect("cell");
                }
            }
            r += 1;
        }
    }
    book.save_to_buffer().expect("xlsx")
}

/// What the load saw.
#[derive(Debug, Default)]
pub struct Seen {
    /// Declarations whose creation was answered with success: (id, tracking number).
    pub created: Vec<(String, String)>,
    /// Exceptions whose raise and notice were answered with success.
    pub notified: Vec<String>,
    pub unavailable: usize,
    pub queries: usize,
    /// Answers that were neither success nor a 503 "database unavailable".
    pub other: Vec<String>,
    pub slowest: Duration,
}

impl Seen {
    pub fn summary(&self) -> String {
        format!(
            "{} declarations created, {} exceptions notified, {} queries answered, \
             {} answers 503, slowest answer {:?}, {} other answers",
            self.created.len(),
            self.notified.len(),
            self.queries,
            self.unavailable,
            self.slowest,
            self.other.len()
        )
    }

    /// Every answer was a success or a prompt 503.
    pub fn check(&self, bound: Duration) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.other.is_empty(),
            "answers other than success or 503 'database unavailable': {:#?}",
            self.other
        );
        anyhow::ensure!(
            self.slowest <= bound,
            "an answer took {:?} (bound {bound:?})",
            self.slowest
        );
        anyhow::ensure!(self.unavailable > 0, "the load never met the outage");
        anyhow::ensure!(
            !self.created.is_empty() && !self.notified.is_empty(),
            "the load made too little: {}",
            self.summary()
        );
        Ok(())
    }
}

#[derive(Clone, Default)]
pub struct Outcomes(Arc<Mutex<Seen>>);

impl Outcomes {
    fn record(&self, answer: &Answer, took: Duration) {
        let mut seen = self.0.lock().expect("outcomes");
        seen.slowest = seen.slowest.max(took);
        match answer {
            Answer::Done(_) => {}
            Answer::Unavailable => seen.unavailable += 1,
            Answer::Other(e) => seen.other.push(e.clone()),
        }
    }

    pub fn take(&self) -> Seen {
        std::mem::take(&mut *self.0.lock().expect("outcomes"))
    }
}

async fn timed(outcomes: &Outcomes, answer: impl std::future::Future<Output = Answer>) -> Answer {
    let started = Instant::now();
    let answer = answer.await;
    outcomes.record(&answer, started.elapsed());
    answer
}

/// Starts the clients: two that create declarations, one that reads lists, one that submits
/// declarations and raises and notifies exceptions on them (the notice outbox's work).
pub fn start(api: &Api, outcomes: &Outcomes, stop: watch::Receiver<bool>) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for client in 0..2 {
        let (api, outcomes, stop) = (api.clone(), outcomes.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = 0;
            while !*stop.borrow() {
                n += 1;
                let tracking = format!("CWLD{client}{n:05}");
                if let Answer::Done(data) = timed(&outcomes, api.create(&tracking)).await {
                    let id = data["id"].as_str().unwrap_or_default().to_string();
                    outcomes
                        .0
                        .lock()
                        .expect("outcomes")
                        .created
                        .push((id, tracking));
                }
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }));
    }
    {
        let (api, outcomes, stop) = (api.clone(), outcomes.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            while !*stop.borrow() {
                let path = "/api/v1/declarations?pageNo=1&pageSize=20";
                if let Answer::Done(_) = timed(&outcomes, api.get(&api.acme, path)).await {
                    outcomes.0.lock().expect("outcomes").queries += 1;
                }
                tokio::time::sleep(Duration::from_millis(30)).await;
            }
        }));
    }
    {
        let (api, outcomes, stop) = (api.clone(), outcomes.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = 0;
            while !*stop.borrow() {
                n += 1;
                notify_one(&api, &outcomes, n).await;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }));
    }
    tasks
}

/// A submitted declaration, an exception raised on it, its notice sent to the outbox.
async fn notify_one(api: &Api, outcomes: &Outcomes, n: usize) {
    let tracking = format!("CWEX{n:06}");
    let Answer::Done(created) = timed(outcomes, api.create(&tracking)).await else {
        return;
    };
    let declaration = created["id"].as_str().unwrap_or_default().to_string();
    outcomes
        .0
        .lock()
        .expect("outcomes")
        .created
        .push((declaration.clone(), tracking));
    let submit = format!("/api/v1/declarations/{declaration}/submit");
    if !matches!(
        timed(outcomes, api.post(&api.acme, &submit, json!({}))).await,
        Answer::Done(_)
    ) {
        return;
    }
    let request = json!({
        "declarationId": declaration,
        "exceptionDetails": [{"exceptionCode": "E01", "exceptionDescription": "商业发票缺失"}],
        "isCommercialInvoiceChecked": true,
        "isExchangeHtsCodeChecked": true,
        "newHtsCode": "8471414000",
        "sendToEmail": true,
        "notificationContact": {"recipientEmail": "buyer@example.com"},
        "exceptionSummary": "please send the commercial invoice",
    });
    let raised = timed(
        outcomes,
        api.post(&api.operator, "/api/v1/clearance-exceptions", request),
    )
    .await;
    let Answer::Done(raised) = raised else {
        return;
    };
    let id = raised["id"].as_str().unwrap_or_default().to_string();
    let notify = format!("/api/v1/clearance-exceptions/{id}/notify");
    if let Answer::Done(_) = timed(outcomes, api.post(&api.operator, &notify, json!({}))).await {
        outcomes.0.lock().expect("outcomes").notified.push(id);
    }
}

/// Every command answered with success is in the store exactly once, every upload's rows
/// made one declaration each, and every notice was attempted exactly once.
pub async fn exactly_once(pool: &PgPool, seen: &Seen, uploads: &[String]) -> anyhow::Result<()> {
    for (id, tracking) in &seen.created {
        let id: uuid::Uuid = id.parse().with_context(|| format!("id of {tracking}"))?;
        let drafted: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'DeclarationDrafted'",
        )
        .bind(id)
        .fetch_one(pool)
        .await?;
        anyhow::ensure!(drafted == 1, "{tracking} ({id}) drafted {drafted} times");
    }
    let doubled: Vec<(String, i64)> = sqlx::query_as(
        "SELECT payload->'data'->>'trackingNumber', count(*) FROM events
          WHERE event_type = 'DeclarationDrafted'
          GROUP BY 1 HAVING count(*) > 1",
    )
    .fetch_all(pool)
    .await?;
    anyhow::ensure!(
        doubled.is_empty(),
        "tracking numbers drafted twice: {doubled:?}"
    );
    for upload in uploads {
        let id: uuid::Uuid = upload.parse()?;
        let received: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'UploadReceived'",
        )
        .bind(id)
        .fetch_one(pool)
        .await?;
        anyhow::ensure!(received == 1, "upload {id} received {received} times");
        let made: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM events
              WHERE event_type = 'DeclarationDrafted' AND payload->'upload'->>'uploadId' = $1",
        )
        .bind(upload)
        .fetch_one(pool)
        .await?;
        anyhow::ensure!(made > 0, "upload {id} made no declaration");
    }
    for id in &seen.notified {
        let id: uuid::Uuid = id.parse()?;
        let notified: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM events WHERE stream_id = $1 AND event_type = 'ClearanceExceptionNotified'",
        )
        .bind(id)
        .fetch_one(pool)
        .await?;
        anyhow::ensure!(notified == 1, "exception {id} notified {notified} times");
    }
    // The outbox attempted every notice exactly once (no SMTP here: "not configured").
    let started = Instant::now();
    loop {
        let counts: Vec<(uuid::Uuid, i64)> = sqlx::query_as(
            "SELECT id, (SELECT count(*) FROM events e WHERE e.stream_id = ids.id
                           AND e.event_type = 'ClearanceExceptionDeliveryAttempted')
               FROM unnest($1::uuid[]) AS ids(id)",
        )
        .bind(
            seen.notified
                .iter()
                .filter_map(|i| i.parse().ok())
                .collect::<Vec<uuid::Uuid>>(),
        )
        .fetch_all(pool)
        .await?;
        let twice: Vec<_> = counts.iter().filter(|(_, n)| *n > 1).collect();
        anyhow::ensure!(twice.is_empty(), "notices attempted twice: {twice:?}");
        if counts.iter().all(|(_, n)| *n == 1) {
            return Ok(());
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(60),
            "notices never attempted: {counts:?}"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// A digest of a table's rows, in a fixed order.
async fn digest(pool: &PgPool, table: &str) -> anyhow::Result<(i64, String)> {
    Ok(sqlx::query_as(&format!(
        "SELECT count(*), coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '')
           FROM {table} t"
    ))
    .fetch_one(pool)
    .await?)
}

/// The read models the load wrote equal a rebuild of them from the store.
pub async fn live_equals_rebuild(pool: &PgPool) -> anyhow::Result<()> {
    let compared: &[(&str, &[&str])] = &[
        ("declaration_list", &["rm_declarations"]),
        ("upload_log", &["rm_uploads", "rm_upload_items"]),
        (
            "clearance_exception_list",
            &["rm_clearance_exceptions", "rm_clearance_exception_history"],
        ),
        ("exception_outbox", &["rm_exception_notices"]),
    ];
    for (name, tables) in compared {
        let mut live = Vec::new();
        for table in *tables {
            live.push(digest(pool, table).await?);
        }
        let projection = clearway::startup::projections()
            .into_iter()
            .find(|p| p.name() == *name)
            .with_context(|| format!("no projection {name}"))?;
        projector::runtime::rebuild(pool, projection.as_ref()).await?;
        for (table, live) in tables.iter().zip(live) {
            let rebuilt = digest(pool, table).await?;
            anyhow::ensure!(
                rebuilt == live,
                "{table} differs from its rebuild: live {live:?}, rebuilt {rebuilt:?}"
            );
            eprintln!("{table}: {} rows, live = rebuilt", live.0);
        }
    }
    Ok(())
}
