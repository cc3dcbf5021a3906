//! HS code suggestions (`GET /api/v1/hs-suggestions`): the product library first, imported
//! Chinese tariff lines, the HS 2022 nomenclature with its path; code prefixes; ownership
//! (a customer naming another company is 404); bad input (a 400 naming `q`, `limit` or
//! `customerId`). And the accuracy benchmark over `seeds/hs-labelled.csv` (ignored; run by
//! `scripts/bench.sh extract`).

use serde_json::{Value, json};
use sqlx::PgPool;

use crate::helpers::*;
use crate::ports::caught_up;

/// Percent-encodes a query value (every byte but ASCII letters and digits).
fn encode(q: &str) -> String {
    q.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn suggest(app: &TestApp, token: &str, query: &str) -> Value {
    body(
        app.get(token, &format!("/api/v1/hs-suggestions?{query}"))
            .await,
    )
    .await
}

fn codes(r: &Value) -> Vec<String> {
    r["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s["code"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn fields(r: &Value) -> Vec<String> {
    r["data"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|f| f["field"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[sqlx::test(migrations = "./migrations")]
async fn suggestions_rank_the_product_library_then_tariff_then_nomenclature(pool: PgPool) {
    let app = spawn(pool).await;
    let written = clearway::seed::seed_hs_nomenclature(&app.pool)
        .await
        .expect("nomenclature");
    assert_eq!(written, 96 + 1228 + 5612);
    // Seeding again writes nothing.
    let again = clearway::seed::seed_hs_nomenclature(&app.pool)
        .await
        .expect("nomenclature");
    assert_eq!(again, 0);

    let acme = app.login("acme").await;
    let globex = app.login("globex").await;
    let operator = app.login("operator").await;

    // Acme's product library: headphones under their own 10-digit code.
    let r = body(
        app.post(
            &acme,
            "/api/v1/products",
            json!({
                "descriptionCn": "蓝牙耳机",
                "descriptionEn": "Bluetooth headset",
                "hsCode": "8518300000",
                "declarationElements": "4|3|品牌:无|型号:X1",
                "declaredUnit": "007",
                "legalUnitOne": "007",
                "originCountry": "CHN",
                "unitPrice": "20",
                "currency": "USD"
            }),
        )
        .await,
    )
    .await;
    assert_eq!(r["code"], 200, "{r}");
    let product_id = r["data"]["id"].as_str().expect("id").to_string();
    caught_up(
        &app,
        "master_data_directory",
        r["data"]["position"].as_i64().expect("position"),
    )
    .await;

    // The same description: the product first (score 1) with its path, legal unit and
    // declaration elements, then the nomenclature's headphones among the next.
    let r = suggest(&app, &acme, &format!("q={}", encode("蓝牙耳机"))).await;
    assert_eq!(r["code"], 200, "{r}");
    let first = &r["data"][0];
    assert_eq!(first["source"], "PRODUCT_LIBRARY", "{r}");
    assert_eq!(first["code"], "8518300000");
    assert_eq!(first["score"], 1.0);
    assert_eq!(first["productId"], product_id.as_str());
    assert_eq!(first["description"], "蓝牙耳机 / Bluetooth headset");
    assert_eq!(first["legalUnits"], json!(["007"]));
    assert_eq!(first["elements"], "4|3|品牌:无|型号:X1");
    let path: Vec<&str> = first["path"]
        .as_array()
        .expect("path")
        .iter()
        .filter_map(|p| p["code"].as_str())
        .collect();
    assert_eq!(path, ["85", "8518", "851830"]);
    assert!(
        first["path"][2]["description"]
            .as_str()
            .is_some_and(|d| d.starts_with("Headphones and earphones")),
        "{r}"
    );
    let rest: Vec<&Value> = r["data"].as_array().expect("list")[1..].iter().collect();
    assert!(rest.iter().all(|s| s["source"] == "NOMENCLATURE"), "{r}");
    assert!(
        rest.iter().take(5).any(|s| s["code"] == "851830"),
        "headphones among the first nomenclature suggestions: {r}"
    );
    // Nomenclature suggestions carry no legal units or elements (the file has none).
    assert!(rest[0].get("legalUnits").is_none() && rest[0].get("elements").is_none());

    // A similar description (contains the product's) still finds the product first.
    let r = suggest(&app, &acme, &format!("q={}", encode("黑色蓝牙耳机 X1"))).await;
    assert_eq!(r["data"][0]["source"], "PRODUCT_LIBRARY", "{r}");
    assert_eq!(r["data"][0]["score"], 0.9, "{r}");

    // Words in common, in another order: the product still first, scored 0.5-0.8.
    let r = suggest(&app, &acme, "q=headset+for+Bluetooth+calls").await;
    assert_eq!(r["data"][0]["source"], "PRODUCT_LIBRARY", "{r}");
    let score = r["data"][0]["score"].as_f64().unwrap_or_default();
    assert!((0.5..0.8).contains(&score), "{r}");

    // Globex does not see Acme's product; nor does staff without a customer.
    for token in [&globex, &operator] {
        let r = suggest(&app, token, &format!("q={}", encode("蓝牙耳机"))).await;
        assert_eq!(r["code"], 200, "{r}");
        assert!(
            r["data"]
                .as_array()
                .expect("list")
                .iter()
                .all(|s| s["source"] == "NOMENCLATURE"),
            "{r}"
        );
    }
    // Staff naming Acme get Acme's library.
    let acme_id = clearway::seed::customer_id("acme");
    let r = suggest(
        &app,
        &operator,
        &format!("q={}&customerId={acme_id}", encode("蓝牙耳机")),
    )
    .await;
    assert_eq!(r["data"][0]["source"], "PRODUCT_LIBRARY", "{r}");
    // A customer may name their own company.
    let r = suggest(
        &app,
        &acme,
        &format!("q={}&customerId={acme_id}&limit=1", encode("蓝牙耳机")),
    )
    .await;
    assert_eq!(codes(&r), ["8518300000"], "{r}");

    // English text against the English nomenclature (stems: "earphones" ~ "earphone").
    let r = suggest(&app, &operator, "q=Bluetooth+wireless+earphones&limit=5").await;
    assert!(codes(&r).contains(&"851830".to_string()), "{r}");
    // The glossary bridges Chinese to the nomenclature: 笔记本电脑 is a portable computer.
    let r = suggest(
        &app,
        &operator,
        &format!("q={}&limit=3", encode("笔记本电脑")),
    )
    .await;
    assert_eq!(codes(&r)[0], "847130", "{r}");

    // Digits complete a code: products, then subheadings starting with them.
    let r = suggest(&app, &acme, "q=8518").await;
    let got = codes(&r);
    assert_eq!(got[0], "8518300000", "{r}");
    assert!(
        got[1..]
            .iter()
            .all(|c| c.starts_with("8518") && c.len() == 6)
    );
    assert!(got.contains(&"851830".to_string()));
    // Ten digits: the subheading of their first six.
    let r = suggest(&app, &operator, "q=6109100000").await;
    assert_eq!(codes(&r), ["610910"], "{r}");

    // Chinese tariff lines, once imported (reference table hs-tariff-zh).
    let appended = command::reference::import_table(
        &events::EventStore::new(app.pool.clone()),
        "hs-tariff-zh",
        chrono::NaiveDate::from_ymd_opt(2026, 1, 1).expect("date"),
        "code,name,legalUnitOne,legalUnitTwo,elements\n\
         8518300000,耳机及耳塞机,007,,品名|用途|品牌|型号\n\
         8517130000,智能手机,007,,品名|品牌|型号\n\
         6109100000,棉制针织男式T恤衫,011,035,品名|织造方法|种类|成分含量\n",
        "test",
        &events::Metadata {
            actor_name: Some("test".into()),
            correlation_id: uuid::Uuid::now_v7(),
            command_id: uuid::Uuid::now_v7(),
            ..Default::default()
        },
    )
    .await
    .expect("import");
    caught_up(&app, "reference_rows", appended.position).await;
    let r = suggest(&app, &globex, &format!("q={}", encode("耳机"))).await;
    let first = &r["data"][0];
    assert_eq!(first["source"], "TARIFF_ZH", "{r}");
    assert_eq!(first["code"], "8518300000");
    assert_eq!(first["description"], "耳机及耳塞机");
    assert_eq!(first["legalUnits"], json!(["007"]));
    assert_eq!(first["elements"], "品名|用途|品牌|型号");
    assert_eq!(first["path"].as_array().map(Vec::len), Some(3));
    let r = suggest(&app, &globex, &format!("q={}", encode("男式T恤"))).await;
    assert_eq!(r["data"][0]["code"], "6109100000", "{r}");
    assert_eq!(r["data"][0]["legalUnits"], json!(["011", "035"]), "{r}");
    let r = suggest(&app, &globex, "q=851713").await;
    assert_eq!(codes(&r), ["8517130000", "851713"], "{r}");
    // A bad tariff file is refused whole, naming the line.
    let err = command::reference::import_table(
        &events::EventStore::new(app.pool.clone()),
        "hs-tariff-zh",
        chrono::NaiveDate::from_ymd_opt(2026, 2, 1).expect("date"),
        "code,name\n8517130000,智能手机\n8517990000,其他\n",
        "test",
        &events::Metadata::default(),
    )
    .await
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("line 3: code 8517990000: 851799 is not an HS 2022 subheading")
    );
}

/// Descriptions are answered with subheadings that end in a line of the 2026 tariff, with
/// its official name, parents and the words that matched; quantities pick the line's range.
#[sqlx::test(migrations = "./migrations")]
async fn suggestions_end_in_a_tariff_line_and_say_why(pool: PgPool) {
    let app = spawn(pool).await;
    clearway::seed::seed_hs_nomenclature(&app.pool)
        .await
        .expect("nomenclature");
    let operator = app.login("operator").await;

    for (q, hs6) in [
        ("sedan car 2000cc petrol", "870323"),
        ("whole milk 3.5% fat", "040120"),
        ("cotton t-shirts mens", "610910"),
        ("排量2.0L汽油小轿车", "870323"),
    ] {
        let r = suggest(&app, &operator, &format!("q={}&limit=5", encode(q))).await;
        assert_eq!(r["code"], 200, "{q}: {r}");
        let first = &r["data"][0];
        assert_eq!(first["code"], hs6, "{q}: {r}");
        assert_eq!(first["source"], "NOMENCLATURE", "{q}: {r}");
        let line = &first["tariffLine"];
        let code = line["code"].as_str().expect("tariff line code");
        assert!(code.len() == 10 && code.starts_with(hs6), "{q}: {r}");
        assert_eq!(line["edition"], "2026");
        assert!(
            line["nameZh"].as_str().is_some_and(|n| !n.is_empty()),
            "{r}"
        );
        let parents: Vec<&str> = line["parents"]
            .as_array()
            .expect("parents")
            .iter()
            .filter_map(|p| p["code"].as_str())
            .collect();
        assert!(
            parents.ends_with(&[hs6, &hs6[..4], &hs6[..2]]),
            "{q}: {parents:?}"
        );
        assert!(
            first["matched"].as_array().is_some_and(|m| !m.is_empty()),
            "{q}: {r}"
        );
    }
    // The 2000 cc car: a line of 1.5-2 litres, its legal unit and declaration elements.
    let r = suggest(
        &app,
        &operator,
        &format!("q={}&limit=1", encode("sedan car 2000cc petrol")),
    )
    .await;
    let line = &r["data"][0]["tariffLine"];
    assert!(
        line["code"]
            .as_str()
            .is_some_and(|c| c.starts_with("8703234")),
        "{r}"
    );
    assert_eq!(line["legalUnit"], "辆", "{r}");
    assert!(
        line["declarationElements"]
            .as_str()
            .is_some_and(|e| e.contains("品牌")),
        "{r}"
    );
    assert!(
        r["data"][0]["matched"]
            .as_array()
            .is_some_and(|m| m.iter().any(|w| w == "car")),
        "{r}"
    );
}

#[sqlx::test(migrations = "./migrations")]
async fn bad_input_and_foreign_customers_are_refused(pool: PgPool) {
    let app = spawn(pool).await;
    let acme = app.login("acme").await;
    let operator = app.login("operator").await;
    let globex_id = clearway::seed::customer_id("globex");
    let long = "手".repeat(101);

    for (token, query, status, field) in [
        (&acme, String::new(), 400, "q"),
        (&acme, "q=".to_string(), 400, "q"),
        (&acme, "q=+++".to_string(), 400, "q"),
        (&acme, format!("q={}", encode(&long)), 400, "q"),
        (&acme, "q=phone&limit=0".to_string(), 400, "limit"),
        (&acme, "q=phone&limit=21".to_string(), 400, "limit"),
        (&acme, "q=phone&limit=abc".to_string(), 400, "limit"),
        (&acme, "q=phone&limit=2.5".to_string(), 400, "limit"),
        (
            &operator,
            "q=phone&customerId=nope".to_string(),
            400,
            "customerId",
        ),
    ] {
        let r = suggest(&app, token, &query).await;
        assert_envelope(&r);
        assert_eq!(r["_status"], status, "{query}: {r}");
        assert_eq!(fields(&r), [field], "{query}: {r}");
        assert!(
            r["message"].as_str().is_some_and(|m| m.contains(field)),
            "{query}: {r}"
        );
    }
    // Another company's id, or an id of no customer: 404, whoever asks.
    for (token, id) in [
        (&acme, globex_id.to_string()),
        (&acme, "nope".to_string()),
        (&operator, uuid::Uuid::now_v7().to_string()),
    ] {
        let r = suggest(&app, token, &format!("q=phone&customerId={id}")).await;
        assert_envelope(&r);
        assert_eq!(r["_status"], 404, "{id}: {r}");
        assert!(
            r["message"]
                .as_str()
                .is_some_and(|m| m.contains("customerId")),
            "{r}"
        );
    }
    // No token: 401. Stop words only, or an unindexed nomenclature: an empty list, never a 5xx.
    let r = body(
        app.client
            .get(app.url("/api/v1/hs-suggestions?q=phone"))
            .send()
            .await
            .expect("get"),
    )
    .await;
    assert_eq!(r["_status"], 401, "{r}");
    for q in ["the+of+and", "%27%3A%26%7C%21", "phone"] {
        let r = suggest(&app, &operator, &format!("q={q}")).await;
        assert_eq!(r["_status"], 200, "{q}: {r}");
        assert_eq!(r["data"], json!([]), "{q}: {r}");
    }
}

/// The accuracy benchmark (`scripts/bench.sh extract`): over `seeds/hs-labelled.csv`, the
/// share whose six digits are the first suggestion and among the first five, through the
/// endpoint (staff, no product library: the subheadings the 2026 tariff index ranks), and
/// the nomenclature's full-text index without the glossary as the baseline; then the same
/// over `seeds/hs-goods-bench.csv` by split, beside the full-text ranking with the glossary
/// (what the endpoint answered before the tariff index), with the requests' p95.
#[sqlx::test(migrations = "./migrations")]
#[ignore = "benchmark: scripts/bench.sh extract"]
async fn bench_hs_labelled(pool: PgPool) {
    let app = spawn(pool).await;
    clearway::seed::seed_hs_nomenclature(&app.pool)
        .await
        .expect("nomenclature");
    let operator = app.login("operator").await;
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/hs-labelled.csv"),
    )
    .expect("labelled list");
    let rows = command::csv_text::parse(&text).expect("csv");

    // (language, top-1, top-5, n) through the endpoint, and the baseline without glossary.
    let mut tally: std::collections::BTreeMap<(&str, &str), (u32, u32, u32)> = Default::default();
    let mut misses = Vec::new();
    let started = std::time::Instant::now();
    let mut asked = 0u32;
    for r in rows.iter().skip(1) {
        let [lang, description, hs6] = r.fields.as_slice() else {
            panic!("line {}: three fields expected", r.line);
        };
        assert!(
            command::hs::is_subheading(hs6),
            "line {}: {hs6} is not an HS 2022 subheading",
            r.line
        );
        let lang = if lang == "zh" { "zh" } else { "en" };
        let answer = suggest(
            &app,
            &operator,
            &format!("q={}&limit=5", encode(description)),
        )
        .await;
        asked += 1;
        assert_eq!(answer["code"], 200, "{description}: {answer}");
        let got: Vec<String> = codes(&answer)
            .into_iter()
            .map(|c| c.chars().take(6).collect())
            .collect();
        let baseline = query::hs_suggestions::nomenclature_codes(&app.pool, description, 5, false)
            .await
            .expect("baseline");
        for (name, list) in [("endpoint", &got), ("baseline", &baseline)] {
            for key in [(name, lang), (name, "all")] {
                let t = tally.entry(key).or_default();
                t.0 += u32::from(list.first() == Some(hs6));
                t.1 += u32::from(list.contains(hs6));
                t.2 += 1;
            }
        }
        if !got.contains(hs6) {
            misses.push(format!("  {lang} {description:?}: {hs6}, got {got:?}"));
        }
    }
    // The everyday and trade goods of seeds/hs-goods-bench.csv, by split and language,
    // through the endpoint; and each request's time.
    let mut goods: std::collections::BTreeMap<(String, String), (u32, u32, u32)> =
        Default::default();
    let mut times = Vec::new();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds/hs-goods-bench.csv"),
    )
    .expect("goods list");
    let rows = command::csv_text::parse(&text).expect("csv");
    for r in rows.iter().skip(1) {
        let [lang, description, hs6, split] = r.fields.as_slice() else {
            panic!("line {}: four fields expected", r.line);
        };
        let t = std::time::Instant::now();
        let answer = suggest(
            &app,
            &operator,
            &format!("q={}&limit=5", encode(description)),
        )
        .await;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        let got: Vec<String> = codes(&answer)
            .into_iter()
            .map(|c| c.chars().take(6).collect())
            .collect();
        // The ranking before the tariff index: the nomenclature's full-text index with the
        // glossary.
        let before = query::hs_suggestions::nomenclature_codes(&app.pool, description, 5, true)
            .await
            .expect("full-text ranking");
        for (name, list) in [("endpoint", &got), ("full-text+glossary", &before)] {
            let e = goods
                .entry((format!("{split} {name}"), lang.clone()))
                .or_default();
            e.0 += u32::from(list.first() == Some(hs6));
            e.1 += u32::from(list.contains(hs6));
            e.2 += 1;
        }
    }
    println!("HS suggestions over seeds/hs-goods-bench.csv (six digits):");
    for ((split, lang), (t1, t5, n)) in &goods {
        let pct = |x: u32| 100.0 * f64::from(x) / f64::from((*n).max(1));
        println!(
            "  {split:<28} {lang} n={n:<4} top-1 {t1:>4} ({:>5.1}%) top-5 {t5:>4} ({:>5.1}%)",
            pct(*t1),
            pct(*t5)
        );
    }
    times.sort_by(f64::total_cmp);
    if !times.is_empty() {
        let p95 = times[(times.len() * 95 / 100).min(times.len() - 1)];
        println!(
            "  {} requests: p95 {p95:.1} ms (debug build, HTTP round trip)",
            times.len()
        );
    }
    let per_query = started.elapsed().as_secs_f64() * 1000.0 / f64::from(asked.max(1));
    println!();
    println!("HS suggestions over seeds/hs-labelled.csv (six digits; target top-5 >= 80%):");
    println!("{:<44} {:>5} {:>14} {:>14}", "", "n", "top-1", "top-5");
    for ((name, lang), (t1, t5, n)) in &tally {
        let label = match *name {
            "endpoint" => format!("endpoint (tariff index), {lang}"),
            _ => format!("nomenclature alone (no glossary), {lang}"),
        };
        let pct = |x: u32| 100.0 * f64::from(x) / f64::from((*n).max(1));
        println!(
            "{label:<44} {n:>5} {:>5} ({:>5.1}%) {:>5} ({:>5.1}%)",
            t1,
            pct(*t1),
            t5,
            pct(*t5)
        );
    }
    println!("{per_query:.1} ms per request (debug build, HTTP round trip)");
    println!("not in the top 5 ({}):", misses.len());
    for m in &misses {
        println!("{m}");
    }
}
