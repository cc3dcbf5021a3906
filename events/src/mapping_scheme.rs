//! Events of the `MappingScheme` aggregate: how a customer's own spreadsheet layout is read
//! into declarations. A scheme maps columns (found by header text, by aliases, or by
//! position) to declaration and goods-line fields, translates values ("KG" -> `035`,
//! "China" -> `CHN`) and supplies default values. One stream per scheme (a random id),
//! owned by one customer. `MappingSchemeChanged` carries the whole definition.
//!
//! The definition types live here because they are the events' payload; applying a scheme
//! to a row is pure and lives in `command::mapping_scheme::model`.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "mapping_scheme";

/// A whole scheme as the customer defines it (wire names in camelCase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SchemeDefinition {
    /// Shown in lists; required, at most 100 characters.
    pub name: String,
    /// The declaration type the scheme is for (`OB`, `OC`, `OD`, `IB`, `IC`, `ID`); `None`:
    /// any (the upload names the type).
    pub declaration_type: Option<String>,
    /// 1-based row of the header cells (default 1); data rows follow it.
    pub header_row: u32,
    /// The columns read, one per target field.
    pub columns: Vec<ColumnMapping>,
    /// Value translations, applied to a field's cell before it is checked.
    pub translations: Vec<Translation>,
    /// Values used when a field's cell is empty or its column is missing.
    pub defaults: Vec<FieldDefault>,
}

impl Default for SchemeDefinition {
    fn default() -> Self {
        Self {
            name: String::new(),
            declaration_type: None,
            header_row: 1,
            columns: Vec::new(),
            translations: Vec::new(),
            defaults: Vec::new(),
        }
    }
}

/// Where one target field is read from. The column is found by `header` first, then by any
/// of `aliases` (both compared ignoring case, spaces and full-width forms), then by
/// `position`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ColumnMapping {
    /// The target: a declaration field's wire name (`trackingNumber`, `grossWeight`), the
    /// declaration type (`declarationType`), or a goods-line field as
    /// `declarationGoodsInfo.<field>` (`declarationGoodsInfo.goodsCode`).
    pub field: String,
    pub header: Option<String>,
    pub aliases: Vec<String>,
    /// 1-based column number (A = 1).
    pub position: Option<u32>,
}

/// `from` (compared ignoring case and surrounding spaces) becomes `to` in `field`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Translation {
    pub field: String,
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FieldDefault {
    pub field: String,
    pub value: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registered {
    pub customer_id: Uuid,
    pub definition: SchemeDefinition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Changed {
    pub definition: SchemeDefinition,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum MappingSchemeEvent {
    #[serde(rename = "MappingSchemeRegistered")]
    Registered(Registered),
    #[serde(rename = "MappingSchemeChanged")]
    Changed(Changed),
    #[serde(rename = "MappingSchemeDeleted")]
    Deleted(Deleted),
}

impl DomainEvent for MappingSchemeEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Registered(_) => "MappingSchemeRegistered",
            Self::Changed(_) => "MappingSchemeChanged",
            Self::Deleted(_) => "MappingSchemeDeleted",
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
    fn a_definition_reads_with_defaults_for_what_is_missing() {
        let d: SchemeDefinition = serde_json::from_value(serde_json::json!({
            "name": "Acme",
            "columns": [{"field": "trackingNumber", "header": "Waybill"}]
        }))
        .expect("reads");
        assert_eq!(d.header_row, 1);
        assert_eq!(d.columns[0].aliases, Vec::<String>::new());
        assert!(d.translations.is_empty());
        let e = MappingSchemeEvent::Registered(Registered {
            customer_id: Uuid::nil(),
            definition: d,
        });
        assert_eq!(e.to_new_event().payload["definition"]["headerRow"], 1);
    }
}
