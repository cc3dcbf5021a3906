//! Given / when / then for the contact book.

use events::contact_book::{ContactBookEvent, SavedContact};
use uuid::Uuid;

use super::{ContactBookCommand, ContactBookState};
use crate::aggregate::{Aggregate, DomainError};
use crate::testing::when;

fn contact(channel: &str, side: &str, value: &str) -> SavedContact {
    SavedContact {
        channel: channel.into(),
        side: side.into(),
        name: "Desk".into(),
        value: value.into(),
        color: String::new(),
    }
}

fn fields(e: DomainError) -> Vec<String> {
    match e {
        DomainError::Validation(v) => v.into_iter().map(|x| x.field).collect(),
        other => panic!("not a validation error: {other:?}"),
    }
}

const ACME: Uuid = Uuid::from_u128(1);

#[test]
fn a_book_is_saved_whole_normalised_and_a_repeat_appends_nothing() {
    let mut state = ContactBookState::default();
    let book = vec![
        contact("email", "shipTo", " Buyer@Example.com "),
        contact("phone", "shipFrom", "+86 138-1234-5678"),
        contact("wechat", "shipTo", "oAbCdEfGh_123"),
    ];
    let events = when(
        &state,
        ContactBookCommand::Save {
            customer: ACME,
            contacts: book.clone(),
        },
    )
    .expect("saved");
    let ContactBookEvent::Saved(saved) = &events[0];
    assert_eq!(saved.customer_id, ACME);
    assert_eq!(saved.contacts[0].value, "buyer@example.com");
    assert_eq!(saved.contacts[0].color, "gray");
    for e in &events {
        state.evolve(e);
    }
    assert_eq!(
        when(
            &state,
            ContactBookCommand::Save {
                customer: ACME,
                contacts: book
            }
        )
        .expect("same"),
        vec![]
    );
    assert!(
        when(
            &state,
            ContactBookCommand::Save {
                customer: ACME,
                contacts: vec![]
            }
        )
        .expect("emptied")
        .len()
            == 1
    );
}

#[test]
fn every_bad_field_is_named_with_its_index() {
    let state = ContactBookState::default();
    let bad = vec![
        contact("email", "shipTo", "not-an-address"),
        contact("fax", "shipTo", "123"),
        contact("phone", "elsewhere", "12"),
        SavedContact {
            color: "pink".into(),
            ..contact("wechat", "shipFrom", "bad id!")
        },
        contact("email", "shipTo", ""),
    ];
    let named = fields(
        when(
            &state,
            ContactBookCommand::Save {
                customer: ACME,
                contacts: bad,
            },
        )
        .expect_err("refused"),
    );
    for f in [
        "contacts[0].value",
        "contacts[1].channel",
        "contacts[2].side",
        "contacts[2].value",
        "contacts[3].color",
        "contacts[3].value",
        "contacts[4].value",
    ] {
        assert!(named.contains(&f.to_string()), "{f} in {named:?}");
    }
}

#[test]
fn a_contact_twice_and_too_many_contacts_are_refused() {
    let state = ContactBookState::default();
    let twice = vec![
        contact("email", "shipTo", "a@example.com"),
        contact("email", "shipTo", "A@example.com"),
        contact("email", "shipFrom", "a@example.com"),
    ];
    assert_eq!(
        fields(
            when(
                &state,
                ContactBookCommand::Save {
                    customer: ACME,
                    contacts: twice
                }
            )
            .expect_err("refused")
        ),
        vec!["contacts[1].value"]
    );
    let many = (0..201)
        .map(|i| contact("email", "shipTo", &format!("u{i}@example.com")))
        .collect();
    assert_eq!(
        fields(
            when(
                &state,
                ContactBookCommand::Save {
                    customer: ACME,
                    contacts: many
                }
            )
            .expect_err("refused")
        ),
        vec!["contacts"]
    );
}

#[test]
fn another_customers_book_is_not_found() {
    let mut state = ContactBookState::default();
    for e in when(
        &state,
        ContactBookCommand::Save {
            customer: ACME,
            contacts: vec![contact("email", "shipTo", "a@example.com")],
        },
    )
    .expect("saved")
    {
        state.evolve(&e);
    }
    assert_eq!(
        when(
            &state,
            ContactBookCommand::Save {
                customer: Uuid::from_u128(2),
                contacts: vec![]
            }
        ),
        Err(DomainError::NotFound)
    );
}
