//! Against a real PostgreSQL: seed every table, load the snapshot, look codes up; import a
//! later version and check that an earlier date still sees the earlier rows.

mod reference_support;

use command::reference::{ImportError, ReferenceCache, ReferenceData, import_table, seed_all};
use events::reference::seeded_tables;
use events::{EventStore, Metadata, StoreError};
use reference_support::{day, seed_dir, seed_text};
use rust_decimal::Decimal;
use sqlx::PgPool;
use uuid::Uuid;

fn metadata() -> Metadata {
    Metadata {
        actor_name: Some("seed".into()),
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn seed_load_and_versions(pool: PgPool) -> Result<(), Box<dyn std::error::Error>> {
    let store = EventStore::new(pool);
    let jan = day(2026, 1, 1);

    let report = seed_all(&store, &seed_dir(), jan, &metadata()).await?;
    assert_eq!(report.imported.len(), seeded_tables().count());
    assert!(report.unchanged.is_empty());

    // Idempotent: the same files again, or on a later date, append nothing.
    let again = seed_all(&store, &seed_dir(), jan, &metadata()).await?;
    assert!(again.imported.is_empty());
    assert_eq!(again.unchanged.len(), seeded_tables().count());
    let later = seed_all(&store, &seed_dir(), day(2026, 6, 1), &metadata()).await?;
    assert!(later.imported.is_empty());

    let cache = ReferenceCache::load(&store).await?;
    let data = cache.current();
    let on = day(2026, 11, 22);
    for table in seeded_tables() {
        assert!(data.is_loaded(table), "{table}");
    }
    assert!(!data.is_loaded("hs-tariff-zh"));
    assert!(data.exists("supervision-modes", "9610", on));
    assert!(data.exists("countries", "CHN", on));
    assert!(data.exists("customs-offices", "5300", on));
    assert!(!data.exists("countries", "XXX", on));
    assert!(!data.exists("countries", "CHN", day(2025, 12, 31)));
    assert_eq!(
        data.unit_conversion("036", on),
        Some(("035".into(), "0.001".parse()?))
    );
    assert_eq!(data.exchange_rate("CNY", on), Some(Decimal::ONE));
    assert!(data.exchange_rate("USD", on).is_some());

    // December rates: one currency only. November keeps the seed's rates.
    let dec = day(2026, 12, 1);
    let appended = import_table(
        &store,
        "exchange-rates",
        dec,
        "code,name,rate\nUSD,美元,7.25\n",
        "test",
        &metadata(),
    )
    .await?;
    assert_eq!(appended.version, 2);
    let data = cache.reload(&store).await?;
    assert_eq!(data.exchange_rate("USD", dec), Some("7.25".parse()?));
    assert_eq!(data.exchange_rate("EUR", dec), None);
    assert!(data.exchange_rate("EUR", day(2026, 11, 30)).is_some());
    assert_eq!(data.versions("exchange-rates").len(), 2);
    assert!(cache.current().exists("exchange-rates", "USD", dec));

    // Seeding in December brings the seed's rates back as a new version from that date.
    let reseed = seed_all(&store, &seed_dir(), day(2026, 12, 15), &metadata()).await?;
    assert_eq!(
        reseed
            .imported
            .iter()
            .map(|(t, _)| t.as_str())
            .collect::<Vec<_>>(),
        ["exchange-rates"]
    );
    let data = ReferenceData::load(&store).await?;
    assert!(data.exchange_rate("EUR", day(2026, 12, 15)).is_some());
    assert_eq!(data.exchange_rate("EUR", day(2026, 12, 14)), None);
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn import_rejects_bad_input_and_appends_nothing(
    pool: PgPool,
) -> Result<(), Box<dyn std::error::Error>> {
    let store = EventStore::new(pool);
    let jan = day(2026, 1, 1);
    let bad = [
        ("no-such-table", "code,name\n1,a\n"),
        ("units", "name\n千克\n"),
        ("units", "code,name\n035,千克\n035,克\n"),
        ("units", "code,name\n"),
    ];
    for (table, text) in bad {
        let result = import_table(&store, table, jan, text, "test", &metadata()).await;
        assert!(result.is_err(), "{table}: {text}");
    }
    let data = ReferenceData::load(&store).await?;
    assert!(!data.is_loaded("units"));

    import_table(
        &store,
        "units",
        jan,
        &seed_text("units"),
        "test",
        &metadata(),
    )
    .await?;
    assert!(
        ReferenceData::load(&store)
            .await?
            .exists("units", "035", jan)
    );
    Ok(())
}

#[sqlx::test(migrations = "../migrations")]
async fn concurrent_imports_of_one_table_conflict(
    pool: PgPool,
) -> Result<(), Box<dyn std::error::Error>> {
    let store = EventStore::new(pool);
    let jan = day(2026, 1, 1);
    let text = "code,name\nUSD,美元\n";
    let meta = metadata();
    let (a, b) = tokio::join!(
        import_table(&store, "currencies", jan, text, "a", &meta),
        import_table(&store, "currencies", jan, text, "b", &meta),
    );
    let conflicts = [&a, &b]
        .iter()
        .filter(|r| matches!(r, Err(ImportError::Store(StoreError::Conflict { .. }))))
        .count();
    let oks = [&a, &b].iter().filter(|r| r.is_ok()).count();
    // Either they raced (one conflict) or ran one after the other (both fine, versions 1, 2).
    assert_eq!(oks + conflicts, 2);
    assert!(oks >= 1);
    let version = store
        .stream_version(events::reference::stream_id("currencies"))
        .await?;
    assert_eq!(version, oks as i64);
    Ok(())
}

/// The periodic refresh reads the reference streams again only when one has grown.
#[sqlx::test(migrations = "../migrations")]
async fn a_refresh_reads_again_only_what_changed(
    pool: PgPool,
) -> Result<(), Box<dyn std::error::Error>> {
    let store = EventStore::new(pool);
    import_table(
        &store,
        "exchange-rates",
        day(2026, 1, 1),
        "code,name,rate\nUSD,美元,7.10\n",
        "test",
        &metadata(),
    )
    .await?;
    let cache = ReferenceCache::load(&store).await?;
    // The first refresh reads (it does not know what the load saw), the next has nothing new.
    assert!(cache.refresh(&store).await?);
    assert!(!cache.refresh(&store).await?);
    assert!(!cache.refresh(&store).await?);
    let dec = day(2026, 12, 1);
    import_table(
        &store,
        "exchange-rates",
        dec,
        "code,name,rate\nUSD,美元,7.25\n",
        "test",
        &metadata(),
    )
    .await?;
    assert!(cache.refresh(&store).await?);
    assert_eq!(
        cache.current().exchange_rate("USD", dec),
        Some("7.25".parse()?)
    );
    assert!(!cache.refresh(&store).await?);
    Ok(())
}
