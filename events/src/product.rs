//! Events of the `Product` aggregate: an article of a customer's product library, used to
//! fill goods lines (HS code, declaration elements, units, origin, price) in the declaration
//! form and to fill missing HS codes in uploads. One stream per product (a random id),
//! owned by one customer for its whole life. `ProductChanged` carries the whole record.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "product";

/// The fields of a product (wire names in camelCase). Empty optional fields are `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProductFields {
    /// Chinese description (the goods line's `goodsName`); required.
    pub description_cn: String,
    pub description_en: Option<String>,
    /// 10 digits; the first six a subheading of HS 2022.
    pub hs_code: String,
    /// Declaration elements (申报要素), pipe separated (the goods line's `specification`).
    pub declaration_elements: Option<String>,
    /// Declared unit (units table, e.g. `011` 件); required.
    pub declared_unit: String,
    /// First and second legal units (units table).
    pub legal_unit_one: Option<String>,
    pub legal_unit_two: Option<String>,
    /// Default country of origin (countries table, ISO alpha-3).
    pub origin_country: Option<String>,
    /// Written as text (`"199.90"`), so no precision is lost to floating point.
    #[serde(with = "decimal_text")]
    pub unit_price: Option<Decimal>,
    /// Currency of `unitPrice` (currencies table, e.g. `USD`).
    pub currency: Option<String>,
}

/// An optional decimal as JSON text: `"199.9"` or `null`; a JSON number reads too.
mod decimal_text {
    use std::str::FromStr;

    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(d) => s.serialize_str(&d.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        match Option::<serde_json::Value>::deserialize(d)? {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(t)) => Decimal::from_str(t.trim())
                .map(Some)
                .map_err(serde::de::Error::custom),
            Some(serde_json::Value::Number(n)) => Decimal::from_str(&n.to_string())
                .map(Some)
                .map_err(serde::de::Error::custom),
            Some(_) => Err(serde::de::Error::custom("unitPrice must be a decimal")),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    pub customer_id: Uuid,
    #[serde(flatten)]
    pub fields: ProductFields,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    #[serde(flatten)]
    pub fields: ProductFields,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum ProductEvent {
    #[serde(rename = "ProductRegistered")]
    Registered(Registered),
    #[serde(rename = "ProductChanged")]
    Changed(Changed),
    #[serde(rename = "ProductDeleted")]
    Deleted(Deleted),
}

impl DomainEvent for ProductEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "ProductRegistered",
            Self::Changed(_) => "ProductChanged",
            Self::Deleted(_) => "ProductDeleted",
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
    use std::str::FromStr;

    #[test]
    fn a_product_round_trips_with_its_price_as_text() {
        let e = ProductEvent::Registered(Registered {
            customer_id: Uuid::nil(),
            fields: ProductFields {
                description_cn: "智能手机".into(),
                hs_code: "8517130000".into(),
                declared_unit: "011".into(),
                unit_price: Some(Decimal::from_str("199.90").expect("decimal")),
                currency: Some("USD".into()),
                ..Default::default()
            },
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "ProductRegistered");
        assert_eq!(n.payload["hsCode"], "8517130000");
        assert_eq!(n.payload["unitPrice"], "199.90");
        let back: ProductEvent = serde_json::from_value(
            serde_json::json!({"type": "ProductRegistered", "data": n.payload}),
        )
        .expect("decodes");
        assert_eq!(back, e);
    }

    #[test]
    fn a_product_without_a_price_round_trips() {
        let e = ProductEvent::Changed(Changed {
            fields: ProductFields {
                description_cn: "路由器".into(),
                hs_code: "8517623600".into(),
                declared_unit: "011".into(),
                ..Default::default()
            },
        });
        let n = e.to_new_event();
        assert!(n.payload["unitPrice"].is_null());
        let back: ProductEvent = serde_json::from_value(
            serde_json::json!({"type": "ProductChanged", "data": n.payload}),
        )
        .expect("decodes");
        assert_eq!(back, e);
        // Absent reads as no price too.
        let absent: ProductFields =
            serde_json::from_value(serde_json::json!({"hsCode": "8517623600"})).expect("decodes");
        assert_eq!(absent.unit_price, None);
    }
}
