//! Given/when/then tests of the upload decisions.

use super::*;
use crate::testing::{given_commands, when};
use events::upload::{Item, Progressed};

fn received() -> Received {
    Received {
        file_origin_name: " goods.xlsx ".into(),
        size: 10,
        sha256: "ab".into(),
        declaration_type: "OC".into(),
        is_row_data: true,
        is_fixed: true,
        mapping_scheme_id: None,
        customer_id: Uuid::from_u128(1),
        username: "acme".into(),
        company_name: None,
        uploader_id: Uuid::from_u128(2),
        uploader_role: "CUSTOMER".into(),
        uploader_name: "acme".into(),
    }
}

fn batch(through: u32, abnormal: u32, repeat: u32) -> UploadCommand {
    let items = (0..abnormal + repeat)
        .map(|i| Item {
            row: i + 2,
            tracking_number: Some(format!("T{i}")),
            file_name: None,
            desc: "x".into(),
            desc_en: "x".into(),
            is_repeat: i >= abnormal,
            note: false,
        })
        .collect();
    UploadCommand::Progress(Progressed {
        through,
        done: 3,
        success: 3 - abnormal - repeat,
        ticket_success: 1,
        repeat,
        abnormal,
        items,
    })
}

#[test]
fn a_received_upload_is_processing_and_trims_its_name() {
    let s = given_commands::<UploadState>(vec![UploadCommand::Receive(received())]);
    assert_eq!(s.status(), "3");
    assert_eq!(
        s.received.as_ref().map(|r| r.file_origin_name.as_str()),
        Some("goods.xlsx")
    );
}

#[test]
fn receive_refuses_a_blank_name_and_an_unknown_type_naming_the_fields() {
    let mut r = received();
    r.file_origin_name = "  ".into();
    r.declaration_type = "XX".into();
    let Err(DomainError::Validation(v)) = when(&UploadState::default(), UploadCommand::Receive(r))
    else {
        panic!("refused");
    };
    let fields: Vec<&str> = v.iter().map(|v| v.field.as_str()).collect();
    assert_eq!(fields, ["files", "declarationType"]);
}

#[test]
fn receiving_twice_is_a_conflict() {
    let s = given_commands::<UploadState>(vec![UploadCommand::Receive(received())]);
    assert!(matches!(
        when(&s, UploadCommand::Receive(received())),
        Err(DomainError::Conflict(_))
    ));
}

#[test]
fn commands_on_an_unknown_upload_are_not_found() {
    assert_eq!(
        when(&UploadState::default(), UploadCommand::Confirm),
        Err(DomainError::NotFound)
    );
}

#[test]
fn a_clean_run_ends_in_status_1_and_counts_add_up() {
    let s = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Start { total: 6 },
        batch(1, 0, 0),
        batch(2, 0, 0),
        UploadCommand::Complete,
    ]);
    assert_eq!(s.status(), "1");
    assert_eq!((s.done, s.success, s.ticket_success), (6, 6, 2));
}

#[test]
fn problems_end_in_status_2_and_a_failure_in_status_0() {
    let s = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Start { total: 3 },
        batch(1, 1, 1),
        UploadCommand::Complete,
    ]);
    assert_eq!(s.status(), "2");
    assert_eq!((s.abnormal, s.repeat), (1, 1));
    let f = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Fail {
            reason: "坏".into(),
            reason_en: "bad".into(),
        },
    ]);
    assert_eq!(f.status(), "0");
}

#[test]
fn a_batch_recorded_already_is_not_counted_twice() {
    let s = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Start { total: 6 },
        batch(1, 0, 0),
    ]);
    assert_eq!(when(&s, batch(1, 0, 0)), Ok(vec![]));
    assert_eq!(when(&s, UploadCommand::Start { total: 6 }), Ok(vec![]));
    assert_eq!(when(&s, batch(2, 0, 0)).map(|e| e.len()), Ok(1));
}

#[test]
fn a_finished_upload_takes_no_more_work_but_can_be_confirmed_once() {
    let s = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Start { total: 3 },
        batch(1, 0, 0),
        UploadCommand::Complete,
    ]);
    assert_eq!(when(&s, batch(2, 0, 0)), Ok(vec![]));
    assert_eq!(when(&s, UploadCommand::Complete), Ok(vec![]));
    let fail = UploadCommand::Fail {
        reason: "x".into(),
        reason_en: "x".into(),
    };
    assert_eq!(when(&s, fail), Ok(vec![]));
    let confirmed = given_commands::<UploadState>(vec![
        UploadCommand::Receive(received()),
        UploadCommand::Complete,
        UploadCommand::Confirm,
    ]);
    assert!(confirmed.confirmed);
    assert_eq!(when(&confirmed, UploadCommand::Confirm), Ok(vec![]));
}

#[test]
fn a_company_sees_its_uploads_and_staff_only_their_own() {
    let s = given_commands::<UploadState>(vec![UploadCommand::Receive(received())]);
    let mut customer = Actor::system();
    customer.role = api::Role::Customer;
    customer.customer_id = Some(Uuid::from_u128(1));
    assert!(s.visible_to(&customer));
    customer.customer_id = Some(Uuid::from_u128(9));
    assert!(!s.visible_to(&customer));
    let mut staff = Actor::system();
    staff.role = api::Role::Operator;
    assert!(!s.visible_to(&staff));
    staff.id = Uuid::from_u128(2);
    assert!(s.visible_to(&staff));
}
