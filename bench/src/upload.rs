//! `upload`: the bulk upload end to end. A fixed-template xlsx (table form) of 100,000 rows,
//! 5 goods lines per declaration (20,000 declarations), is posted to `POST /api/v1/upload`
//! as a customer; timed: the answer (accepted) and the status turning from `'3'` (processed),
//! with the server's RSS sampled meanwhile (the server runs in a child process). The same is
//! done with a 20,000-row file first, so "memory flat in the row count" shows as the growth
//! of both. In the same run, the raw limit: calamine's plain parse of the same file (every
//! cell read as the worker's reader reads it, nothing kept) and a raw `COPY` of the same rows
//! (their cells as text) into a plain table.

use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use calamine::{Reader, Xlsx};
use clap::Parser;
use command::upload::fields::{GOODS, HEADER, header_text};
use serde_json::Value;

use crate::db::{Server, copy_field};
use crate::server::{ChildServer, Running};
use crate::stats::{self, RssSampler, header, percent, record, verdict};

#[derive(Parser, Clone)]
pub struct Opts {
    /// Rows of the large file (goods lines).
    #[arg(long, default_value_t = 100_000)]
    pub rows: u32,
    /// Rows of the small file, for the memory comparison.
    #[arg(long, default_value_t = 20_000)]
    pub small: u32,
    /// Goods lines per declaration.
    #[arg(long, default_value_t = 5)]
    pub lines: u32,
    /// Only write the two files into this folder (`upload-<rows>.xlsx`) and stop: for a heap
    /// profile of a server started by hand (docs/benchmarks.md, "Upload").
    #[arg(long)]
    pub write_files: Option<std::path::PathBuf>,
}

impl Default for Opts {
    fn default() -> Self {
        Self::parse_from(["upload"])
    }
}

/// The columns of the file: the template's fields the demo declaration fills (its second
/// goods line: five of them stay within the class C value limit).
fn columns() -> Vec<(&'static str, bool)> {
    let data = serde_json::to_value(clearway::seed::demo_c_export("1Z", "PVG", "SHA01"))
        .unwrap_or(Value::Null);
    let line = data["declarationGoodsInfo"][1].clone();
    let mut out: Vec<(&'static str, bool)> = HEADER
        .iter()
        .filter(|f| text(&data[f.wire]).is_some())
        .map(|f| (f.wire, false))
        .collect();
    out.extend(
        GOODS
            .iter()
            .filter(|f| f.wire != "goodsNo" && text(&line[f.wire]).is_some())
            .map(|f| (f.wire, true)),
    );
    out
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The cells of every row of the file, in column order (one declaration's rows together).
fn row_cells(rows: u32, lines: u32, tag: &str) -> Vec<Vec<String>> {
    let cols = columns();
    let mut out = Vec::with_capacity(rows as usize);
    let mut d = 0u32;
    while (out.len() as u32) < rows {
        let tracking = format!("CW{tag}{d:08}");
        let data = serde_json::to_value(clearway::seed::demo_c_export(&tracking, "PVG", "SHA01"))
            .unwrap_or(Value::Null);
        let line = &data["declarationGoodsInfo"][1];
        for _ in 0..lines.min(rows - out.len() as u32) {
            out.push(
                cols.iter()
                    .map(|(w, goods)| {
                        let v = if *goods { &line[*w] } else { &data[*w] };
                        text(v).unwrap_or_default()
                    })
                    .collect(),
            );
        }
        d += 1;
    }
    out
}

fn workbook(cells: &[Vec<String>]) -> anyhow::Result<Vec<u8>> {
    let cols = columns();
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    for (c, (w, goods)) in cols.iter().enumerate() {
        let list = if *goods { GOODS } else { HEADER };
        let f = list
            .iter()
            .find(|f| f.wire == *w)
            .context("a template field")?;
        sheet.write_string(0, c as u16, header_text(f))?;
    }
    for (r, row) in cells.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r as u32 + 1, c as u16, v)?;
            }
        }
    }
    Ok(book.save_to_buffer()?)
}

/// calamine's plain parse: every cell of the first sheet streamed as the worker reads it.
fn raw_parse(bytes: &[u8]) -> anyhow::Result<(u64, f64)> {
    let t = Instant::now();
    let mut book: Xlsx<_> = Xlsx::new(std::io::Cursor::new(bytes))?;
    let name = book.sheet_names().first().cloned().context("a sheet")?;
    let mut cells = book.worksheet_cells_reader(&name)?;
    let mut n = 0u64;
    while let Some(cell) = cells.next_cell()? {
        if !matches!(cell.get_value(), calamine::DataRef::Empty) {
            n += 1;
        }
    }
    Ok((n, t.elapsed().as_secs_f64()))
}

/// A raw COPY of the rows' cells into a plain table of text columns.
async fn raw_copy(pool: &sqlx::PgPool, cells: &[Vec<String>]) -> anyhow::Result<f64> {
    let width = cells.first().map_or(0, Vec::len);
    let cols: Vec<String> = (0..width).map(|i| format!("c{i} text")).collect();
    sqlx::query("DROP TABLE IF EXISTS bench_upload_raw")
        .execute(pool)
        .await?;
    sqlx::query(&format!(
        "CREATE TABLE bench_upload_raw ({})",
        cols.join(", ")
    ))
    .execute(pool)
    .await?;
    let t = Instant::now();
    let mut conn = pool.acquire().await?;
    let mut copy = conn.copy_in_raw("COPY bench_upload_raw FROM STDIN").await?;
    let mut buf = String::with_capacity(8 << 20);
    for row in cells {
        for (i, v) in row.iter().enumerate() {
            copy_field(
                &mut buf,
                (!v.is_empty()).then_some(v.as_str()),
                i + 1 == row.len(),
            );
        }
        if buf.len() > (4 << 20) {
            copy.send(buf.as_bytes()).await?;
            buf.clear();
        }
    }
    if !buf.is_empty() {
        copy.send(buf.as_bytes()).await?;
    }
    copy.finish().await?;
    Ok(t.elapsed().as_secs_f64())
}

fn multipart(file: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----clearway-bench-boundary-51c2";
    let mut body = Vec::with_capacity(file.len() + 1024);
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
            "--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"bench.xlsx\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(file);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

struct Outcome {
    rows: u32,
    accept_secs: f64,
    finish_secs: f64,
    base_mib: f64,
    peak_mib: f64,
    hwm_mib: Option<f64>,
    record: Value,
}

impl Outcome {
    fn growth(&self) -> f64 {
        (self.peak_mib.max(self.hwm_mib.unwrap_or(0.0)) - self.base_mib).max(0.0)
    }
}

async fn upload_once(
    running: &ChildServer,
    client: &reqwest::Client,
    token: &str,
    rows: u32,
    file: &[u8],
) -> anyhow::Result<Outcome> {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = Some(running.pid);
    let base_mib = stats::rss_mib(pid);
    let hwm_reset = stats::reset_hwm(pid);
    let sampler = RssSampler::start(pid);
    let (content_type, body) = multipart(file);
    let t = Instant::now();
    let r: Value = client
        .post(running.url("/api/v1/upload"))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await?
        .json()
        .await?;
    let accept_secs = t.elapsed().as_secs_f64();
    let id = r["data"][0]
        .as_str()
        .with_context(|| format!("the upload was refused: {r}"))?
        .to_string();
    let deadline = Instant::now() + Duration::from_secs(600);
    let record = loop {
        let s: Value = client
            .get(running.url(&format!("/api/v1/upload/log/status?fileIdList={id}")))
            .bearer_auth(token)
            .send()
            .await?
            .json()
            .await?;
        let rec = s["data"][0].clone();
        if rec["status"].as_str().is_some_and(|st| st != "3") {
            break rec;
        }
        if Instant::now() > deadline {
            bail!("the upload did not finish within 600 s: {s}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let finish_secs = t.elapsed().as_secs_f64();
    let (peak_mib, _) = sampler.finish();
    Ok(Outcome {
        rows,
        accept_secs,
        finish_secs,
        base_mib,
        peak_mib,
        hwm_mib: hwm_reset.then(|| stats::hwm_mib(pid)),
        record,
    })
}

fn print_outcome(o: &Outcome) {
    println!(
        "{:>7} rows: accepted in {:>5.2} s, processed in {:>6.2} s ({:>7.0} rows/s); status {} \
         ({} declarations, {} rows added, {} repeated, {} abnormal); RSS before {:.1} MiB, \
         peak {:.1} MiB (VmHWM {}), growth {:.1} MiB",
        o.rows,
        o.accept_secs,
        o.finish_secs,
        o.rows as f64 / o.finish_secs.max(1e-9),
        o.record["status"],
        o.record["ticketSuccess"],
        o.record["success"],
        o.record["repeat"],
        o.record["abnormal"],
        o.base_mib,
        o.peak_mib,
        o.hwm_mib.map_or("n/a".into(), |h| format!("{h:.1} MiB")),
        o.growth()
    );
}

pub async fn run(server: &Server, opts: &Opts) -> anyhow::Result<()> {
    header("upload: a 100,000-row fixed-template xlsx, time and memory");
    let pool = server.fresh("upload", 4).await?;
    let t = Instant::now();
    let small_cells = row_cells(opts.small, opts.lines, "S");
    let large_cells = row_cells(opts.rows, opts.lines, "L");
    let small_file = workbook(&small_cells)?;
    let large_file = workbook(&large_cells)?;
    println!(
        "files made in {:.1} s: {} rows x {} columns = {:.1} MiB, {} rows = {:.1} MiB ({} goods lines a declaration)",
        t.elapsed().as_secs_f64(),
        opts.small,
        columns().len(),
        small_file.len() as f64 / (1 << 20) as f64,
        opts.rows,
        large_file.len() as f64 / (1 << 20) as f64,
        opts.lines
    );
    if let Some(dir) = &opts.write_files {
        std::fs::create_dir_all(dir)?;
        for (rows, file) in [(opts.small, &small_file), (opts.rows, &large_file)] {
            let path = dir.join(format!("upload-{rows}.xlsx"));
            std::fs::write(&path, file)?;
            println!("written: {}", path.display());
        }
        return Ok(());
    }
    let running = ChildServer::start(&server.url(&server.name("upload"))).await?;
    crate::server::wait_for_projections(&pool).await?;
    let client = Running::client()?;
    let token = running.login(&client, "acme").await?;
    let small = upload_once(&running, &client, &token, opts.small, &small_file).await?;
    let large = upload_once(&running, &client, &token, opts.rows, &large_file).await?;
    let pid = running.pid;
    running.stop().await;

    let (cells, parse_secs) = raw_parse(&large_file)?;
    let copy_secs = raw_copy(&pool, &large_cells).await?;
    let raw_rate = opts.rows as f64 / (parse_secs + copy_secs).max(1e-9);
    let rate = opts.rows as f64 / large.finish_secs.max(1e-9);
    println!(
        "database {}: POST /api/v1/upload as acme (class C export, table form); server in its own \
         process (pid {pid}), its RSS sampled every 5 ms",
        server.name("upload")
    );
    print_outcome(&small);
    print_outcome(&large);
    println!(
        "raw limit, same file: calamine parse {parse_secs:.2} s ({cells} cells) + COPY of the rows \
         {copy_secs:.2} s = {:.2} s ({raw_rate:.0} rows/s)",
        parse_secs + copy_secs
    );
    let (g_small, g_large) = (small.growth(), large.growth());
    let flat = g_large <= g_small * 1.5 + 8.0;
    let share = percent(rate, raw_rate);
    println!(
        "{} rows processed in {:.2} s (target < 60 s: {}); {rate:.0} rows/s = {share:.1}% of raw \
         parse + COPY (target >= 25%: {}); memory growth {g_large:.1} MiB for {} rows vs \
         {g_small:.1} MiB for {} rows ({})",
        opts.rows,
        large.finish_secs,
        verdict(large.finish_secs < 60.0),
        verdict(share >= 25.0),
        opts.rows,
        opts.small,
        if flat {
            "flat, MET"
        } else {
            "grows with the rows, NOT MET"
        }
    );
    record(
        "upload.100k_seconds",
        format!(
            "{:.2} (target < 60: {})",
            large.finish_secs,
            verdict(large.finish_secs < 60.0)
        ),
    );
    record(
        "upload.share_of_raw",
        format!("{share:.1}% (target >= 25%: {})", verdict(share >= 25.0)),
    );
    record(
        "upload.rss_growth_mib",
        format!(
            "{g_large:.1} for {} rows vs {g_small:.1} for {} rows ({})",
            opts.rows,
            opts.small,
            if flat { "flat" } else { "NOT flat" }
        ),
    );
    Ok(())
}
