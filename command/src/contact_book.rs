//! The `ContactBook` aggregate: a customer's saved notice contacts (the spec's "contacter
//! store"), offered by the clearance exception form. Pure `evolve` and `decide`; the routes
//! are in `contact_book/routes.rs`.
//!
//! A save replaces the whole book. Rules, each naming its field (`contacts[i].<name>`):
//! `channel` one of wechat, email, phone; `side` shipFrom or shipTo; `name` at most 50
//! characters; `value` required: an e-mail address, a phone number (5 to 20 digits with
//! `+ - ( )` and spaces), or a WeChat openId (6 to 64 letters, digits, `-`, `_`); `color`
//! one of [`COLORS`] (blank: gray); at most [`MAX_CONTACTS`] contacts, no contact twice
//! (same channel, side and value). Saving the book unchanged appends nothing.

pub mod routes;

use events::contact_book::{ContactBookEvent, Saved, SavedContact};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};
use crate::master_data::refuse_if_any;
use crate::rules::{email_ok, phone_ok};

pub const CHANNELS: [&str; 3] = ["wechat", "email", "phone"];
pub const SIDES: [&str; 2] = ["shipFrom", "shipTo"];
pub const COLORS: [&str; 7] = ["red", "orange", "yellow", "green", "blue", "purple", "gray"];
pub const MAX_CONTACTS: usize = 200;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ContactBookState {
    pub customer_id: Option<Uuid>,
    pub contacts: Vec<SavedContact>,
}

impl Aggregate for ContactBookState {
    type Event = ContactBookEvent;
    type Command = ContactBookCommand;
    const STREAM_TYPE: &'static str = events::contact_book::STREAM_TYPE;

    fn evolve(&mut self, event: &ContactBookEvent) {
        match event {
            ContactBookEvent::Saved(s) => {
                self.customer_id = Some(s.customer_id);
                self.contacts = s.contacts.clone();
            }
        }
    }

    fn decide(
        &self,
        cmd: ContactBookCommand,
        _ctx: &Ctx,
    ) -> Result<Vec<ContactBookEvent>, DomainError> {
        match cmd {
            ContactBookCommand::Save { customer, contacts } => save(self, customer, contacts),
        }
    }
}

fn openid_ok(s: &str) -> bool {
    (6..=64).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The contacts as typed, trimmed (a blank colour is gray, e-mail addresses lower-cased).
pub fn normalize(contacts: Vec<SavedContact>) -> Vec<SavedContact> {
    contacts
        .into_iter()
        .map(|c| {
            let channel = c.channel.trim().to_lowercase();
            let value = c.value.trim();
            SavedContact {
                value: if channel == "email" {
                    value.to_lowercase()
                } else {
                    value.to_string()
                },
                channel,
                side: c.side.trim().to_string(),
                name: c.name.trim().to_string(),
                color: match c.color.trim() {
                    "" => "gray".to_string(),
                    other => other.to_lowercase(),
                },
            }
        })
        .collect()
}

/// Every rule the book breaks.
pub fn check(contacts: &[SavedContact]) -> Vec<Violation> {
    let mut v = Vec::new();
    if contacts.len() > MAX_CONTACTS {
        v.push(Violation::new(
            "contacts",
            "too_many",
            format!("contacts：最多 {MAX_CONTACTS} 个联系人"),
            format!("contacts: at most {MAX_CONTACTS} contacts"),
        ));
        return v;
    }
    for (i, c) in contacts.iter().enumerate() {
        let f = |name: &str| format!("contacts[{i}].{name}");
        if !CHANNELS.contains(&c.channel.as_str()) {
            v.push(Violation::new(
                f("channel"),
                "channel",
                format!("{}：渠道应为 wechat、email 或 phone", f("channel")),
                format!("{}: must be wechat, email or phone", f("channel")),
            ));
        }
        if !SIDES.contains(&c.side.as_str()) {
            v.push(Violation::new(
                f("side"),
                "side",
                format!("{}：应为 shipFrom（发件方）或 shipTo（收件方）", f("side")),
                format!("{}: must be shipFrom or shipTo", f("side")),
            ));
        }
        if c.name.chars().count() > 50 {
            v.push(Violation::new(
                f("name"),
                "too_long",
                format!("{}：最多 50 个字符", f("name")),
                format!("{}: at most 50 characters", f("name")),
            ));
        }
        if !COLORS.contains(&c.color.as_str()) {
            v.push(Violation::new(
                f("color"),
                "color",
                format!("{}：颜色应为 {}", f("color"), COLORS.join("、")),
                format!("{}: must be one of {}", f("color"), COLORS.join(", ")),
            ));
        }
        let value_ok = match c.channel.as_str() {
            "email" => email_ok(&c.value) && c.value.chars().count() <= 100,
            "phone" => phone_ok(&c.value),
            "wechat" => openid_ok(&c.value),
            _ => true,
        };
        if c.value.is_empty() {
            v.push(Violation::new(
                f("value"),
                "required",
                format!("{}：请填写联系方式", f("value")),
                format!("{}: is required", f("value")),
            ));
        } else if !value_ok {
            let (zh, en) = match c.channel.as_str() {
                "email" => ("邮箱格式不正确", "not an e-mail address"),
                "phone" => ("电话号码格式不正确", "not a phone number"),
                _ => (
                    "微信 openId 应为 6 至 64 位字母、数字、- 或 _",
                    "a WeChat openId is 6 to 64 letters, digits, - or _",
                ),
            };
            v.push(Violation::new(
                f("value"),
                "invalid",
                format!("{}：{zh}", f("value")),
                format!("{}: {en}", f("value")),
            ));
        } else if contacts[..i]
            .iter()
            .any(|o| o.channel == c.channel && o.side == c.side && o.value == c.value)
        {
            v.push(Violation::new(
                f("value"),
                "duplicate",
                format!("{}：该联系人已在列表中", f("value")),
                format!("{}: this contact is already in the book", f("value")),
            ));
        }
    }
    v
}

/// What may be asked of a contact book.
#[derive(Debug, Clone)]
pub enum ContactBookCommand {
    /// Saves `customer`'s whole book.
    Save {
        customer: Uuid,
        contacts: Vec<SavedContact>,
    },
}

fn save(
    state: &ContactBookState,
    customer: Uuid,
    contacts: Vec<SavedContact>,
) -> Result<Vec<ContactBookEvent>, DomainError> {
    let contacts = normalize(contacts);
    refuse_if_any(check(&contacts))?;
    if state.customer_id.is_some_and(|c| c != customer) {
        return Err(DomainError::NotFound);
    }
    if state.customer_id.is_some() && state.contacts == contacts {
        return Ok(Vec::new());
    }
    Ok(vec![ContactBookEvent::Saved(Saved {
        customer_id: customer,
        contacts,
    })])
}

#[cfg(test)]
mod tests;
