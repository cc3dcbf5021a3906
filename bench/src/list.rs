//! `list`: 1,000,000 declarations generated in `rm_declarations` (6 type codes, 8
//! statuses, 200 customers with a skew, 7 ports, 365 days), then the list query as the
//! endpoint runs it (`ListParams::filter`, `Filter::restrict_to`, `order_by`, `fetch_page`:
//! page and total) with a mix of realistic filters, sorts and pages, as staff and as
//! customers; the raw limit is a plain primary-key lookup in the same table. A smaller pass
//! goes over HTTP against the in-process server (staff and customer tokens).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use api::{Actor, Paging, Role};
use chrono::{DateTime, Utc};
use clap::Parser;
use query::declaration_list::filter::Filter;
use query::declaration_list::{ListParams, SUMMARY_COLUMNS, fetch_page, order_by};
use serde_json::{Map, Value, json};
use sqlx::{PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

use crate::db::Server;
use crate::generate::{self, Generated, Rng, RowSpec};
use crate::server::{Running, expect_ok};
use crate::stats::{Latencies, header, percent, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Declarations to generate.
    #[arg(long, default_value_t = 1_000_000)]
    pub rows: u64,
    /// Queries per scenario (20 scenarios).
    #[arg(long, default_value_t = 30)]
    pub per_scenario: usize,
    /// List queries over HTTP (0: skip the HTTP pass).
    #[arg(long, default_value_t = 200)]
    pub http_queries: usize,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["list"])
    }
}

/// Who asks: staff see everything, a customer only their company's rows.
#[derive(Clone, Copy)]
pub enum Who {
    Staff,
    Customer(usize),
}

pub struct ListQuery {
    pub scenario: &'static str,
    pub who: Who,
    /// The query string, as the web app sends it.
    pub params: Vec<(&'static str, Value)>,
}

const SCENARIOS: [&str; 20] = [
    "staff type+status p1",
    "staff type+status p50",
    "staff class, all live p1",
    "staff no filter p1",
    "staff no filter p50",
    "staff customer+class p1",
    "staff type+30 days p1",
    "staff class+port+90 days p1",
    "staff 1 tracking number",
    "staff 20 tracking numbers",
    "staff username+status p1",
    "staff class sort updatedAt",
    "staff type+status sort pickup asc",
    "staff sort trackingNumber asc",
    "staff class+30 days sort status",
    "customer type+status p1",
    "customer class+30 days p1",
    "customer no filter p1",
    "customer no filter p50",
    "customer 1 tracking number",
];

fn day(t: DateTime<Utc>) -> String {
    t.with_timezone(&chrono_tz::Asia::Shanghai)
        .format("%Y%m%d")
        .to_string()
}

/// One query of `scenario` with random parameters over the generated data.
pub fn make(scenario: usize, rng: &mut Rng, rows: u64, end: DateTime<Utc>) -> ListQuery {
    let type_code = |rng: &mut Rng| json!(generate::TYPES[rng.below(6)].0);
    let class = |rng: &mut Rng| json!(["B", "C", "D"][rng.below(3)]);
    let status = |rng: &mut Rng| json!(*rng.pick(&generate::STATUSES));
    let range = |rng: &mut Rng, days: i64| {
        let to = end - chrono::Duration::days(rng.below(365 - days as usize) as i64);
        let from = to - chrono::Duration::days(days - 1);
        [("fromDate", json!(day(from))), ("toDate", json!(day(to)))]
    };
    let tracking = |rng: &mut Rng| generate::tracking(rng.next_u64() % rows);
    let customer = |rng: &mut Rng| generate::pick_customer(rng);
    let page = |n: i64| [("pageNo", json!(n)), ("pageSize", json!(10))];
    let mut who = Who::Staff;
    let mut p: Vec<(&'static str, Value)> = Vec::new();
    match scenario {
        0 => p.extend([("declarationType", type_code(rng)), ("status", status(rng))]),
        1 => {
            p.extend([("declarationType", type_code(rng)), ("status", status(rng))]);
            p.extend(page(50));
        }
        2 => p.push(("declarationType", class(rng))),
        3 => {}
        4 => p.extend(page(50)),
        5 => {
            let c = generate::customer(customer(rng)).0;
            p.extend([("customerId", json!(c)), ("declarationType", class(rng))]);
        }
        6 => {
            p.push(("declarationType", type_code(rng)));
            p.extend(range(rng, 30));
        }
        7 => {
            let port = generate::pick_port(rng).0;
            p.extend([("declarationType", class(rng)), ("port", json!(port))]);
            p.extend(range(rng, 90));
        }
        8 => p.push(("trackingNumber", json!(tracking(rng)))),
        9 => {
            let many: Vec<String> = (0..20).map(|_| tracking(rng)).collect();
            p.push(("trackingNumber", json!(many.join(","))));
        }
        10 => {
            let username = generate::customer(customer(rng)).1;
            p.extend([("username", json!(username)), ("status", status(rng))]);
        }
        11 => p.extend([
            ("declarationType", class(rng)),
            ("sort", json!("updatedAt,desc")),
        ]),
        12 => p.extend([
            ("declarationType", type_code(rng)),
            ("status", status(rng)),
            ("sort", json!("estimatedPickupTime,asc")),
        ]),
        13 => p.push(("sort", json!("trackingNumber,asc"))),
        14 => {
            p.extend([
                ("declarationType", class(rng)),
                ("sort", json!("status,asc")),
            ]);
            p.extend(range(rng, 30));
        }
        15 => {
            who = Who::Customer(customer(rng));
            p.extend([("declarationType", type_code(rng)), ("status", status(rng))]);
        }
        16 => {
            who = Who::Customer(customer(rng));
            p.push(("declarationType", class(rng)));
            p.extend(range(rng, 30));
        }
        17 => who = Who::Customer(customer(rng)),
        18 => {
            who = Who::Customer(customer(rng));
            p.extend(page(50));
        }
        _ => {
            who = Who::Customer(customer(rng));
            p.push(("trackingNumber", json!(tracking(rng))));
        }
    }
    if !p.iter().any(|(k, _)| *k == "pageNo") {
        p.extend(page(1));
    }
    ListQuery {
        scenario: SCENARIOS[scenario.min(SCENARIOS.len() - 1)],
        who,
        params: p,
    }
}

fn actor(who: Who) -> Actor {
    match who {
        Who::Staff => Actor {
            id: Uuid::nil(),
            username: "operator".into(),
            display_name: "Operator".into(),
            role: Role::Operator,
            customer_id: None,
            session_id: Uuid::nil(),
        },
        Who::Customer(i) => {
            let (id, username, company) = generate::customer(i);
            Actor {
                id: events::account::account_id(&username),
                username,
                display_name: company,
                role: Role::Customer,
                customer_id: Some(id),
                session_id: Uuid::nil(),
            }
        }
    }
}

/// Runs `q` exactly as the endpoint does (parse, restrict, order, page + total); answers
/// the number of records, the total and the filter.
pub async fn run_direct(pool: &PgPool, q: &ListQuery) -> anyhow::Result<(usize, i64, Filter)> {
    let map: Map<String, Value> = q
        .params
        .iter()
        .map(|(k, v)| ((*k).to_string(), v.clone()))
        .collect();
    let params: ListParams = serde_json::from_value(Value::Object(map))?;
    let paging = Paging {
        page_no: params.page_no,
        page_size: params.page_size,
    };
    let (_, size, offset) = paging.resolve().map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let order = order_by(params.sort.as_deref()).map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let mut filter = params.filter().map_err(|e| anyhow::anyhow!("{e:?}"))?;
    filter.restrict_to(&actor(q.who));
    let page = fetch_page(pool, &filter, &order, size, offset)
        .await
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    Ok((page.records.len(), page.total, filter))
}

/// The total of `filter` counted over the rows (what the counters must agree with).
async fn row_count(pool: &PgPool, filter: &Filter) -> anyhow::Result<i64> {
    let mut qb: QueryBuilder<'_, Postgres> =
        QueryBuilder::new("SELECT count(*) FROM rm_declarations");
    filter.push_where(&mut qb);
    Ok(qb.build_query_scalar().fetch_one(pool).await?)
}

pub fn query_string(q: &ListQuery) -> Vec<(&'static str, String)> {
    q.params
        .iter()
        .map(|(k, v)| {
            let s = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (*k, s)
        })
        .collect()
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("list: declaration list query p95 vs a primary-key lookup");
    let pool = server.fresh("list", 4).await?;
    let spec = RowSpec {
        rows: opts.rows,
        days: 365,
        types: &generate::TYPES,
        statuses: &generate::STATUSES,
        seed: 0x5eed_0002,
    };
    let Generated { ids, end } = generate::fill_declarations(&pool, &spec).await?;

    let mut rng = Rng::new(42);
    let mut queries: Vec<ListQuery> = Vec::new();
    for s in 0..SCENARIOS.len() {
        for _ in 0..opts.per_scenario.clamp(1, 1000) {
            queries.push(make(s, &mut rng, opts.rows, end));
        }
    }
    // Shuffle (Fisher-Yates) so no scenario runs on caches warmed by its twins.
    for i in (1..queries.len()).rev() {
        let j = rng.below(i + 1);
        queries.swap(i, j);
    }
    // Warm-up, not measured: two queries per scenario, whose totals (summed from the
    // generated counters where the filter allows) must equal a count over the rows.
    let mut mismatches = 0;
    for s in 0..SCENARIOS.len() * 2 {
        let q = make(s % SCENARIOS.len(), &mut rng, opts.rows, end);
        let (_, total, filter) = run_direct(&pool, &q).await?;
        let counted = row_count(&pool, &filter).await?;
        if total != counted {
            mismatches += 1;
            println!(
                "WARNING: {}: total {total} but {counted} rows match (generated counters out of \
                 step with the projection's?)",
                q.scenario
            );
        }
    }
    if mismatches == 0 {
        println!(
            "totals check: {} warm-up queries, every total equals a count over the rows",
            SCENARIOS.len() * 2
        );
    }
    let mut all = Latencies::default();
    let mut by: BTreeMap<&str, (Latencies, i64)> = BTreeMap::new();
    let started = Instant::now();
    for q in &queries {
        let t = Instant::now();
        let (_, total, _) = run_direct(&pool, q).await?;
        let d = t.elapsed();
        all.push(d);
        let e = by.entry(q.scenario).or_default();
        e.0.push(d);
        e.1 = e.1.max(total);
    }
    let wall = started.elapsed();

    // Raw limit: the same number of primary-key lookups, same protocol (unnamed statements).
    let sql = format!("SELECT {SUMMARY_COLUMNS} FROM rm_declarations WHERE id = $1");
    let mut pk = Latencies::default();
    for _ in 0..queries.len().max(500) {
        let id = ids[rng.below(ids.len())];
        let t = Instant::now();
        let found = sqlx::query(&sql)
            .bind(id)
            .persistent(false)
            .fetch_optional(&pool)
            .await?;
        pk.push(t.elapsed());
        anyhow::ensure!(found.is_some(), "generated id {id} not found");
    }

    println!(
        "{} list queries in {:.1} s ({} scenarios x {}, shuffled, one at a time, page size 10, \
         page + total as the endpoint answers them)",
        all.len(),
        wall.as_secs_f64(),
        SCENARIOS.len(),
        opts.per_scenario
    );
    println!(
        "  {:<36} {:>10} {:>10} {:>10} {:>12}",
        "scenario", "p50 ms", "p95 ms", "max ms", "max total"
    );
    let mut rows: Vec<_> = by.iter().collect();
    rows.sort_by(|a, b| b.1.0.summary().p95.total_cmp(&a.1.0.summary().p95));
    for (name, (lat, total)) in rows {
        let s = lat.summary();
        println!(
            "  {name:<36} {:>10.2} {:>10.2} {:>10.2} {:>12}",
            s.p50, s.p95, s.max, total
        );
    }
    let list = all.summary();
    let raw = pk.summary();
    println!("list query (direct)         {list}");
    println!("raw limit: PK lookup        {raw}");
    println!(
        "list p95 {:.2} ms (target < 20 ms: {}); {:.1}x the p95 of a primary-key lookup",
        list.p95,
        verdict(list.p95 < 20.0),
        list.p95 / raw.p95.max(1e-9)
    );
    record("list.direct_p50_ms", format!("{:.2}", list.p50));
    record(
        "list.direct_p95_ms",
        format!(
            "{:.2} (target < 20: {})",
            list.p95,
            verdict(list.p95 < 20.0)
        ),
    );
    record("list.direct_p99_ms", format!("{:.2}", list.p99));
    record("list.pk_lookup_p95_ms", format!("{:.3}", raw.p95));
    record(
        "list.p95_vs_pk_p95",
        format!(
            "{:.1}x ({:.1}%)",
            list.p95 / raw.p95.max(1e-9),
            percent(raw.p95, list.p95)
        ),
    );

    if opts.http_queries > 0 {
        http_pass(server, &pool, opts, end).await?;
    }
    Ok(())
}

async fn http_pass(
    server: &Server,
    pool: &PgPool,
    opts: &Opts,
    end: DateTime<Utc>,
) -> anyhow::Result<()> {
    let running = crate::server::start(server.url(&server.name("list"))).await?;
    running.wait_for_projections(pool).await?;
    let staff_client = Running::client()?;
    let staff = running.login(&staff_client, "operator").await?;
    let customer_client = Running::client()?;
    let customer = running.login(&customer_client, "acme").await?;
    let mut rng = Rng::new(7);
    let url = running.url("/api/v1/declarations");
    let mut lat = [Latencies::default(), Latencies::default()];
    let deadline = Instant::now() + Duration::from_secs(120);
    for i in 0..opts.http_queries + SCENARIOS.len() {
        if Instant::now() > deadline {
            break;
        }
        let q = make(i % SCENARIOS.len(), &mut rng, opts.rows, end);
        let (client, token, slot) = match q.who {
            Who::Staff => (&staff_client, &staff, 0),
            Who::Customer(_) => (&customer_client, &customer, 1),
        };
        let t = Instant::now();
        let r: Value = client
            .get(&url)
            .bearer_auth(token)
            .query(&query_string(&q))
            .send()
            .await?
            .json()
            .await?;
        let d = t.elapsed();
        expect_ok(&r, q.scenario)?;
        // The first pass over the scenarios is a warm-up.
        if i >= SCENARIOS.len() {
            lat[slot].push(d);
        }
    }
    running.stop().await;
    let mut both = lat[0].clone();
    both.extend(lat[1].clone());
    let s = both.summary();
    println!("list over HTTP, staff       {}", lat[0].summary());
    println!(
        "list over HTTP, customer    {} (acme, the largest customer)",
        lat[1].summary()
    );
    println!(
        "list over HTTP, all         {s}  (target p95 < 20 ms: {})",
        verdict(s.p95 < 20.0)
    );
    record(
        "list.http_p95_ms",
        format!("{:.2} (target < 20: {})", s.p95, verdict(s.p95 < 20.0)),
    );
    Ok(())
}
