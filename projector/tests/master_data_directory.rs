//! The `master_data_directory` projection against a real PostgreSQL: registered, changed and
//! deleted records of the three master data streams, and a replay changing nothing.

use projector::master_data_directory;
use projector::{ProjectionError, apply_events};

use events::mapping_scheme::{self, ColumnMapping, MappingSchemeEvent, SchemeDefinition};
use events::product::{self, ProductEvent, ProductFields};
use events::trade_company::{self, TradeCompanyEvent, TradeCompanyFields};
use events::{DomainEvent, EventStore, Metadata, NewEvent, RecordedEvent};
use sqlx::PgPool;
use uuid::Uuid;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

async fn append(
    store: &EventStore,
    stream_type: &str,
    id: Uuid,
    events: &[NewEvent],
) -> Result<()> {
    let version = store.stream_version(id).await?;
    let meta = Metadata {
        actor_name: Some("acme".into()),
        correlation_id: Uuid::new_v4(),
        command_id: Uuid::new_v4(),
        ..Metadata::default()
    };
    store
        .append(stream_type, id, version, events, &meta)
        .await?;
    Ok(())
}

async fn project(
    pool: &PgPool,
    events: &[RecordedEvent],
) -> std::result::Result<(), ProjectionError> {
    let projection = master_data_directory::projection();
    let mut tx = pool.begin().await?;
    apply_events(projection.as_ref(), &mut tx, events).await?;
    tx.commit().await?;
    Ok(())
}

async fn all_events(store: &EventStore, ids: &[Uuid]) -> Result<Vec<RecordedEvent>> {
    let mut out = Vec::new();
    for id in ids {
        out.extend(store.read_stream(*id).await?);
    }
    out.sort_by_key(|e| e.global_position);
    Ok(out)
}

#[sqlx::test(migrations = "../migrations")]
async fn records_are_registered_changed_and_deleted(pool: PgPool) -> Result<()> {
    let store = EventStore::new(pool.clone());
    let owner = Uuid::now_v7();
    let (company, item, scheme) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let fields = TradeCompanyFields {
        company_name_cn: "深圳某某科技有限公司".into(),
        uscc: "91440300MA5FHK4H1F".into(),
        ..Default::default()
    };
    append(
        &store,
        trade_company::STREAM_TYPE,
        company,
        &[
            TradeCompanyEvent::Registered(trade_company::Registered {
                customer_id: owner,
                fields: fields.clone(),
            })
            .to_new_event(),
            TradeCompanyEvent::Changed(trade_company::Changed {
                fields: TradeCompanyFields {
                    address: Some("深圳".into()),
                    ..fields
                },
            })
            .to_new_event(),
        ],
    )
    .await?;
    append(
        &store,
        product::STREAM_TYPE,
        item,
        &[
            ProductEvent::Registered(product::Registered {
                customer_id: owner,
                fields: ProductFields {
                    description_cn: "智能手机".into(),
                    hs_code: "8517130000".into(),
                    declared_unit: "011".into(),
                    unit_price: Some(rust_decimal::Decimal::new(1999, 1)),
                    ..Default::default()
                },
            })
            .to_new_event(),
            ProductEvent::Deleted(product::Deleted { reason: None }).to_new_event(),
        ],
    )
    .await?;
    append(
        &store,
        mapping_scheme::STREAM_TYPE,
        scheme,
        &[MappingSchemeEvent::Registered(mapping_scheme::Registered {
            customer_id: owner,
            definition: SchemeDefinition {
                name: "Acme".into(),
                columns: vec![ColumnMapping {
                    field: "trackingNumber".into(),
                    header: Some("Waybill".into()),
                    ..Default::default()
                }],
                ..Default::default()
            },
        })
        .to_new_event()],
    )
    .await?;
    let events = all_events(&store, &[company, item, scheme]).await?;
    project(&pool, &events).await?;
    // Applying everything again changes nothing.
    project(&pool, &events).await?;

    let (address, version): (Option<String>, i64) =
        sqlx::query_as("SELECT address, version FROM rm_trade_companies WHERE company_id = $1")
            .bind(company)
            .fetch_one(&pool)
            .await?;
    assert_eq!((address.as_deref(), version), (Some("深圳"), 2));
    let (deleted, price): (bool, Option<rust_decimal::Decimal>) =
        sqlx::query_as("SELECT deleted, unit_price FROM rm_products WHERE product_id = $1")
            .bind(item)
            .fetch_one(&pool)
            .await?;
    assert!(deleted);
    assert_eq!(price, Some(rust_decimal::Decimal::new(1999, 1)));
    let (name, columns, header): (String, i32, Option<String>) = sqlx::query_as(
        "SELECT name, column_count, definition->'columns'->0->>'header'
           FROM rm_mapping_schemes WHERE scheme_id = $1",
    )
    .bind(scheme)
    .fetch_one(&pool)
    .await?;
    assert_eq!(
        (name.as_str(), columns, header.as_deref()),
        ("Acme", 1, Some("Waybill"))
    );
    Ok(())
}
