//! Events of the `TradeCompany` aggregate: a company a customer trades with (consignee,
//! consignor, owner or declaring agent of its declarations), kept in the customer's own
//! master data so that the declaration form can fill a party from it. One stream per
//! company (a random id); the stream belongs to one customer for its whole life.
//!
//! `TradeCompanyChanged` carries the whole record as it is after the change (the record is
//! small), so a reader never has to merge partial changes.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "trade_company";

/// The fields of a trade company (wire names in camelCase). Empty optional fields are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TradeCompanyFields {
    /// Chinese name (required).
    pub company_name_cn: String,
    pub company_name_en: Option<String>,
    /// Unified social credit code (18 characters, GB 32100-2015 check character).
    pub uscc: String,
    /// Customs registration code (10 characters).
    pub customs_code: Option<String>,
    /// Inspection (CIQ) registration code (10 digits).
    pub inspection_code: Option<String>,
    pub address: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    /// The customer (company account) that owns the record.
    pub customer_id: Uuid,
    #[serde(flatten)]
    pub fields: TradeCompanyFields,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    #[serde(flatten)]
    pub fields: TradeCompanyFields,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum TradeCompanyEvent {
    #[serde(rename = "TradeCompanyRegistered")]
    Registered(Registered),
    #[serde(rename = "TradeCompanyChanged")]
    Changed(Changed),
    #[serde(rename = "TradeCompanyDeleted")]
    Deleted(Deleted),
}

impl DomainEvent for TradeCompanyEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "TradeCompanyRegistered",
            Self::Changed(_) => "TradeCompanyChanged",
            Self::Deleted(_) => "TradeCompanyDeleted",
        }
    }

    fn schema_version(&self) -> i32 {
        1
    }

    fn to_new_event(&self) -> NewEvent {
        split_tagged(self, 1)
    }

    fn from_recorded(event: &RecordedEvent) -> Result<Self, StoreError> {
        join_tagged(event, event.payload.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_travel_flat_in_camel_case() {
        let e = TradeCompanyEvent::Registered(Registered {
            customer_id: Uuid::nil(),
            fields: TradeCompanyFields {
                company_name_cn: "深圳某某科技有限公司".into(),
                uscc: "91440300MA5FHK4H1F".into(),
                customs_code: Some("4403960ABC".into()),
                ..Default::default()
            },
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "TradeCompanyRegistered");
        assert_eq!(n.payload["companyNameCn"], "深圳某某科技有限公司");
        assert_eq!(n.payload["customsCode"], "4403960ABC");
        assert_eq!(n.payload["customerId"], Uuid::nil().to_string());
    }
}
