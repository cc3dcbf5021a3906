//! Events of the `ContactBook` aggregate: the spec's "contacter store", a customer's saved
//! notice contacts (WeChat with its openId, e-mail, phone), each for the sender side
//! (`shipFrom`) or the receiver side (`shipTo`) and with a colour tag, which the clearance
//! exception form offers. One stream per customer, its id derived from the customer's
//! ([`stream_id`]); every save carries the whole book (it is small), so a reader never
//! merges partial changes.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::pii::Personal;
use crate::{DomainEvent, NewEvent, RecordedEvent, StoreError, join_tagged, split_tagged};

pub const STREAM_TYPE: &str = "contact_book";

/// A saved contact (`{channel, value}`) is personal by its channel: the stream is sealed,
/// with no field of its own to name (docs/personal-data.md).
pub const PERSONAL: Personal = Personal {
    stream_type: STREAM_TYPE,
    fields: &[],
};

/// The stream of `customer`'s contact book.
pub fn stream_id(customer: Uuid) -> Uuid {
    Uuid::new_v5(&customer, b"clearway:contact-book")
}

/// One saved contact.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SavedContact {
    /// `wechat`, `email` or `phone`.
    pub channel: String,
    /// `shipFrom` (the sender side) or `shipTo` (the receiver side).
    pub side: String,
    /// Who it is (a person or a desk), as the list shows it.
    pub name: String,
    /// The e-mail address or phone number; for WeChat the openId.
    pub value: String,
    /// A colour tag: red, orange, yellow, green, blue, purple or gray.
    pub color: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Saved {
    pub customer_id: Uuid,
    pub contacts: Vec<SavedContact>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "data")]
pub enum ContactBookEvent {
    #[serde(rename = "ContactBookSaved")]
    Saved(Saved),
}

impl DomainEvent for ContactBookEvent {
    fn event_type(&self) -> &'static str {
        match self {
            Self::Saved(_) => "ContactBookSaved",
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
    fn the_book_travels_whole_in_camel_case_on_a_stream_of_its_own() {
        let customer = Uuid::from_u128(7);
        let e = ContactBookEvent::Saved(Saved {
            customer_id: customer,
            contacts: vec![SavedContact {
                channel: "wechat".into(),
                side: "shipTo".into(),
                name: "Li Lei".into(),
                value: "oAbCdEfGh123".into(),
                color: "green".into(),
            }],
        });
        let n = e.to_new_event();
        assert_eq!(n.event_type, "ContactBookSaved");
        assert_eq!(n.payload["contacts"][0]["side"], "shipTo");
        assert_eq!(stream_id(customer), stream_id(customer));
        assert_ne!(stream_id(customer), customer);
    }
}
