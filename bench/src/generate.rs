//! Generated data with realistic distributions: declaration form data, read-model rows
//! (`rm_declarations` + its counters) and declaration events, loaded with COPY.

use std::time::Instant;

use chrono::{DateTime, Duration, TimeZone, Utc};
use events::declaration::{
    DeclarationData, DeclarationEvent, DeclarationStatus, Drafted, Edited, FieldChange, Transition,
    TypeCode,
};
use events::{DomainEvent, Metadata};
use projector::declaration_list::Derived;
use rust_decimal::Decimal;
use sqlx::PgPool;
use uuid::Uuid;

use crate::db::{copy_field, copy_text};

/// xorshift64*: small, fast, deterministic.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n.saturating_sub(1))
    }

    pub fn pick<'a, T>(&mut self, weighted: &'a [(T, u32)]) -> &'a T {
        let total: u32 = weighted.iter().map(|(_, w)| *w).sum();
        let mut r = (self.unit() * f64::from(total)) as u32;
        for (v, w) in weighted {
            if r < *w {
                return v;
            }
            r -= w;
        }
        &weighted[weighted.len() - 1].0
    }
}

/// Type codes, weighted: class C (e-commerce parcels) dominates, exports more than imports.
pub const TYPES: [(&str, u32); 6] = [
    ("OC", 30),
    ("IC", 20),
    ("OD", 15),
    ("ID", 10),
    ("OB", 15),
    ("IB", 10),
];
/// Class D only (the export's default report type).
pub const TYPES_D: [(&str, u32); 2] = [("OD", 60), ("ID", 40)];

/// Status codes, weighted like a live system: most are completed.
pub const STATUSES: [(i16, u32); 8] = [
    (0, 8),
    (1, 8),
    (2, 7),
    (3, 55),
    (4, 4),
    (5, 6),
    (10, 6),
    (11, 6),
];
/// The export's data: nothing deleted, so the report covers every row.
pub const STATUSES_LIVE: [(i16, u32); 7] =
    [(0, 8), (1, 8), (2, 7), (3, 55), (4, 4), (10, 6), (11, 6)];

/// Carrier ports with their SLIC and weight.
pub const PORTS: [(&str, &str, u32); 7] = [
    ("PVG", "SHA01", 30),
    ("CGO", "CGO01", 15),
    ("SZX", "SZX01", 20),
    ("CAN", "CAN01", 10),
    ("PEK", "PEK01", 12),
    ("XMN", "XMN01", 6),
    ("CTU", "CTU01", 7),
];

pub const CUSTOMERS: usize = 200;

/// Customer `i`: 0 and 1 are the demo companies acme and globex (so their tokens see rows).
pub fn customer(i: usize) -> (Uuid, String, String) {
    match i {
        0 => (
            clearway::seed::customer_id("acme"),
            "acme".into(),
            clearway::seed::COMPANIES[0].company.into(),
        ),
        1 => (
            clearway::seed::customer_id("globex"),
            "globex".into(),
            clearway::seed::COMPANIES[1].company.into(),
        ),
        _ => (
            Uuid::new_v5(
                &Uuid::NAMESPACE_OID,
                format!("bench-customer-{i}").as_bytes(),
            ),
            format!("cust{i:03}"),
            format!("Benchmark Trading Co. {i:03}"),
        ),
    }
}

/// Skewed towards low indexes: customer 0 has ~7%, the top 20 about a third of all rows.
pub fn pick_customer(rng: &mut Rng) -> usize {
    let u = rng.unit();
    ((u * u) * CUSTOMERS as f64) as usize % CUSTOMERS
}

pub fn pick_port(rng: &mut Rng) -> (&'static str, &'static str) {
    let weighted: Vec<((&str, &str), u32)> = PORTS.iter().map(|(p, s, w)| ((*p, *s), *w)).collect();
    *rng.pick(&weighted)
}

/// Unique, realistic-looking tracking number of declaration `i`.
pub fn tracking(i: u64) -> String {
    format!("CW{:012}", i)
}

/// The end of the generated time span: now, rounded down to the second.
pub fn now() -> DateTime<Utc> {
    Utc.timestamp_opt(Utc::now().timestamp(), 0)
        .single()
        .unwrap_or_else(Utc::now)
}

/// A realistic form: the seed's valid class C export, varied per declaration.
pub fn declaration_data(
    rng: &mut Rng,
    tracking: &str,
    port: &str,
    slic: &str,
    import: bool,
    created: DateTime<Utc>,
) -> DeclarationData {
    let mut data = clearway::seed::demo_c_export(tracking, port, slic);
    data.estimated_pickup_time = Some(
        (created + Duration::minutes(60 + rng.below(3 * 24 * 60) as i64))
            .with_timezone(&chrono_tz::Asia::Shanghai)
            .fixed_offset(),
    );
    data.shipper_phone = Some(format!("13{:09}", rng.next_u64() % 1_000_000_000));
    data.recipient_phone = Some(format!("+1 502 555 {:04}", rng.next_u64() % 10_000));
    let id = format!("3101{:014}", rng.next_u64() % 100_000_000_000_000);
    if import {
        data.recipient_id_number = Some(id);
        data.recipient_name = Some(format!("王{}", rng.below(1000)));
    } else {
        data.shipper_id_number = Some(id);
        data.recipient_name = Some(format!("Customer {}", rng.below(100_000)));
    }
    data.gross_weight = Some(Decimal::new(10 + rng.below(300) as i64, 1));
    if rng.below(3) == 0 {
        data.declaration_goods_info.truncate(1);
    }
    data
}

/// A time-ordered id (UUIDv7, as `Uuid::now_v7()` makes them) for a creation time.
pub fn v7(created: DateTime<Utc>, rng: &mut Rng) -> Uuid {
    let mut random = [0u8; 10];
    random[..8].copy_from_slice(&rng.next_u64().to_le_bytes());
    random[8..].copy_from_slice(&rng.next_u64().to_le_bytes()[..2]);
    let millis = u64::try_from(created.timestamp_millis()).unwrap_or(0);
    uuid::Builder::from_unix_timestamp_millis(millis, &random).into_uuid()
}

fn copy_time(out: &mut String, t: Option<DateTime<Utc>>, last: bool) {
    let s = t.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Micros, true));
    copy_field(out, s.as_deref(), last);
}

/// Shape of a generated read-model table.
#[derive(Clone)]
pub struct RowSpec {
    pub rows: u64,
    pub days: i64,
    pub types: &'static [(&'static str, u32)],
    pub statuses: &'static [(i16, u32)],
    pub seed: u64,
}

/// What the list benchmark needs to know about the generated rows.
pub struct Generated {
    pub ids: Vec<Uuid>,
    pub end: DateTime<Utc>,
}

/// Loads `spec.rows` rows into `rm_declarations` (COPY on two connections at once, with the
/// secondary indexes dropped meanwhile and built again afterwards, as for any bulk load) and the
/// matching counters into `rm_declaration_counts` (the scopes the projection
/// `declaration_list` keeps: per customer, for all (nil uuid), per carrier port
/// (`md5('port:' || port)::uuid`); the list benchmark checks totals against the rows), then
/// VACUUM ANALYZE (what autovacuum does
/// to a table after a bulk load; it also sets the visibility map for index-only counts).
pub async fn fill_declarations(pool: &PgPool, spec: &RowSpec) -> anyhow::Result<Generated> {
    let started = Instant::now();
    let end = now();
    let indexes = crate::db::drop_plain_indexes(pool, "rm_declarations").await?;
    let streams = 2u64;
    let per = spec.rows.div_ceil(streams);
    let mut tasks = Vec::new();
    for s in 0..streams {
        let (lo, hi) = (s * per, ((s + 1) * per).min(spec.rows));
        let pool = pool.clone();
        let spec = spec.clone();
        tasks.push(tokio::spawn(async move {
            copy_rows(&pool, &spec, lo, hi, end).await
        }));
    }
    let mut ids = Vec::with_capacity(usize::try_from(spec.rows).unwrap_or(0));
    for t in tasks {
        ids.extend(t.await??);
    }
    let loaded = started.elapsed();
    let index_count = indexes.len();
    crate::db::create_indexes(pool, indexes).await?;
    let indexed = started.elapsed();
    sqlx::query(
        "INSERT INTO rm_declaration_counts (scope, declaration_type, status, day, n)
         SELECT scope, declaration_type, status, day, count(*) FROM (
             SELECT customer_id AS scope, declaration_type, status,
                    (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day FROM rm_declarations
             UNION ALL
             SELECT '00000000-0000-0000-0000-000000000000'::uuid, declaration_type, status,
                    (created_at AT TIME ZONE 'Asia/Shanghai')::date FROM rm_declarations
             UNION ALL
             SELECT md5('port:' || port)::uuid, declaration_type, status,
                    (created_at AT TIME ZONE 'Asia/Shanghai')::date FROM rm_declarations
             WHERE port IS NOT NULL
         ) s GROUP BY 1, 2, 3, 4
         ON CONFLICT (scope, declaration_type, status, day) DO UPDATE SET n = EXCLUDED.n",
    )
    .execute(pool)
    .await?;
    sqlx::query("VACUUM (ANALYZE) rm_declarations")
        .execute(pool)
        .await?;
    sqlx::query("VACUUM (ANALYZE) rm_declaration_counts")
        .execute(pool)
        .await?;
    let size: String =
        sqlx::query_scalar("SELECT pg_size_pretty(pg_total_relation_size('rm_declarations'))")
            .fetch_one(pool)
            .await?;
    println!(
        "generated {} rows in rm_declarations: COPY {:.1} s, {index_count} secondary indexes \
         rebuilt {:.1} s, counters + VACUUM ANALYZE {:.1} s; table with indexes {size}",
        spec.rows,
        loaded.as_secs_f64(),
        (indexed - loaded).as_secs_f64(),
        (started.elapsed() - indexed).as_secs_f64()
    );
    Ok(Generated { ids, end })
}

async fn copy_rows(
    pool: &PgPool,
    spec: &RowSpec,
    lo: u64,
    hi: u64,
    end: DateTime<Utc>,
) -> anyhow::Result<Vec<Uuid>> {
    let mut conn = pool.acquire().await?;
    let mut copy = conn
        .copy_in_raw(
            "COPY rm_declarations (id, version, position, tracking_number, declaration_type, \
             declaration_class, shipment_type, status, draft_status, declaration_status, \
             customer_id, username, company_name, port, slic, service_type, \
             estimated_pickup_time, goods_count, total_value, currency, consignee_name, \
             created_at, updated_at, submitted_at, data) FROM STDIN",
        )
        .await?;
    let mut ids = Vec::with_capacity(usize::try_from(hi - lo).unwrap_or(0));
    let mut buf = String::with_capacity(8 << 20);
    let span_secs = spec.days * 86_400;
    let mut generating = std::time::Duration::ZERO;
    let mut t = Instant::now();
    for i in lo..hi {
        let mut rng = Rng::new(spec.seed ^ i.wrapping_mul(0x1000_0000_01B3));
        let type_code = *rng.pick(spec.types);
        let status = *rng.pick(spec.statuses);
        let customer_idx = pick_customer(&mut rng);
        let (customer_id, username, company) = customer(customer_idx);
        let (port, slic) = pick_port(&mut rng);
        let created = end - Duration::seconds((rng.unit() * span_secs as f64) as i64 + 1);
        let updated = created + Duration::seconds(rng.below(3 * 86_400) as i64);
        let tracking = tracking(i);
        let import = type_code.starts_with('I');
        let data = declaration_data(&mut rng, &tracking, port, slic, import, created);
        let derived = Derived::of(&data);
        let id = v7(created, &mut rng);
        ids.push(id);
        let version = match status {
            0 => 1 + rng.below(2) as i64,
            1 => 2,
            2 => 3,
            3 => 4,
            _ => 5,
        };
        let s = |v: &str| Some(v.to_string());
        let fields: [Option<String>; 13] = [
            s(&id.to_string()),
            s(&version.to_string()),
            s(&(i + 1).to_string()),
            derived.tracking_number.clone(),
            s(type_code),
            s(&type_code[1..]),
            s(if import { "0" } else { "1" }),
            s(&status.to_string()),
            s(if status == 0 { "0" } else { "1" }),
            match status {
                3 => s("P"),
                4 => s("E"),
                _ => None,
            },
            s(&customer_id.to_string()),
            s(&username),
            s(&company),
        ];
        for f in &fields {
            copy_field(&mut buf, f.as_deref(), false);
        }
        copy_field(&mut buf, derived.port.as_deref(), false);
        copy_field(&mut buf, derived.slic.as_deref(), false);
        copy_field(&mut buf, derived.service_type.as_deref(), false);
        copy_time(&mut buf, derived.estimated_pickup_time, false);
        copy_field(&mut buf, Some(&derived.goods_count.to_string()), false);
        copy_field(
            &mut buf,
            derived.total_value.map(|d| d.to_string()).as_deref(),
            false,
        );
        copy_field(&mut buf, derived.currency.as_deref(), false);
        copy_field(&mut buf, derived.consignee_name.as_deref(), false);
        copy_time(&mut buf, Some(created), false);
        copy_time(&mut buf, Some(updated), false);
        copy_time(
            &mut buf,
            (status != 0).then_some(created + Duration::minutes(30)),
            false,
        );
        copy_text(&mut buf, &serde_json::to_string(&data)?);
        buf.push('\n');
        if buf.len() > (4 << 20) {
            generating += t.elapsed();
            copy.send(buf.as_bytes()).await?;
            buf.clear();
            t = Instant::now();
        }
    }
    generating += t.elapsed();
    if !buf.is_empty() {
        copy.send(buf.as_bytes()).await?;
    }
    copy.finish().await?;
    tracing::info!(
        rows = hi - lo,
        generating_secs = generating.as_secs_f64(),
        "rows copied"
    );
    Ok(ids)
}

/// The five events of one declaration's life: drafted, edited, submitted, reviewed,
/// completed, with the metadata the command side writes.
pub struct EventRow {
    pub stream_id: Uuid,
    pub version: i64,
    pub event: DeclarationEvent,
    pub metadata: Metadata,
    pub recorded_at: DateTime<Utc>,
}

pub fn declaration_events(i: u64, seed: u64, end: DateTime<Utc>, days: i64) -> Vec<EventRow> {
    let mut rng = Rng::new(seed ^ i.wrapping_mul(0x1000_0000_01B3));
    let type_code: TypeCode = rng.pick(&TYPES).parse().unwrap_or(TypeCode::ALL[0]);
    let customer_idx = pick_customer(&mut rng);
    let (customer_id, username, company) = customer(customer_idx);
    let (port, slic) = pick_port(&mut rng);
    let created = end - Duration::seconds((rng.unit() * (days * 86_400) as f64) as i64 + 1);
    let tracking = tracking(i);
    let import = type_code.as_str().starts_with('I');
    let data = declaration_data(&mut rng, &tracking, port, slic, import, created);
    let stream_id = v7(created, &mut rng);
    let mut edited = data.clone();
    let old_weight = edited.gross_weight;
    let new_weight = old_weight.map(|w| w + Decimal::new(5, 1));
    edited.gross_weight = new_weight;
    let customer_meta = Metadata {
        actor_id: Some(events::account::account_id(&username)),
        actor_role: Some("CUSTOMER".into()),
        actor_name: Some(username.clone()),
        customer_id: Some(customer_id),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        request_id: Some(format!("req-{i}")),
        command_id: Uuid::now_v7(),
    };
    let operator_meta = Metadata {
        actor_id: Some(events::account::account_id("operator")),
        actor_role: Some("OPERATOR".into()),
        actor_name: Some("operator".into()),
        ..customer_meta.clone()
    };
    let t = |from, to, receipt: Option<&str>| Transition {
        from,
        to,
        reason: None,
        receipt_code: receipt.map(str::to_string),
        tax_estimate: None,
    };
    use DeclarationStatus as S;
    let life = [
        (
            DeclarationEvent::Drafted(Drafted {
                declaration_id: stream_id,
                declaration_type: type_code,
                customer_id,
                username: username.clone(),
                company_name: Some(company),
                data,
                upload: None,
                provenance: None,
            }),
            &customer_meta,
            0,
        ),
        (
            DeclarationEvent::Edited(Edited {
                data: edited,
                changes: vec![FieldChange {
                    field: "grossWeight".into(),
                    old: serde_json::to_value(old_weight.map(|d| d.to_string()))
                        .unwrap_or_default(),
                    new: serde_json::to_value(new_weight.map(|d| d.to_string()))
                        .unwrap_or_default(),
                }],
            }),
            &customer_meta,
            20,
        ),
        (
            DeclarationEvent::Submitted(t(S::Draft, S::Unprocessed, None)),
            &customer_meta,
            30,
        ),
        (
            DeclarationEvent::Reviewed(t(S::Unprocessed, S::ReviewedNotCompleted, None)),
            &operator_meta,
            240,
        ),
        (
            DeclarationEvent::Completed(t(S::ReviewedNotCompleted, S::Completed, Some("P"))),
            &operator_meta,
            1440,
        ),
    ];
    life.into_iter()
        .enumerate()
        .map(|(v, (event, meta, minutes))| EventRow {
            stream_id,
            version: v as i64 + 1,
            event,
            metadata: meta.clone(),
            recorded_at: created + Duration::minutes(minutes),
        })
        .collect()
}

/// Appends the events of `declarations` declarations straight into `events` with COPY: one
/// transaction per block of declarations (a declaration's events are all in one block, in
/// version order), two blocks loading at a time, the indexes that back no constraint built
/// afterwards. Answers the number of events.
pub async fn fill_events(pool: &PgPool, declarations: u64, seed: u64) -> anyhow::Result<u64> {
    let end = now();
    let indexes = crate::db::drop_plain_indexes(pool, "events").await?;
    let block = 20_000u64;
    let blocks: Vec<u64> = (0..declarations.div_ceil(block)).collect();
    let mut total = 0u64;
    for pair in blocks.chunks(2) {
        let mut tasks = Vec::new();
        for &b in pair {
            let pool = pool.clone();
            let (lo, hi) = (b * block, ((b + 1) * block).min(declarations));
            tasks.push(tokio::spawn(async move {
                copy_events(&pool, lo, hi, seed, end).await
            }));
        }
        for t in tasks {
            total += t.await??;
        }
    }
    crate::db::create_indexes(pool, indexes).await?;
    Ok(total)
}

async fn copy_events(
    pool: &PgPool,
    lo: u64,
    hi: u64,
    seed: u64,
    end: DateTime<Utc>,
) -> anyhow::Result<u64> {
    let mut conn = pool.acquire().await?;
    let mut copy = conn
        .copy_in_raw(
            "COPY events (stream_type, stream_id, stream_version, event_id, event_type, \
             schema_version, payload, metadata, recorded_at) FROM STDIN",
        )
        .await?;
    let mut buf = String::with_capacity(8 << 20);
    let mut n = 0u64;
    // Interleave declarations as a live system does: within a group of 500, all drafts, then
    // all edits, then submits... (each declaration's events stay in version order).
    let group = 500u64;
    let mut start = lo;
    while start < hi {
        let stop = (start + group).min(hi);
        let lives: Vec<Vec<EventRow>> = (start..stop)
            .map(|i| declaration_events(i, seed, end, 365))
            .collect();
        for step in 0..5 {
            for life in &lives {
                let e = &life[step];
                let new = e.event.to_new_event();
                copy_field(&mut buf, Some(events::declaration::STREAM_TYPE), false);
                copy_field(&mut buf, Some(&e.stream_id.to_string()), false);
                copy_field(&mut buf, Some(&e.version.to_string()), false);
                copy_field(&mut buf, Some(&Uuid::new_v4().to_string()), false);
                copy_field(&mut buf, Some(&new.event_type), false);
                copy_field(&mut buf, Some(&new.schema_version.to_string()), false);
                copy_field(&mut buf, Some(&new.payload.to_string()), false);
                copy_field(&mut buf, Some(&serde_json::to_string(&e.metadata)?), false);
                copy_time(&mut buf, Some(e.recorded_at), true);
                n += 1;
            }
        }
        if buf.len() > (4 << 20) {
            copy.send(buf.as_bytes()).await?;
            buf.clear();
        }
        start = stop;
    }
    if !buf.is_empty() {
        copy.send(buf.as_bytes()).await?;
    }
    copy.finish().await?;
    Ok(n)
}
