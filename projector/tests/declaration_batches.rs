//! `apply_batch` of `declaration_list` and `declaration_history` against event-by-event
//! `apply`: the same generated feed (interleaved declarations, every event kind, edits that
//! move ports, amends, deletes, other streams, fold positions, days around the Shanghai
//! midnight, replays of earlier events) applied both ways must leave the same tables,
//! whatever the batch size. Plus a release-mode throughput measurement (ignored).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::{DateTime, FixedOffset, TimeZone, Utc};
use events::declaration::customs::{
    CustomsMessageSent, CustomsReceipt, CustomsReceiptRecorded, ReceiptEffect,
};
use events::declaration::{
    self, Amended, DeclarationData, DeclarationEvent, DeclarationStatus as S, Drafted, Edited,
    FieldChange, GoodsLine, Transition, TypeCode,
};
use events::store::FeedBatch;
use events::{Checkpoint, DomainEvent, EventStore, Metadata, NewEvent, RecordedEvent};
use futures::future::BoxFuture;
use projector::runtime::rebuild;
use projector::{Projection, ProjectionError, apply_events, declaration_history, declaration_list};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// splitmix64: a fixed seed gives the same feed on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn uuid(&mut self) -> Uuid {
        Uuid::from_u64_pair(self.next(), self.next())
    }
}

const PORTS: [Option<&str>; 6] = [
    Some("PVG"),
    Some("CAN"),
    Some(" SHA "),
    Some("PEK"),
    None,
    Some("  "),
];

fn form(rng: &mut Rng, serial: usize) -> DeclarationData {
    let tracking = match rng.below(10) {
        0 => None,
        1 => Some("   ".to_string()),
        2 => Some(format!(" 1Z{serial:08} ")),
        _ => Some(format!("1Z{serial:08}")),
    };
    let goods = (0..rng.below(4))
        .map(|i| GoodsLine {
            goods_name: Some(format!("goods {i}")),
            total_price: (!rng.chance(20))
                .then(|| Decimal::new(rng.below(1_000_000) as i64, rng.below(3) as u32)),
            currency: rng
                .pick(&[None, Some("USD"), Some(" "), Some("CNY")])
                .map(Into::into),
            ..GoodsLine::default()
        })
        .collect();
    DeclarationData {
        tracking_number: tracking,
        port: rng.pick(&PORTS).map(Into::into),
        slic: rng
            .pick(&[None, Some("2001"), Some("3100")])
            .map(Into::into),
        service_type: rng.pick(&[None, Some("007"), Some("065")]).map(Into::into),
        estimated_pickup_time: rng.chance(70).then(|| {
            FixedOffset::east_opt(8 * 3600)
                .and_then(|tz| {
                    tz.with_ymd_and_hms(2026, 11, 20, rng.below(24) as u32, 30, 0)
                        .single()
                })
                .unwrap_or_default()
        }),
        currency_code: rng.pick(&[None, Some("EUR")]).map(Into::into),
        consignee_company_cn: rng
            .pick(&[None, Some("上海收货有限公司"), Some("")])
            .map(Into::into),
        recipient_name: rng.pick(&[None, Some("Li Lei")]).map(Into::into),
        note: rng.chance(30).then(|| format!("note {}", rng.next())),
        entry_id: rng
            .chance(30)
            .then(|| format!("2224{serial:014}"))
            .or_else(|| rng.chance(5).then(|| " ".into())),
        cus_ciq_no: rng.chance(20).then(|| format!("I{serial:014}")),
        declaration_goods_info: goods,
        ..DeclarationData::default()
    }
}

struct Stream {
    id: Uuid,
    customer: Uuid,
    serial: usize,
    status: S,
    version: i64,
    left: usize,
    port: Option<String>,
}

/// One generated event in feed order.
struct Generated {
    stream_type: &'static str,
    stream_id: Uuid,
    version: i64,
    event: NewEvent,
    metadata: Metadata,
}

fn metadata(rng: &mut Rng, customer: Uuid, actors: &[(Uuid, &str, &str)]) -> Metadata {
    let (actor, name, role) = *rng.pick(actors);
    Metadata {
        actor_id: (!rng.chance(5)).then_some(actor),
        actor_name: Some(name.into()),
        actor_role: (!rng.chance(5)).then(|| role.to_string()),
        customer_id: match rng.below(10) {
            0 => None,
            1 => Some(Uuid::nil()),
            _ => Some(customer),
        },
        correlation_id: rng.uuid(),
        command_id: rng.uuid(),
        ..Metadata::default()
    }
}

fn transition(rng: &mut Rng, from: S, to: S, receipt: Option<&str>) -> Transition {
    Transition {
        from,
        to,
        reason: rng.chance(30).then(|| format!("reason {}", rng.below(100))),
        receipt_code: receipt.map(Into::into),
        tax_estimate: None,
    }
}

/// The next event of `stream` after its draft: any kind, statuses roughly as the workflow
/// goes (the projections do not check transitions, so neither does this).
fn next_event(rng: &mut Rng, stream: &mut Stream) -> DeclarationEvent {
    let from = stream.status;
    let event = match rng.below(112) {
        0..=19 => {
            let data = form(rng, stream.serial);
            let changes = vec![FieldChange {
                field: "port".into(),
                old: json!(stream.port),
                new: json!(data.port),
            }];
            DeclarationEvent::Edited(Edited { data, changes })
        }
        20..=24 => DeclarationEvent::Amended(Amended {
            from,
            to: *rng.pick(&[S::ReviewedNotCompleted, S::Unprocessed]),
            reason: format!("amend {}", rng.below(10)),
            data: form(rng, stream.serial),
            changes: vec![],
        }),
        25..=27 => DeclarationEvent::Deleted(transition(rng, from, S::Deleted, None)),
        28..=44 => DeclarationEvent::Submitted(transition(rng, from, S::Unprocessed, None)),
        45..=49 => DeclarationEvent::Withdrawn(transition(rng, from, S::Draft, None)),
        50..=61 => DeclarationEvent::Reviewed(transition(rng, from, S::ReviewedNotCompleted, None)),
        62..=69 => {
            let to = *rng.pick(&[S::ReturnedNotSubmitted, S::ReturnedNotCompleted]);
            DeclarationEvent::Returned(transition(rng, from, to, None))
        }
        70..=79 => {
            let receipt = *rng.pick(&[Some("P"), Some("R"), None]);
            DeclarationEvent::Completed(transition(rng, from, S::Completed, receipt))
        }
        80..=87 => {
            let receipt = *rng.pick(&[Some("E"), Some("Z"), None]);
            DeclarationEvent::Rejected(transition(rng, from, S::DocumentException, receipt))
        }
        88..=93 => DeclarationEvent::Redeclared(transition(rng, from, S::Unprocessed, None)),
        94..=99 => {
            let receipt = *rng.pick(&[Some("Y"), None]);
            DeclarationEvent::SentBack(transition(rng, from, S::ReturnedNotCompleted, receipt))
        }
        100..=106 => {
            // Notice times out of order (and repeated), so the newest is not the last.
            let notice = FixedOffset::east_opt(8 * 3600)
                .and_then(|tz| {
                    tz.with_ymd_and_hms(2026, 11, 20, rng.below(24) as u32, 0, 0)
                        .single()
                })
                .unwrap_or_default();
            DeclarationEvent::CustomsReceiptRecorded(CustomsReceiptRecorded {
                receipt: CustomsReceipt {
                    cop_no: format!("CW{:016X}", stream.serial),
                    channel: (*rng.pick(&["L", "G", "C", "Sp1", "P", "E"])).into(),
                    notice_date: notice,
                    cus_ciq_no: None,
                    entry_id: None,
                    note: None,
                    taxes: Vec::new(),
                    docs: Vec::new(),
                },
                effect: *rng.pick(&[ReceiptEffect::Progress, ReceiptEffect::Late]),
                source: "r.xml".into(),
            })
        }
        _ => DeclarationEvent::CustomsMessageSent(CustomsMessageSent {
            cop_no: format!("CW{:016X}", stream.serial),
            kind: (*rng.pick(&["declaration", "supplement"])).into(),
            file_name: "m.xml".into(),
            sha256: "00".into(),
            made_from_version: stream.version,
        }),
    };
    match &event {
        DeclarationEvent::Edited(e) => stream.port = e.data.port.clone(),
        DeclarationEvent::Amended(a) => {
            stream.port = a.data.port.clone();
            stream.status = a.to;
        }
        other => {
            if let Some((_, to)) = other.status_change() {
                stream.status = to;
            }
        }
    }
    event
}

/// A feed of `declarations` declarations of 1 to `2 * mean_events - 1` events each, about
/// `window` of them open at a time (so a declaration's events spread over many batches),
/// with events of other streams in between.
fn generate(seed: u64, declarations: usize, mean_events: usize, window: usize) -> Vec<Generated> {
    let mut rng = Rng(seed);
    let customers: Vec<Uuid> = (0..7).map(|_| rng.uuid()).collect();
    let actors: Vec<(Uuid, &str, &str)> = vec![
        (rng.uuid(), "acme", "CUSTOMER"),
        (rng.uuid(), "operator", "OPERATOR"),
        (rng.uuid(), "admin", "ADMIN"),
        (rng.uuid(), "global", "CUSTOMER"),
    ];
    let other_stream = rng.uuid();
    let mut other_version = 0;
    let mut feed = Vec::new();
    let mut open: Vec<Stream> = Vec::new();
    let mut started = 0;
    while started < declarations || !open.is_empty() {
        if started < declarations && (open.len() < window || rng.chance(2)) {
            let customer = *rng.pick(&customers);
            let id = rng.uuid();
            let data = form(&mut rng, started);
            let stream = Stream {
                id,
                customer,
                serial: started,
                status: S::Draft,
                version: 1,
                left: rng.below(2 * mean_events - 1),
                port: data.port.clone(),
            };
            let drafted = DeclarationEvent::Drafted(Drafted {
                declaration_id: id,
                declaration_type: *rng.pick(&TypeCode::ALL),
                customer_id: customer,
                username: rng.pick(&["acme", "globex", "initech"]).to_string(),
                company_name: rng.pick(&[None, Some("Acme Trading")]).map(Into::into),
                data,
                upload: None,
                provenance: None,
            });
            feed.push(Generated {
                stream_type: declaration::STREAM_TYPE,
                stream_id: id,
                version: 1,
                event: drafted.to_new_event(),
                metadata: metadata(&mut rng, customer, &actors),
            });
            open.push(stream);
            started += 1;
            continue;
        }
        if rng.chance(10) {
            other_version += 1;
            feed.push(Generated {
                stream_type: "customer",
                stream_id: other_stream,
                version: other_version,
                event: NewEvent {
                    event_type: "CustomerNoted".into(),
                    schema_version: 1,
                    payload: json!({ "n": other_version }),
                },
                metadata: Metadata::default(),
            });
            continue;
        }
        let at = rng.below(open.len());
        let stream = &mut open[at];
        if stream.left == 0 {
            open.swap_remove(at);
            continue;
        }
        stream.left -= 1;
        stream.version += 1;
        let event = next_event(&mut rng, stream);
        let (id, version, customer) = (stream.id, stream.version, stream.customer);
        feed.push(Generated {
            stream_type: declaration::STREAM_TYPE,
            stream_id: id,
            version,
            event: event.to_new_event(),
            metadata: metadata(&mut rng, customer, &actors),
        });
    }
    feed
}

/// Writes `feed` to the event store in feed order, `step` apart in time from 23:00 in
/// Shanghai on (so creation days change along the feed), and answers its size.
async fn store(pool: &PgPool, feed: &[Generated], step: Duration) -> Result<usize, sqlx::Error> {
    let start = Utc
        .with_ymd_and_hms(2026, 11, 20, 15, 0, 0)
        .single()
        .unwrap_or_default();
    let step = chrono::Duration::from_std(step).unwrap_or_default();
    for (chunk_at, chunk) in feed.chunks(2000).enumerate() {
        let base = chunk_at * 2000;
        let types: Vec<&str> = chunk.iter().map(|g| g.stream_type).collect();
        let ids: Vec<Uuid> = chunk.iter().map(|g| g.stream_id).collect();
        let versions: Vec<i64> = chunk.iter().map(|g| g.version).collect();
        let event_ids: Vec<Uuid> = chunk.iter().map(|_| Uuid::now_v7()).collect();
        let event_types: Vec<&str> = chunk.iter().map(|g| g.event.event_type.as_str()).collect();
        let schemas: Vec<i32> = chunk.iter().map(|g| g.event.schema_version).collect();
        let payloads: Vec<&Value> = chunk.iter().map(|g| &g.event.payload).collect();
        let metadata: Vec<Value> = chunk
            .iter()
            .map(|g| serde_json::to_value(&g.metadata).unwrap_or_default())
            .collect();
        let recorded: Vec<DateTime<Utc>> = (0..chunk.len())
            .map(|i| start + step * i32::try_from(base + i).unwrap_or(i32::MAX))
            .collect();
        sqlx::query(
            "INSERT INTO events (stream_type, stream_id, stream_version, event_id, event_type,
                                 schema_version, payload, metadata, recorded_at)
             SELECT t, s, v, e, et, sv, p, m, r
             FROM UNNEST($1::text[], $2::uuid[], $3::int8[], $4::uuid[], $5::text[],
                         $6::int4[], $7::jsonb[], $8::jsonb[], $9::timestamptz[])
                  WITH ORDINALITY AS u(t, s, v, e, et, sv, p, m, r, ord)
             ORDER BY ord",
        )
        .bind(&types)
        .bind(&ids)
        .bind(&versions)
        .bind(&event_ids)
        .bind(&event_types)
        .bind(&schemas)
        .bind(&payloads)
        .bind(&metadata)
        .bind(&recorded)
        .execute(pool)
        .await?;
    }
    Ok(feed.len())
}

/// The whole feed as the runtime reads it. The feed stops below the oldest running
/// transaction of the cluster, which others may hold back for a moment: read on until all.
async fn read_feed(
    pool: &PgPool,
    expected: usize,
) -> Result<Vec<RecordedEvent>, Box<dyn std::error::Error>> {
    let store = EventStore::new(pool.clone());
    let mut all: Vec<RecordedEvent> = Vec::with_capacity(expected);
    let deadline = Instant::now() + Duration::from_secs(60);
    while all.len() < expected {
        let after = all.last().map_or(Checkpoint::ZERO, |e| Checkpoint {
            tx_id: e.tx_id,
            position: e.global_position,
        });
        let page = store.read_all_after(after, 10_000).await?;
        if page.is_empty() {
            if Instant::now() > deadline {
                return Err("the feed did not come out whole".into());
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        all.extend(page);
    }
    Ok(all)
}

/// The feed with replays: now and then an earlier event (or the one just applied) again.
fn with_replays(feed: &[RecordedEvent], seed: u64) -> Vec<RecordedEvent> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(feed.len() + feed.len() / 10);
    for (at, event) in feed.iter().enumerate() {
        out.push(event.clone());
        if rng.chance(8) {
            out.push(feed[rng.below(at + 1)].clone());
        }
        if rng.chance(1) {
            let from = rng.below(at + 1);
            out.extend_from_slice(&feed[from..=at.min(from + 20)]);
        }
    }
    out
}

fn projections() -> Vec<Arc<dyn Projection>> {
    vec![
        declaration_list::projection(),
        declaration_history::projection(),
    ]
}

/// Every table of both projections, every column. Pending counter changes are compared
/// by their sum per counter (the rows differ: a batch nets them), which is what readers use.
async fn snapshot(pool: &PgPool) -> Result<Vec<Vec<Value>>, sqlx::Error> {
    let queries = [
        "SELECT to_jsonb(t) FROM rm_declarations t ORDER BY id",
        "SELECT to_jsonb(t) FROM rm_declaration_history t ORDER BY position",
        "SELECT to_jsonb(t) FROM rm_declaration_counts t
         ORDER BY scope, declaration_type, status, day",
        "SELECT jsonb_build_array(scope, declaration_type, status, day, sum(n))
         FROM rm_declaration_count_deltas
         GROUP BY scope, declaration_type, status, day HAVING sum(n) <> 0
         ORDER BY scope, declaration_type, status, day",
        // The counters (folded plus pending) against counting the rows.
        "WITH kept AS (
             SELECT scope, declaration_type, status, day, sum(n) AS n FROM (
                 SELECT scope, declaration_type, status, day, n FROM rm_declaration_counts
                 UNION ALL
                 SELECT scope, declaration_type, status, day, n FROM rm_declaration_count_deltas
             ) c
             GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0),
         counted AS (
             SELECT s.scope, declaration_type, status,
                    (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, count(*) AS n
             FROM rm_declarations
             CROSS JOIN LATERAL (VALUES (customer_id),
                 ('00000000-0000-0000-0000-000000000000'::uuid),
                 (md5('port:' || port)::uuid)) s(scope)
             WHERE s.scope IS NOT NULL
             GROUP BY 1, 2, 3, 4)
         SELECT to_jsonb(x) FROM (
             (TABLE kept EXCEPT TABLE counted) UNION ALL (TABLE counted EXCEPT TABLE kept)) x",
    ];
    let mut tables = Vec::new();
    for query in queries {
        tables.push(sqlx::query_scalar(query).fetch_all(pool).await?);
    }
    Ok(tables)
}

async fn truncate(pool: &PgPool) -> Result<(), sqlx::Error> {
    sqlx::query(
        "TRUNCATE rm_declarations, rm_declaration_counts, rm_declaration_count_deltas,
                  rm_declaration_history",
    )
    .execute(pool)
    .await?;
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn batches_of_any_size_give_the_tables_of_event_by_event(pool: PgPool) -> TestResult {
    // ~350 declarations, ~2,500 declaration events and ~300 of other streams, positions
    // past the fold at 4096 (a block of other events first), about 3 days.
    let mut feed = generate(20261122, 350, 8, 60);
    let filler: Vec<Generated> = (1..=1500)
        .map(|n| Generated {
            stream_type: "customer",
            stream_id: Uuid::from_u64_pair(7, 7),
            version: n,
            event: NewEvent {
                event_type: "CustomerNoted".into(),
                schema_version: 1,
                payload: json!({ "n": n }),
            },
            metadata: Metadata::default(),
        })
        .collect();
    feed.splice(0..0, filler);
    let stored = store(&pool, &feed, Duration::from_secs(90)).await?;
    let recorded = read_feed(&pool, stored).await?;
    assert!(
        recorded.last().map_or(0, |e| e.global_position) > declaration_list::FOLD_EVERY,
        "the feed must reach a fold position"
    );
    let applied = with_replays(&recorded, 7);

    let mut conn = pool.acquire().await?;
    for projection in projections() {
        for event in &applied {
            apply_events(projection.as_ref(), &mut conn, std::slice::from_ref(event)).await?;
        }
    }
    let expected = snapshot(&pool).await?;
    let [list, history, counts, pending, disagreeing] = expected.as_slice() else {
        return Err("five snapshots".into());
    };
    assert!(list.len() > 300, "{} declarations", list.len());
    assert!(history.len() > 2000, "{} history rows", history.len());
    assert!(!counts.is_empty() && !pending.is_empty());
    assert!(disagreeing.is_empty(), "counters disagree: {disagreeing:?}");
    let deleted = list.iter().filter(|r| r["status"] == json!(5)).count();
    let submitted = list
        .iter()
        .filter(|r| r["draft_status"] == json!(1))
        .count();
    let without_port = list.iter().filter(|r| r["port"].is_null()).count();
    assert!(deleted > 0 && submitted > 0 && without_port > 0);

    for size in [1, 7, 100, 5000] {
        truncate(&pool).await?;
        for projection in projections() {
            for chunk in applied.chunks(size) {
                apply_events(projection.as_ref(), &mut conn, chunk).await?;
            }
        }
        let batched = snapshot(&pool).await?;
        for (table, (want, got)) in expected.iter().zip(&batched).enumerate() {
            assert_eq!(want.len(), got.len(), "batches of {size}, table {table}");
            for (w, g) in want.iter().zip(got) {
                assert_eq!(w, g, "batches of {size}, table {table}");
            }
        }
    }

    // Batches over tables that already hold the feed (a replay) change no row and no
    // counter (a fold position replayed folds the pending changes again, which moves them
    // from one counter table to the other).
    for projection in projections() {
        for chunk in applied.chunks(333) {
            apply_events(projection.as_ref(), &mut conn, chunk).await?;
        }
    }
    let replayed = snapshot(&pool).await?;
    assert_eq!(replayed[0], expected[0]);
    assert_eq!(replayed[1], expected[1]);
    assert!(
        replayed[4].is_empty(),
        "counters disagree: {:?}",
        replayed[4]
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn a_batch_continues_a_read_model_built_event_by_event(pool: PgPool) -> TestResult {
    let feed = generate(42, 120, 10, 40);
    let stored = store(&pool, &feed, Duration::from_secs(300)).await?;
    let recorded = read_feed(&pool, stored).await?;
    let mut conn = pool.acquire().await?;
    for projection in projections() {
        for event in &recorded {
            apply_events(projection.as_ref(), &mut conn, std::slice::from_ref(event)).await?;
        }
    }
    let expected = snapshot(&pool).await?;

    // Half event by event, the rest (with the last stretch of the first half again) in
    // one batch.
    truncate(&pool).await?;
    let half = recorded.len() / 2;
    for projection in projections() {
        for event in &recorded[..half] {
            apply_events(projection.as_ref(), &mut conn, std::slice::from_ref(event)).await?;
        }
        apply_events(projection.as_ref(), &mut conn, &recorded[half - 50..]).await?;
    }
    assert_eq!(snapshot(&pool).await?, expected);
    Ok(())
}

/// A projection applied event by event: its one apply, over windows of one event.
struct PerEvent(Arc<dyn Projection>);

impl Projection for PerEvent {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn tables(&self) -> &'static [&'static str] {
        self.0.tables()
    }
    fn stream_types(&self) -> Option<&'static [&'static str]> {
        self.0.stream_types()
    }
    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            for index in 0..window.events.len() {
                let mut one = window.part(index..index + 1);
                self.0.apply(&mut *tx, &mut one).await?;
            }
            Ok(())
        })
    }
}

/// Decodes the declaration events and writes nothing: the floor of any projection.
struct DecodeOnly;

impl Projection for DecodeOnly {
    fn name(&self) -> &'static str {
        "decode_only"
    }
    fn tables(&self) -> &'static [&'static str] {
        &[]
    }
    fn apply<'a>(
        &'a self,
        _tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        Box::pin(async move {
            for (event, payload) in window.events.iter().zip(&window.payloads) {
                if event.stream_type == declaration::STREAM_TYPE {
                    DeclarationEvent::from_json(event, payload)?;
                }
            }
            Ok(())
        })
    }
}

/// Full-rebuild throughput, batched against event by event, in the same run. A measurement,
/// not a check: `DECL_BENCH_DECLARATIONS=25000 cargo test --release -p projector --test
/// declaration_batches -- --ignored --nocapture` (25,000 declarations: ~200,000 events,
/// ~1,000 declarations open at a time, so a declaration's events span several batches).
/// `DECL_BENCH_PER_EVENT=0` skips the slow per-event runs; `DECL_BENCH_ONLY=<name part>` runs
/// only the projections whose name holds it.
#[sqlx::test(migrations = "../migrations")]
#[ignore]
async fn rebuild_throughput_batched_and_per_event(pool: PgPool) -> TestResult {
    let declarations: usize = std::env::var("DECL_BENCH_DECLARATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25_000);
    let per_event = std::env::var("DECL_BENCH_PER_EVENT").map_or(true, |v| v != "0");
    let feed = generate(1, declarations, 8, 1000);
    let total = store(&pool, &feed, Duration::from_secs(2)).await?;
    drop(feed);
    sqlx::query("VACUUM ANALYZE events").execute(&pool).await?;
    println!("{total} events in the feed");

    let mut runs: Vec<(&str, Arc<dyn Projection>)> = vec![("decode only", Arc::new(DecodeOnly))];
    for projection in projections() {
        runs.push(("batched", projection.clone()));
        if per_event {
            runs.push(("per event", Arc::new(PerEvent(projection))));
        }
    }
    println!(
        "wall-clock rate, then CPU seconds of this process and of the database's server \
         processes and the rate they alone would allow (less sensitive to a busy machine)"
    );
    // Connections that stay open, so their server processes can be measured.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .min_connections(2)
        .max_connections(2)
        .idle_timeout(None)
        .max_lifetime(None)
        .connect_with(pool.connect_options().as_ref().clone())
        .await?;
    let pids: Vec<i32> = server_cpu(&pool).await?.into_keys().collect();
    println!("server processes of this database: {pids:?}");
    let only = std::env::var("DECL_BENCH_ONLY").unwrap_or_default();
    for (how, projection) in runs {
        if !projection.name().contains(&only) {
            continue;
        }
        let before = server_cpu(&pool).await?;
        let client = cpu_seconds(0).unwrap_or_default();
        let started = Instant::now();
        let applied = rebuild(&pool, projection.as_ref()).await?;
        let secs = started.elapsed().as_secs_f64();
        let client = cpu_seconds(0).unwrap_or_default() - client;
        let server: f64 = server_cpu(&pool)
            .await?
            .iter()
            .map(|(pid, after)| after - before.get(pid).copied().unwrap_or_default())
            .sum();
        println!(
            "{:<20} {how:<10} {applied:>7} events in {secs:>6.2} s = {:>6.0} events/s; \
             cpu {client:.2} s + {server:.2} s = {:>6.0} events/s",
            projection.name(),
            applied as f64 / secs,
            applied as f64 / (client + server)
        );
    }
    Ok(())
}

/// CPU seconds so far of each server process of the current database.
async fn server_cpu(pool: &PgPool) -> Result<HashMap<i32, f64>, sqlx::Error> {
    let pids: Vec<i32> =
        sqlx::query_scalar("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
            .fetch_all(pool)
            .await?;
    Ok(pids
        .into_iter()
        .filter_map(|pid| Some((pid, cpu_seconds(pid)?)))
        .collect())
}

/// User + system CPU seconds of a process (0: this one), from /proc (Linux only; none for a
/// database on another host).
fn cpu_seconds(pid: i32) -> Option<f64> {
    let path = if pid == 0 {
        "/proc/self/stat".to_string()
    } else {
        format!("/proc/{pid}/stat")
    };
    let stat = std::fs::read_to_string(path).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
