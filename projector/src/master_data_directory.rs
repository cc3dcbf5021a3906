//! `master_data_directory`: the customers' master data as lists, one row per record in
//! `rm_trade_companies`, `rm_products` and `rm_mapping_schemes`, with the audit columns
//! (create/update by and time) and `deleted`. Read by the master data queries
//! (`query::master_data_directory`) and by the upload (products to fill HS codes, schemes to read
//! files).
//!
//! Every row keeps the stream version it reflects and an event is applied only above it, so
//! applying an event twice (or replaying) changes nothing.

use std::sync::Arc;

use events::mapping_scheme::MappingSchemeEvent;
use events::product::ProductEvent;
use events::store::FeedBatch;
use events::trade_company::TradeCompanyEvent;
use events::{DomainEvent, RecordedEvent};
use futures::future::BoxFuture;
use sqlx::PgConnection;

use crate::{Projection, ProjectionError};

pub const NAME: &str = "master_data_directory";

pub fn projection() -> Arc<dyn Projection> {
    Arc::new(MasterDataDirectory)
}

pub struct MasterDataDirectory;

impl Projection for MasterDataDirectory {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [&'static str] {
        &["rm_trade_companies", "rm_products", "rm_mapping_schemes"]
    }

    fn apply<'a>(
        &'a self,
        tx: &'a mut PgConnection,
        window: &'a mut FeedBatch,
    ) -> BoxFuture<'a, Result<(), ProjectionError>> {
        crate::each_event!(tx, window, apply)
    }

    fn stream_types(&self) -> Option<&'static [&'static str]> {
        Some(&[
            events::trade_company::STREAM_TYPE,
            events::product::STREAM_TYPE,
            events::mapping_scheme::STREAM_TYPE,
        ])
    }
}

async fn apply(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    match event.stream_type.as_str() {
        events::trade_company::STREAM_TYPE => trade_company(tx, event).await,
        events::product::STREAM_TYPE => product(tx, event).await,
        events::mapping_scheme::STREAM_TYPE => mapping_scheme(tx, event).await,
        _ => Ok(()),
    }
}

/// Marks a row deleted (any of the three tables, keyed by `key`).
async fn delete(
    tx: &mut PgConnection,
    table: &str,
    key: &str,
    event: &RecordedEvent,
) -> Result<(), ProjectionError> {
    sqlx::query(&format!(
        "UPDATE {table} SET deleted = true, update_by = $3, update_time = $4, version = $2
          WHERE {key} = $1 AND version < $2"
    ))
    .bind(event.stream_id)
    .bind(event.stream_version)
    .bind(&event.metadata.actor_name)
    .bind(event.recorded_at)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

async fn trade_company(
    tx: &mut PgConnection,
    event: &RecordedEvent,
) -> Result<(), ProjectionError> {
    let (customer, f) = match TradeCompanyEvent::from_recorded(event)? {
        TradeCompanyEvent::Registered(r) => (Some(r.customer_id), r.fields),
        TradeCompanyEvent::Changed(c) => (None, c.fields),
        TradeCompanyEvent::Deleted(_) => {
            return delete(tx, "rm_trade_companies", "company_id", event).await;
        }
    };
    if let Some(customer) = customer {
        sqlx::query(
            "INSERT INTO rm_trade_companies (company_id, customer_id, company_name_cn,
                 company_name_en, uscc, customs_code, inspection_code, address, create_by,
                 create_time, update_by, update_time, deleted, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9, $10, false, $11)
             ON CONFLICT (company_id) DO NOTHING",
        )
        .bind(event.stream_id)
        .bind(customer)
        .bind(&f.company_name_cn)
        .bind(&f.company_name_en)
        .bind(&f.uscc)
        .bind(&f.customs_code)
        .bind(&f.inspection_code)
        .bind(&f.address)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .bind(event.stream_version)
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE rm_trade_companies SET company_name_cn = $3, company_name_en = $4,
                 uscc = $5, customs_code = $6, inspection_code = $7, address = $8,
                 update_by = $9, update_time = $10, version = $2
              WHERE company_id = $1 AND version < $2",
        )
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(&f.company_name_cn)
        .bind(&f.company_name_en)
        .bind(&f.uscc)
        .bind(&f.customs_code)
        .bind(&f.inspection_code)
        .bind(&f.address)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

async fn product(tx: &mut PgConnection, event: &RecordedEvent) -> Result<(), ProjectionError> {
    let (customer, f) = match ProductEvent::from_recorded(event)? {
        ProductEvent::Registered(r) => (Some(r.customer_id), r.fields),
        ProductEvent::Changed(c) => (None, c.fields),
        ProductEvent::Deleted(_) => {
            return delete(tx, "rm_products", "product_id", event).await;
        }
    };
    // The search vector of the HS suggestions: the descriptions' English words (stemmed)
    // and their Chinese words (jieba), as `query::hs_suggestions` searches them.
    let text = format!(
        "{} {}",
        f.description_cn,
        f.description_en.as_deref().unwrap_or_default()
    );
    let chinese = textsearch::chinese_index_text(&text);
    if let Some(customer) = customer {
        sqlx::query(
            "INSERT INTO rm_products (product_id, customer_id, description_cn, description_en,
                 hs_code, declaration_elements, declared_unit, legal_unit_one, legal_unit_two,
                 origin_country, unit_price, currency, create_by, create_time, update_by,
                 update_time, deleted, version, search)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $13, $14,
                     false, $15,
                     to_tsvector('english', $16) || to_tsvector('simple', $17))
             ON CONFLICT (product_id) DO NOTHING",
        )
        .bind(event.stream_id)
        .bind(customer)
        .bind(&f.description_cn)
        .bind(&f.description_en)
        .bind(&f.hs_code)
        .bind(&f.declaration_elements)
        .bind(&f.declared_unit)
        .bind(&f.legal_unit_one)
        .bind(&f.legal_unit_two)
        .bind(&f.origin_country)
        .bind(f.unit_price)
        .bind(&f.currency)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .bind(event.stream_version)
        .bind(&text)
        .bind(&chinese)
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE rm_products SET description_cn = $3, description_en = $4, hs_code = $5,
                 declaration_elements = $6, declared_unit = $7, legal_unit_one = $8,
                 legal_unit_two = $9, origin_country = $10, unit_price = $11, currency = $12,
                 update_by = $13, update_time = $14, version = $2,
                 search = to_tsvector('english', $15) || to_tsvector('simple', $16)
              WHERE product_id = $1 AND version < $2",
        )
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(&f.description_cn)
        .bind(&f.description_en)
        .bind(&f.hs_code)
        .bind(&f.declaration_elements)
        .bind(&f.declared_unit)
        .bind(&f.legal_unit_one)
        .bind(&f.legal_unit_two)
        .bind(&f.origin_country)
        .bind(f.unit_price)
        .bind(&f.currency)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .bind(&text)
        .bind(&chinese)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

async fn mapping_scheme(
    tx: &mut PgConnection,
    event: &RecordedEvent,
) -> Result<(), ProjectionError> {
    let (customer, d) = match MappingSchemeEvent::from_recorded(event)? {
        MappingSchemeEvent::Registered(r) => (Some(r.customer_id), r.definition),
        MappingSchemeEvent::Changed(c) => (None, c.definition),
        MappingSchemeEvent::Deleted(_) => {
            return delete(tx, "rm_mapping_schemes", "scheme_id", event).await;
        }
    };
    let definition =
        serde_json::to_value(&d).map_err(|e| ProjectionError::Invalid(e.to_string()))?;
    let columns = i32::try_from(d.columns.len()).unwrap_or(i32::MAX);
    if let Some(customer) = customer {
        sqlx::query(
            "INSERT INTO rm_mapping_schemes (scheme_id, customer_id, name, declaration_type,
                 definition, column_count, create_by, create_time, update_by, update_time,
                 deleted, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7, $8, false, $9)
             ON CONFLICT (scheme_id) DO NOTHING",
        )
        .bind(event.stream_id)
        .bind(customer)
        .bind(&d.name)
        .bind(&d.declaration_type)
        .bind(&definition)
        .bind(columns)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .bind(event.stream_version)
        .execute(&mut *tx)
        .await?;
    } else {
        sqlx::query(
            "UPDATE rm_mapping_schemes SET name = $3, declaration_type = $4, definition = $5,
                 column_count = $6, update_by = $7, update_time = $8, version = $2
              WHERE scheme_id = $1 AND version < $2",
        )
        .bind(event.stream_id)
        .bind(event.stream_version)
        .bind(&d.name)
        .bind(&d.declaration_type)
        .bind(&definition)
        .bind(columns)
        .bind(&event.metadata.actor_name)
        .bind(event.recorded_at)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
