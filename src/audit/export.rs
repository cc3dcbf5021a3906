//! `POST /api/v1/audit/exports`: the log, filtered as `GET /api/v1/audit/events` filters it,
//! as one file that `clearway verify --export FILE` checks offline with the public key alone
//! (the format: [`projector::audit_chain::export`], docs/compliance.md).
//!
//! Before the export the chain's head is sealed (the server holds the key), so every chained
//! event can be exported. The file is written in one `REPEATABLE READ` snapshot by a task of
//! its own and streamed as it is written (memory flat in the file's size): a manifest line
//! counted first, then, in chain order, each included event with the digests of the events
//! left out between it and its nearest seals, and those seals. Bounded: at most
//! [`MAX_EVENTS`] events and [`MAX_SPAN`] chain places between their seals; a larger export
//! answers 400 before anything is written. Each export is recorded on the exporter's
//! `audit_access` stream (`AuditLogExported`: the filter, the count, the first and last
//! position).

use std::time::Duration;

use api::{Actor, ApiError, Auth, Guards, Json};
use axum::body::{Body, Bytes};
use axum::extract::{FromRef, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use chrono_tz::Asia::Shanghai;
use futures::TryStreamExt;
use projector::audit_chain::canonical::{CANONICAL_SELECT, canonical_row};
use projector::audit_chain::export::{
    DIGESTS_PER_LINE, DigestsLine, EXPORT_FORMAT, EventLine, Line, Manifest, SealLine,
};
use projector::audit_chain::seal::{Near, SealKey, SealPolicy, seal_due, seal_near};
use serde_json::json;
use sqlx::pool::PoolConnection;
use sqlx::{Connection, PgConnection, PgPool, Postgres, QueryBuilder, Row};
use tokio::sync::{mpsc, oneshot};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;

use super::filter::{LogFilter, LogFilterBody};

/// At most this many events in one export.
pub const MAX_EVENTS: i64 = 100_000;
/// At most this many chain places between the seals around the exported events (each left
/// out place is a 64-digit digest in the file: about 130 MB at most).
pub const MAX_SPAN: i64 = 2_000_000;
/// How long an export waits for the chain to reach the log's last event.
const CHAIN_WAIT: Duration = Duration::from_secs(5);
/// The file is sent in chunks of about this size.
const CHUNK: usize = 64 * 1024;

#[derive(Clone)]
pub struct ExportState {
    pool: PgPool,
    auth: Auth,
    key: SealKey,
    policy: SealPolicy,
}

impl FromRef<ExportState> for Auth {
    fn from_ref(state: &ExportState) -> Auth {
        state.auth.clone()
    }
}

pub fn routes(pool: PgPool, auth: Auth, key: SealKey, policy: SealPolicy) -> OpenApiRouter {
    // Its own code: the file carries the events' payloads unmasked, where the audit API
    // masks them for the same readers (docs/compliance.md, "What an export reveals").
    let export_code = Guards::new(&auth).permission("audit:export");
    OpenApiRouter::new()
        .routes(routes!(export).map(|r| r.route_layer(export_code)))
        .with_state(ExportState {
            pool,
            auth,
            key,
            policy,
        })
}

/// An export of the audit log
///
/// Needs `audit:export` (not `audit:read`: the file carries payloads unmasked, see
/// docs/compliance.md). The events the filter selects (the filter of `GET
/// /api/v1/audit/events`), up to the chain's last seal (the head is sealed first), as one file
/// of JSON lines (`clearway-audit-export/1`, docs/compliance.md): a manifest, each event's
/// canonical columns, the digests of the events left out between them and their nearest
/// seals, and the seals. `clearway verify --export FILE` checks it offline with the public key
/// alone. At most 100,000 events and 2,000,000 chain places between their seals (400
/// naming `from` beyond). Recorded on the exporter's `audit_access` stream.
#[utoipa::path(
    post, path = "/api/v1/audit/exports", operation_id = "auditExport",
    tag = "audit", security(("bearer" = [])),
    request_body(content = LogFilterBody, description = "The log's filter; `{}`: the whole log."),
    responses(
        (
            status = 200,
            description = "The export file (JSON lines).",
            content_type = "application/x-ndjson",
            body = String,
            headers(("Content-Disposition" = String, description = "`attachment` with a safe file name.")),
        ),
        api::doc::Errors<400, 401, 403, 413, 415>,
    ),
)]
async fn export(
    State(state): State<ExportState>,
    actor: Actor,
    Json(body): Json<LogFilterBody>,
) -> Result<Response, ApiError> {
    let filter = LogFilter::parse(&body)?;
    wait_for_chain(&state.pool).await?;
    // Seal the head now, so the export reaches the last chained event.
    let now_policy = SealPolicy {
        every: state.policy.every,
        max_age: Duration::ZERO,
    };
    seal_due(&state.pool, &state.key, now_policy, Utc::now())
        .await
        .map_err(ApiError::internal)?;

    let conn = state.pool.acquire().await.map_err(ApiError::internal)?;
    let side = state.pool.acquire().await.map_err(ApiError::internal)?;
    let manifest = Manifest {
        format: EXPORT_FORMAT.into(),
        exported_at: Utc::now(),
        exported_by: actor.username.clone(),
        filter: serde_json::to_value(&body).unwrap_or_default(),
        count: 0,
        first_position: None,
        last_position: None,
        first_hash: None,
        last_hash: None,
        sealed_to: None,
        public_key: state.key.public_hex(),
    };
    let (planned_tx, planned_rx) = oneshot::channel();
    let (chunks_tx, mut chunks_rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(4);
    tokio::spawn(write_export(
        conn, side, filter, manifest, planned_tx, chunks_tx,
    ));
    let manifest = planned_rx
        .await
        .map_err(|_| ApiError::internal("the export task ended early"))??;

    super::access::append(
        &state.pool,
        &actor,
        "AuditLogExported",
        json!({
            "filter": body,
            "count": manifest.count,
            "firstPosition": manifest.first_position,
            "lastPosition": manifest.last_position,
            "sealedTo": manifest.sealed_to,
            "username": actor.username,
        }),
    )
    .await?;

    let stream = futures::stream::poll_fn(move |cx| chunks_rx.poll_recv(cx));
    let mut response = Body::from_stream(stream).into_response();
    let name = format!(
        "audit-export-{}.jsonl",
        Utc::now().with_timezone(&Shanghai).format("%m%d-%H%M")
    );
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    if let Ok(v) = HeaderValue::from_str(&query::reports::xlsx::content_disposition(&name)) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// Waits (at most [`CHAIN_WAIT`]) until the log's last event is chained; an export reaches
/// only chained events.
async fn wait_for_chain(pool: &PgPool) -> Result<(), ApiError> {
    let head: Option<i64> = sqlx::query_scalar("SELECT max(global_position) FROM events")
        .fetch_one(pool)
        .await?;
    let Some(head) = head else {
        return Ok(());
    };
    let deadline = tokio::time::Instant::now() + CHAIN_WAIT;
    loop {
        let chained: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM audit_chain WHERE global_position = $1)",
        )
        .bind(head)
        .fetch_one(pool)
        .await?;
        if chained || tokio::time::Instant::now() >= deadline {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Why writing stopped.
enum Stop {
    /// The client went away.
    Gone,
    Db(sqlx::Error),
}

impl From<sqlx::Error> for Stop {
    fn from(e: sqlx::Error) -> Self {
        Self::Db(e)
    }
}

/// Lines buffered into chunks for the response body.
struct Out {
    tx: mpsc::Sender<Result<Bytes, std::io::Error>>,
    buf: Vec<u8>,
}

impl Out {
    async fn line(&mut self, line: &Line) -> Result<(), Stop> {
        self.buf.extend_from_slice(&line.to_bytes());
        if self.buf.len() >= CHUNK {
            self.flush().await?;
        }
        Ok(())
    }

    async fn flush(&mut self) -> Result<(), Stop> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buf));
        self.tx.send(Ok(chunk)).await.map_err(|_| Stop::Gone)
    }
}

/// The events the filter selects among the chain places `1..=end`, as SQL after `prefix`: the
/// chain row (`x.seq`, `x.hash`) beside the event's columns.
fn selected(
    prefix: &str,
    select: &str,
    filter: &LogFilter,
    end: i64,
) -> QueryBuilder<'static, Postgres> {
    let mut qb = QueryBuilder::new(format!(
        "{prefix}SELECT {select} FROM events \
         JOIN (SELECT seq, hash, global_position AS gp FROM audit_chain) x \
           ON x.gp = events.global_position WHERE x.seq <= "
    ));
    qb.push_bind(end);
    filter.push(&mut qb);
    qb
}

/// Writes the export in one snapshot: first the plan (or the 400 that refuses it) through
/// `planned`, then the lines through `chunks`.
async fn write_export(
    mut conn: PoolConnection<Postgres>,
    mut side: PoolConnection<Postgres>,
    filter: LogFilter,
    manifest: Manifest,
    planned: oneshot::Sender<Result<Manifest, ApiError>>,
    chunks: mpsc::Sender<Result<Bytes, std::io::Error>>,
) {
    let mut planned = Some(planned);
    let mut out = Out {
        tx: chunks,
        buf: Vec::new(),
    };
    let written = async {
        // Two connections in one snapshot: one streams the included events in a single
        // query, the other reads the digests and seals around them meanwhile.
        let mut tx = conn.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await?;
        let snapshot: String = sqlx::query_scalar("SELECT pg_export_snapshot()")
            .fetch_one(&mut *tx)
            .await?;
        if !snapshot.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            return Err(Stop::Db(sqlx::Error::Protocol(format!(
                "unexpected snapshot id {snapshot:?}"
            ))));
        }
        let mut near = side.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *near)
            .await?;
        sqlx::query(&format!("SET TRANSACTION SNAPSHOT '{snapshot}'"))
            .execute(&mut *near)
            .await?;
        let manifest = match plan(&mut tx, &filter, manifest).await? {
            Ok(m) => m,
            Err(refused) => {
                if let Some(p) = planned.take() {
                    let _ = p.send(Err(refused));
                }
                return Ok(());
            }
        };
        if let Some(p) = planned.take() {
            let _ = p.send(Ok(manifest.clone()));
        }
        out.line(&Line::Manifest(Box::new(manifest.clone())))
            .await?;
        if manifest.count > 0
            && let Some(end) = seal_near(&mut tx, Near::Before, i64::MAX).await?
        {
            lines(&mut tx, &mut near, &filter, end.seq, &mut out).await?;
        }
        out.flush().await?;
        near.commit().await?;
        tx.commit().await?;
        Ok::<(), Stop>(())
    }
    .await;
    match written {
        Ok(()) | Err(Stop::Gone) => {}
        Err(Stop::Db(e)) => {
            tracing::error!(error = %e, "the audit export failed");
            match planned.take() {
                Some(p) => {
                    let _ = p.send(Err(ApiError::internal(e)));
                }
                // The answer has begun: cut it short (the file then fails its check).
                None => {
                    let _ = out
                        .tx
                        .send(Err(std::io::Error::other("the export failed")))
                        .await;
                }
            }
        }
    }
}

fn too_large(what: &str, limit: i64) -> ApiError {
    ApiError::bad_field(
        "from",
        format!(
            "筛选结果超过一次导出的上限（{limit} 个{what}）：请缩小范围（from、to 或其他条件）"
        ),
        format!(
            "the filter selects more than an export holds ({limit} {what}): narrow it (from, to or another filter)"
        ),
    )
}

/// Counts the export and fills in the manifest; `Err` inside: the export is refused (400).
async fn plan(
    conn: &mut PgConnection,
    filter: &LogFilter,
    mut manifest: Manifest,
) -> Result<Result<Manifest, ApiError>, sqlx::Error> {
    let Some(end) = seal_near(conn, Near::Before, i64::MAX).await? else {
        return Ok(Ok(manifest));
    };
    manifest.sealed_to = Some(end.position);
    let mut qb = selected("SELECT count(*) FROM (", "1", filter, end.seq);
    qb.push(" LIMIT ")
        .push_bind(MAX_EVENTS + 1)
        .push(") capped");
    let capped: i64 = qb
        .build_query_scalar()
        .persistent(false)
        .fetch_one(&mut *conn)
        .await?;
    if capped > MAX_EVENTS {
        return Ok(Err(too_large("events", MAX_EVENTS)));
    }
    // Each event needs the places from the seal before it to the seal at or after it; events
    // between the same two seals share them.
    let mut qb = selected("WITH inc AS MATERIALIZED (", "x.seq", filter, end.seq);
    qb.push(
        "), seg AS (SELECT \
             (SELECT coalesce(max(s.seq), 0) FROM audit_seals s WHERE s.seq < inc.seq) AS lo, \
             (SELECT min(s.seq) FROM audit_seals s WHERE s.seq >= inc.seq) AS hi FROM inc) \
         SELECT (SELECT count(*) FROM inc), \
                (SELECT coalesce(sum(hi - lo), 0)::bigint FROM (SELECT DISTINCT lo, hi FROM seg) d), \
                (SELECT min(seq) FROM inc), (SELECT max(seq) FROM inc)",
    );
    let (count, span, first, last): (i64, i64, Option<i64>, Option<i64>) = qb
        .build_query_as()
        .persistent(false)
        .fetch_one(&mut *conn)
        .await?;
    if span > MAX_SPAN {
        return Ok(Err(too_large("chain places", MAX_SPAN)));
    }
    manifest.count = count as u64;
    for (seq, position, hash) in [
        (
            first,
            &mut manifest.first_position,
            &mut manifest.first_hash,
        ),
        (last, &mut manifest.last_position, &mut manifest.last_hash),
    ] {
        let Some(seq) = seq else { continue };
        let (p, h): (i64, Vec<u8>) =
            sqlx::query_as("SELECT global_position, hash FROM audit_chain WHERE seq = $1")
                .bind(seq)
                .fetch_one(&mut *conn)
                .await?;
        *position = Some(p);
        *hash = Some(hex::encode(h));
    }
    Ok(Ok(manifest))
}

/// The lines after the manifest: for each included event in chain order, the seal before it
/// (unless the chain is there already), the digests from there to it, the event; and after
/// the last event of a stretch between two seals, the digests up to the seal after it and
/// that seal. From a seal the file jumps to the next needed seal.
async fn lines(
    events: &mut PgConnection,
    conn: &mut PgConnection,
    filter: &LogFilter,
    end: i64,
    out: &mut Out,
) -> Result<(), Stop> {
    // The chain place written up to, and the seal the current stretch ends at.
    let mut cursor = 0;
    let mut stretch_end: Option<i64> = None;
    let mut qb = selected(
        "",
        &format!("{CANONICAL_SELECT}, x.seq, x.hash"),
        filter,
        end,
    );
    qb.push(" ORDER BY x.seq");
    let mut rows = qb.build().persistent(false).fetch(events);
    while let Some(row) = rows.try_next().await? {
        let event =
            canonical_row(&row).map_err(|e| Stop::Db(sqlx::Error::Protocol(e.to_string())))?;
        let seq: i64 = row.try_get(11)?;
        let hash: Vec<u8> = row.try_get(12)?;
        if stretch_end.is_none_or(|e| seq > e) {
            if let Some(e) = stretch_end {
                digests(conn, cursor + 1, e, out).await?;
                seal(conn, e, out).await?;
                cursor = e;
            }
            if let Some(before) = seal_near(conn, Near::Before, seq).await?
                && before.seq > cursor
            {
                out.line(&Line::Seal(SealLine::from(&before))).await?;
                cursor = before.seq;
            }
            let Some(next) = seal_near(conn, Near::AtOrAfter, seq).await? else {
                return Err(Stop::Db(sqlx::Error::Protocol(format!(
                    "no seal at or after chain place {seq}"
                ))));
            };
            stretch_end = Some(next.seq);
        }
        digests(conn, cursor + 1, seq - 1, out).await?;
        let hash = projector::audit_chain::to_hash(&hash);
        out.line(&Line::Event(Box::new(EventLine::new(seq, event, &hash))))
            .await?;
        cursor = seq;
    }
    drop(rows);
    if let Some(e) = stretch_end {
        digests(conn, cursor + 1, e, out).await?;
        seal(conn, e, out).await?;
    }
    Ok(())
}

async fn seal(conn: &mut PgConnection, seq: i64, out: &mut Out) -> Result<(), Stop> {
    let Some(s) = seal_near(conn, Near::At, seq).await? else {
        return Err(Stop::Db(sqlx::Error::RowNotFound));
    };
    out.line(&Line::Seal(SealLine::from(&s))).await
}

/// The left-out places `from..=to` (none when `from > to`), [`DIGESTS_PER_LINE`] a line.
async fn digests(conn: &mut PgConnection, from: i64, to: i64, out: &mut Out) -> Result<(), Stop> {
    let mut start = from;
    while start <= to {
        let stop = to.min(start + DIGESTS_PER_LINE as i64 - 1);
        let rows: Vec<(Vec<u8>, Vec<u8>)> = sqlx::query_as(
            "SELECT digest, hash FROM audit_chain WHERE seq BETWEEN $1 AND $2 ORDER BY seq",
        )
        .bind(start)
        .bind(stop)
        .fetch_all(&mut *conn)
        .await?;
        let hash = rows.last().map(|(_, h)| hex::encode(h)).unwrap_or_default();
        out.line(&Line::Digests(DigestsLine {
            from: start,
            to: stop,
            digests: rows.iter().map(|(d, _)| hex::encode(d)).collect(),
            hash,
        }))
        .await?;
        start = stop + 1;
    }
    Ok(())
}
