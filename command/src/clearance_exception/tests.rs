//! Given/when/then tests of the clearance exception aggregate, without a database: given
//! past events, when a command arrives from an actor, then these events or this refusal.
//! Every move of `DOMAIN.md`'s table is made by each actor from each status.

use api::{Actor, Role};
use events::clearance_exception::{ClearanceExceptionEvent as Event, ExceptionStatus};
use events::declaration::{DeclarationData, DeclarationStatus, GoodsLine};

use super::*;
use crate::testing::{apply_by, given, when_by};

const ACME: Uuid = Uuid::from_u128(0xac3e_0000_0000_0000_0000_0000_0000_0001);
const GLOBEX: Uuid = Uuid::from_u128(0x0006_106e_0000_0000_0000_0000_0000_0002);
const DECLARATION: Uuid = Uuid::from_u128(0xdec1_0000_0000_0000_0000_0000_0000_0003);
const EXCEPTION: Uuid = Uuid::from_u128(0xe8c0_0000_0000_0000_0000_0000_0000_0004);

fn actor(name: &str, role: Role, customer_id: Option<Uuid>) -> Actor {
    Actor {
        id: Uuid::new_v5(&Uuid::NAMESPACE_OID, name.as_bytes()),
        username: name.into(),
        display_name: name.into(),
        role,
        customer_id,
        session_id: Uuid::nil(),
    }
}

fn acme() -> Actor {
    actor("acme", Role::Customer, Some(ACME))
}
fn globex() -> Actor {
    actor("globex", Role::Customer, Some(GLOBEX))
}
fn operator() -> Actor {
    actor("operator", Role::Operator, None)
}
fn operator2() -> Actor {
    actor("operator2", Role::Operator, None)
}
fn admin() -> Actor {
    actor("admin", Role::Admin, None)
}
fn system() -> Actor {
    Actor::system()
}

fn data() -> DeclarationData {
    DeclarationData {
        tracking_number: Some("1Z999".into()),
        port: Some("PVG".into()),
        consignee_scc: Some("91440300MA5FHK4H1F".into()),
        consignee_custom_master: Some("4403960ABC".into()),
        declaration_goods_info: vec![GoodsLine {
            goods_code: Some("8471309000".into()),
            goods_name: Some("laptop".into()),
            specification: Some("brand|model".into()),
            ..Default::default()
        }],
        ..Default::default()
    }
}

fn declaration(status: DeclarationStatus) -> DeclarationRef {
    DeclarationRef {
        id: DECLARATION,
        customer_id: ACME,
        username: "acme".into(),
        company_name: Some("Acme".into()),
        declaration_type: "ID".into(),
        status,
        open_exception: None,
        data: data(),
    }
}

fn invoice_form() -> ExceptionForm {
    ExceptionForm {
        is_commercial_invoice_checked: true,
        send_to_email: true,
        notification_contact: events::clearance_exception::NotificationContact {
            recipient_email: Some("buyer@example.com".into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

fn raise_cmd(form: ExceptionForm, proposed: ProposedValues, d: DeclarationRef) -> ExceptionCommand {
    ExceptionCommand::Raise {
        id: EXCEPTION,
        declaration: Box::new(d),
        form: Box::new(form),
        proposed,
    }
}

fn raised() -> ExceptionState {
    let events = when_by(
        &ExceptionState::default(),
        raise_cmd(
            invoice_form(),
            ProposedValues::default(),
            declaration(DeclarationStatus::Unprocessed),
        ),
        &operator(),
    )
    .expect("raised");
    given::<ExceptionState>(&events)
}

fn notify() -> ExceptionCommand {
    ExceptionCommand::Notify {
        channels: None,
        contacts: None,
        note: None,
    }
}

/// An answer without the requested commercial invoice, saying why.
fn respond(note: Option<&str>) -> ExceptionCommand {
    ExceptionCommand::Respond {
        confirm_changes: true,
        note: note.map(String::from),
        via_link: None,
        missing: vec![invoice_missing()],
    }
}

fn invoice_missing() -> MissingDocument {
    MissingDocument {
        document: "commercialInvoice".into(),
        reason: "sent to the broker by post".into(),
    }
}

/// The exception brought to `status` by the usual actors.
fn at(status: ExceptionStatus) -> ExceptionState {
    let mut s = raised();
    if status == ExceptionStatus::Pending {
        return s;
    }
    apply_by(&mut s, notify(), &operator());
    if status == ExceptionStatus::CustomerNotified {
        return s;
    }
    apply_by(&mut s, ExceptionCommand::Acknowledge, &acme());
    if status == ExceptionStatus::AwaitingConfirmation {
        return s;
    }
    apply_by(&mut s, respond(None), &acme());
    if status == ExceptionStatus::AwaitingReview {
        return s;
    }
    match status {
        ExceptionStatus::ReviewCompleted => apply_by(
            &mut s,
            ExceptionCommand::Approve { note: None },
            &operator(),
        ),
        _ => apply_by(&mut s, ExceptionCommand::Void { reason: None }, &admin()),
    }
    s
}

fn fields(err: DomainError) -> Vec<String> {
    match err {
        DomainError::Validation(v) => v.into_iter().map(|v| v.field).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

fn status_after(
    state: &ExceptionState,
    cmd: ExceptionCommand,
    by: &Actor,
) -> Result<i16, DomainError> {
    let events = when_by(state, cmd, by)?;
    let mut s = state.clone();
    for e in &events {
        s.evolve(e);
    }
    Ok(s.status.map(ExceptionStatus::code).unwrap_or(0))
}

fn void(reason: &str) -> ExceptionCommand {
    ExceptionCommand::Void {
        reason: Some(reason.into()),
    }
}

fn reject(reason: &str) -> ExceptionCommand {
    ExceptionCommand::Reject {
        reason: reason.into(),
    }
}

#[test]
fn raising_records_the_form_the_declaration_and_starts_pending() {
    let events = when_by(
        &ExceptionState::default(),
        raise_cmd(
            invoice_form(),
            ProposedValues::default(),
            declaration(DeclarationStatus::ReviewedNotCompleted),
        ),
        &operator(),
    )
    .expect("raised");
    let [Event::Raised(r)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(r.declaration_id, DECLARATION);
    assert_eq!(r.customer_id, ACME);
    assert_eq!(r.declaration_status, 2);
    assert_eq!(r.tracking_number.as_deref(), Some("1Z999"));
    assert!(r.form.is_commercial_invoice_checked);
    let s = given::<ExceptionState>(&events);
    assert_eq!(s.status, Some(ExceptionStatus::Pending));
}

#[test]
fn a_customer_may_raise_one_on_their_own_declaration_only() {
    let cmd = || {
        raise_cmd(
            invoice_form(),
            ProposedValues::default(),
            declaration(DeclarationStatus::Unprocessed),
        )
    };
    assert!(when_by(&ExceptionState::default(), cmd(), &acme()).is_ok());
    assert_eq!(
        fields(when_by(&ExceptionState::default(), cmd(), &globex()).expect_err("refused")),
        ["declarationId"]
    );
}

#[test]
fn raising_needs_the_declaration_in_1_or_2_and_no_open_exception() {
    for status in [
        DeclarationStatus::Draft,
        DeclarationStatus::Completed,
        DeclarationStatus::DocumentException,
        DeclarationStatus::ReturnedNotSubmitted,
    ] {
        let err = when_by(
            &ExceptionState::default(),
            raise_cmd(
                invoice_form(),
                ProposedValues::default(),
                declaration(status),
            ),
            &operator(),
        )
        .expect_err("refused");
        assert_eq!(
            err,
            DomainError::IllegalTransition {
                from: status.code(),
                to: 4
            }
        );
    }
    let mut d = declaration(DeclarationStatus::Unprocessed);
    d.open_exception = Some(Uuid::from_u128(9));
    let err = when_by(
        &ExceptionState::default(),
        raise_cmd(invoice_form(), ProposedValues::default(), d),
        &operator(),
    )
    .expect_err("refused");
    assert!(matches!(err, DomainError::Conflict(_)), "{err:?}");
}

#[test]
fn an_exception_must_ask_for_something_and_its_fields_are_checked() {
    let err = when_by(
        &ExceptionState::default(),
        raise_cmd(
            ExceptionForm::default(),
            ProposedValues::default(),
            declaration(DeclarationStatus::Unprocessed),
        ),
        &operator(),
    )
    .expect_err("refused");
    assert_eq!(fields(err), ["exceptionDetails"]);
    let mut form = invoice_form();
    form.exception_details = vec![events::clearance_exception::ExceptionDetail::default()];
    form.personal_email = Some("not-an-address".into());
    form.notification_contact.shipper_sms = Some("abc".into());
    form.exception_summary = Some("x".repeat(1001));
    let err = when_by(
        &ExceptionState::default(),
        raise_cmd(
            form,
            ProposedValues::default(),
            declaration(DeclarationStatus::Unprocessed),
        ),
        &operator(),
    )
    .expect_err("refused");
    assert_eq!(
        fields(err),
        [
            "exceptionDetails[0].exceptionDescription",
            "exceptionSummary",
            "personalEmail",
            "notificationContact.shipperSms"
        ]
    );
}

#[test]
fn proposed_changes_are_stored_old_to_new() {
    let form = ExceptionForm {
        is_exchange_hts_code_checked: true,
        is_exchange_credit_code_checked: true,
        is_update_product_description_checked: true,
        ..invoice_form()
    };
    let proposed = ProposedValues {
        new_hts_code: Some("8471414000".into()),
        new_credit_code: Some("91440300MA5FAQKF5W".into()),
        new_product_description: Some("notebook computer".into()),
        ..Default::default()
    };
    let events = when_by(
        &ExceptionState::default(),
        raise_cmd(form, proposed, declaration(DeclarationStatus::Unprocessed)),
        &operator(),
    )
    .expect("raised");
    let s = given::<ExceptionState>(&events);
    let changes: Vec<_> = s
        .proposed_changes
        .iter()
        .map(|c| {
            (
                c.kind.as_str(),
                c.field.as_str(),
                c.old.as_deref(),
                c.new.as_str(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        [
            (
                "htsCode",
                "declarationGoodsInfo[0].goodsCode",
                Some("8471309000"),
                "8471414000"
            ),
            (
                "productDescription",
                "declarationGoodsInfo[0].goodsName",
                Some("laptop"),
                "notebook computer"
            ),
            (
                "creditCode",
                "consigneeScc",
                Some("91440300MA5FHK4H1F"),
                "91440300MA5FAQKF5W"
            ),
        ]
    );
}

#[test]
fn a_checked_change_needs_a_valid_new_value_and_an_existing_goods_line() {
    let form = ExceptionForm {
        is_exchange_hts_code_checked: true,
        is_exchange_credit_code_checked: true,
        is_exchange_customs_code_checked: true,
        is_update_product_declare_element_checked: true,
        ..invoice_form()
    };
    let proposed = ProposedValues {
        new_hts_code: Some("84714".into()),
        new_credit_code: Some("91440300MA5FHK4H1X".into()),
        new_customs_code: None,
        new_declare_element: Some("ok".into()),
        ..Default::default()
    };
    let err = when_by(
        &ExceptionState::default(),
        raise_cmd(
            form.clone(),
            proposed.clone(),
            declaration(DeclarationStatus::Unprocessed),
        ),
        &operator(),
    )
    .expect_err("refused");
    assert_eq!(
        fields(err),
        ["newHtsCode", "newCreditCode", "newCustomsCode"]
    );
    let elsewhere = ProposedValues {
        goods_index: 3,
        ..proposed
    };
    let err = when_by(
        &ExceptionState::default(),
        raise_cmd(form, elsewhere, declaration(DeclarationStatus::Unprocessed)),
        &operator(),
    )
    .expect_err("refused");
    assert_eq!(fields(err)[0], "goodsIndex");
}

#[test]
fn the_happy_path_goes_1_2_3_4_6() {
    let mut s = raised();
    assert_eq!(status_after(&s, notify(), &operator()), Ok(2));
    apply_by(&mut s, notify(), &operator());
    assert_eq!(
        status_after(&s, ExceptionCommand::Acknowledge, &acme()),
        Ok(3)
    );
    apply_by(&mut s, ExceptionCommand::Acknowledge, &acme());
    assert_eq!(status_after(&s, respond(None), &acme()), Ok(4));
    apply_by(&mut s, respond(None), &acme());
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &operator()),
        Ok(6)
    );
}

#[test]
fn notify_records_the_channels_and_contacts_chosen() {
    let s = raised();
    let events = when_by(&s, notify(), &operator()).expect("notified");
    let [Event::Notified(n)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(n.channels, ["email"]);
    assert_eq!(n.contacts.len(), 1);
    assert_eq!(n.contacts[0].address, "buyer@example.com");
    assert_eq!(n.contacts[0].party, "recipient");
    let chosen = ExceptionCommand::Notify {
        channels: Some(vec!["sms".into(), "fax".into()]),
        contacts: Some(vec![Contact {
            channel: "sms".into(),
            party: "nobody".into(),
            address: "13800138000".into(),
        }]),
        note: None,
    };
    assert_eq!(
        fields(when_by(&s, chosen, &operator()).expect_err("refused")),
        ["channels[1]", "contacts[0].party", "contacts"]
    );
    let none = ExceptionCommand::Notify {
        channels: Some(vec![]),
        contacts: None,
        note: None,
    };
    assert_eq!(
        fields(when_by(&s, none, &operator()).expect_err("refused")),
        ["channels"]
    );
}

#[test]
fn who_may_notify_acknowledge_and_respond() {
    let s1 = at(ExceptionStatus::Pending);
    assert_eq!(status_after(&s1, notify(), &admin()), Ok(2));
    assert_eq!(
        status_after(&s1, notify(), &acme()),
        Err(DomainError::Forbidden)
    );
    let s2 = at(ExceptionStatus::CustomerNotified);
    assert_eq!(
        status_after(&s2, ExceptionCommand::Acknowledge, &system()),
        Ok(3)
    );
    assert_eq!(
        status_after(&s2, ExceptionCommand::Acknowledge, &operator()),
        Err(DomainError::Forbidden)
    );
    assert_eq!(
        status_after(&s2, ExceptionCommand::Acknowledge, &admin()),
        Err(DomainError::Forbidden)
    );
    let s3 = at(ExceptionStatus::AwaitingConfirmation);
    assert_eq!(
        status_after(&s3, respond(None), &admin()),
        Err(DomainError::Forbidden)
    );
    // An operator answers for the customer only with a note.
    assert_eq!(
        fields(when_by(&s3, respond(None), &operator()).expect_err("refused")),
        ["note"]
    );
    let events = when_by(&s3, respond(Some("customer phoned")), &operator()).expect("ok");
    let [Event::Responded(r)] = &events[..] else {
        panic!("{events:?}")
    };
    assert!(r.on_behalf);
    assert_eq!(r.note.as_deref(), Some("customer phoned"));
}

#[test]
fn another_customers_exception_is_not_found() {
    for status in ExceptionStatus::ALL {
        let s = at(status);
        for cmd in [ExceptionCommand::Acknowledge, respond(None), notify()] {
            assert_eq!(
                when_by(&s, cmd, &globex()).expect_err("refused"),
                DomainError::NotFound
            );
        }
    }
    assert_eq!(
        when_by(&ExceptionState::default(), notify(), &operator()).expect_err("refused"),
        DomainError::NotFound
    );
}

#[test]
fn approve_is_for_staff_who_did_not_answer_themselves() {
    let s = at(ExceptionStatus::AwaitingReview);
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &admin()),
        Ok(6)
    );
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &acme()),
        Err(DomainError::Forbidden)
    );
    // The operator who answered for the customer may not approve; another may.
    let mut s = at(ExceptionStatus::AwaitingConfirmation);
    apply_by(&mut s, respond(Some("by phone")), &operator());
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &operator()),
        Err(DomainError::Forbidden)
    );
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &operator2()),
        Ok(6)
    );
}

#[test]
fn approval_applies_the_changes_only_when_the_customer_confirmed_them() {
    let form = ExceptionForm {
        is_exchange_hts_code_checked: true,
        ..invoice_form()
    };
    let proposed = ProposedValues {
        new_hts_code: Some("8471414000".into()),
        ..Default::default()
    };
    let mut s = given::<ExceptionState>(
        &when_by(
            &ExceptionState::default(),
            raise_cmd(form, proposed, declaration(DeclarationStatus::Unprocessed)),
            &operator(),
        )
        .expect("raised"),
    );
    apply_by(&mut s, notify(), &operator());
    apply_by(&mut s, ExceptionCommand::Acknowledge, &acme());
    apply_by(
        &mut s,
        ExceptionCommand::Respond {
            confirm_changes: false,
            note: None,
            via_link: None,
            missing: vec![invoice_missing()],
        },
        &acme(),
    );
    assert!(s.confirmed_changes().is_empty());
    apply_by(&mut s, reject("the invoice is unreadable"), &operator());
    apply_by(&mut s, respond(None), &acme());
    let events = when_by(&s, ExceptionCommand::Approve { note: None }, &admin()).expect("ok");
    let [Event::Approved(a)] = &events[..] else {
        panic!("{events:?}")
    };
    assert_eq!(a.applied_changes.len(), 1);
    let map = ExceptionState::change_map(&a.applied_changes);
    assert_eq!(map["declarationGoodsInfo[0].goodsCode"], "8471414000");
}

#[test]
fn reject_sends_it_back_to_the_customer_with_a_reason() {
    let s = at(ExceptionStatus::AwaitingReview);
    assert_eq!(status_after(&s, reject("unreadable"), &operator()), Ok(3));
    assert_eq!(
        fields(when_by(&s, reject("  "), &operator()).expect_err("refused")),
        ["reason"]
    );
    assert_eq!(
        fields(when_by(&s, reject(&"x".repeat(501)), &operator()).expect_err("refused")),
        ["reason"]
    );
    assert_eq!(
        status_after(&s, reject("no"), &acme()),
        Err(DomainError::Forbidden)
    );
}

#[test]
fn void_needs_a_reason_before_review_and_an_admin_during_it() {
    for status in [
        ExceptionStatus::Pending,
        ExceptionStatus::CustomerNotified,
        ExceptionStatus::AwaitingConfirmation,
    ] {
        let s = at(status);
        assert_eq!(status_after(&s, void("duplicate"), &operator()), Ok(7));
        assert_eq!(status_after(&s, void("duplicate"), &admin()), Ok(7));
        assert_eq!(
            fields(
                when_by(&s, ExceptionCommand::Void { reason: None }, &operator())
                    .expect_err("refused")
            ),
            ["reason"]
        );
        assert_eq!(
            status_after(&s, void("x"), &acme()),
            Err(DomainError::Forbidden)
        );
    }
    let s = at(ExceptionStatus::AwaitingReview);
    assert_eq!(
        status_after(&s, void("x"), &operator()),
        Err(DomainError::Forbidden)
    );
    assert_eq!(
        status_after(&s, ExceptionCommand::Void { reason: None }, &admin()),
        Ok(7)
    );
}

/// Every move from every status where no row of the table starts is 409.
#[test]
fn moves_from_the_wrong_status_are_illegal_transitions() {
    let cases: [(ExceptionCommand, Actor, i16, &[ExceptionStatus]); 5] = [
        (
            ExceptionCommand::Acknowledge,
            acme(),
            3,
            &[ExceptionStatus::CustomerNotified],
        ),
        (
            respond(None),
            acme(),
            4,
            &[ExceptionStatus::AwaitingConfirmation],
        ),
        (
            ExceptionCommand::Approve { note: None },
            admin(),
            6,
            &[ExceptionStatus::AwaitingReview],
        ),
        (reject("r"), admin(), 3, &[ExceptionStatus::AwaitingReview]),
        (
            void("r"),
            admin(),
            7,
            &[
                ExceptionStatus::Pending,
                ExceptionStatus::CustomerNotified,
                ExceptionStatus::AwaitingConfirmation,
                ExceptionStatus::AwaitingReview,
            ],
        ),
    ];
    for (cmd, by, to, allowed) in cases {
        for status in ExceptionStatus::ALL {
            let s = at(status);
            let result = status_after(&s, cmd.clone(), &by);
            if allowed.contains(&status) {
                assert_eq!(result, Ok(to), "{cmd:?} from {status:?}");
            } else {
                assert_eq!(
                    result,
                    Err(DomainError::IllegalExceptionTransition {
                        from: status.code(),
                        to
                    }),
                    "{cmd:?} from {status:?}"
                );
            }
        }
    }
}

/// A notice goes out from 1 (-> 2) and again from 2 or 3, where the exception stays (a
/// resend, or another channel when the first reached no one); from 4, 6 or 7 it is 409.
#[test]
fn a_notice_may_be_sent_again_while_the_exception_waits_on_the_customer() {
    use ExceptionStatus::*;
    for (from, after) in [
        (Pending, Some(2)),
        (CustomerNotified, Some(2)),
        (AwaitingConfirmation, Some(3)),
        (AwaitingReview, None),
        (ReviewCompleted, None),
        (Voided, None),
    ] {
        let result = status_after(&at(from), notify(), &operator());
        match after {
            Some(to) => assert_eq!(result, Ok(to), "notify from {from:?}"),
            None => assert_eq!(
                result,
                Err(DomainError::IllegalExceptionTransition {
                    from: from.code(),
                    to: 2
                }),
                "notify from {from:?}"
            ),
        }
    }
    assert_eq!(
        status_after(&at(CustomerNotified), notify(), &acme()),
        Err(DomainError::Forbidden)
    );
}

#[test]
fn available_moves_follow_the_table() {
    assert_eq!(
        available(ExceptionStatus::Pending, &operator()),
        ["notify", "void"]
    );
    assert_eq!(
        available(ExceptionStatus::CustomerNotified, &acme()),
        ["acknowledge"]
    );
    assert_eq!(
        available(ExceptionStatus::AwaitingReview, &operator()),
        ["approve", "reject"]
    );
    assert_eq!(
        available(ExceptionStatus::AwaitingReview, &admin()),
        ["approve", "reject", "void"]
    );
    assert!(available(ExceptionStatus::Voided, &admin()).is_empty());
}

#[test]
fn documents_attach_while_open_and_their_uploader_may_not_approve() {
    let attach = || ExceptionCommand::AttachDocument {
        document_id: Uuid::from_u128(7),
        file_name: " invoice.pdf ".into(),
        content_type: "application/pdf".into(),
        size: 10,
        sha256: "ab".into(),
        requested: None,
    };
    let mut s = at(ExceptionStatus::AwaitingReview);
    apply_by(&mut s, attach(), &operator());
    assert_eq!(s.documents.len(), 1);
    assert_eq!(
        status_after(&s, ExceptionCommand::Approve { note: None }, &operator()),
        Err(DomainError::Forbidden)
    );
    assert!(matches!(
        when_by(&at(ExceptionStatus::Voided), attach(), &operator()).expect_err("refused"),
        DomainError::Conflict(_)
    ));
    assert_eq!(
        when_by(&s, attach(), &globex()).expect_err("refused"),
        DomainError::NotFound
    );
}

fn delivery(result: &str) -> ExceptionCommand {
    ExceptionCommand::RecordDelivery(Box::new(DeliveryAttempted {
        delivery_key: format!("{EXCEPTION}:2:email:0f1e"),
        channel: "email".into(),
        party: "recipient".into(),
        recipient: "a***@example.com".into(),
        attempt: 1,
        attempt_key: Uuid::from_u128(7),
        result: result.into(),
        error: None,
        last: true,
        next_attempt_at: None,
    }))
}

#[test]
fn only_the_system_records_a_delivery_and_it_moves_nothing() {
    for status in ExceptionStatus::ALL {
        let state = at(status);
        let events = when_by(&state, delivery("sent"), &system()).expect("recorded");
        assert!(matches!(&events[..], [Event::DeliveryAttempted(d)] if d.result == "sent"));
        let mut after = state.clone();
        after.evolve(&events[0]);
        assert_eq!(
            after.status,
            Some(status),
            "a delivery never moves the status"
        );
        for who in [operator(), admin(), acme()] {
            assert_eq!(
                when_by(&state, delivery("sent"), &who),
                Err(DomainError::Forbidden),
                "{}",
                who.username
            );
        }
    }
    assert_eq!(
        when_by(&ExceptionState::default(), delivery("sent"), &system()),
        Err(DomainError::NotFound)
    );
}

#[test]
fn an_overdue_exception_waiting_on_the_customer_is_reminded_once_by_the_system() {
    let remind = || ExceptionCommand::Remind { overdue_hours: 48 };
    for status in ExceptionStatus::ALL {
        let state = at(status);
        let decided = when_by(&state, remind(), &system());
        if status.waiting_on() == Some("customer") {
            let events = decided.expect("reminded");
            assert!(matches!(&events[..], [Event::Reminded(r)] if r.status == status.code()));
            let mut after = state.clone();
            after.evolve(&events[0]);
            assert_eq!(after.status, Some(status), "the status does not move");
            assert!(matches!(
                when_by(&after, remind(), &system()),
                Err(DomainError::Conflict(_))
            ));
            assert_eq!(
                when_by(&state, remind(), &operator()),
                Err(DomainError::Forbidden)
            );
        } else {
            assert!(
                matches!(decided, Err(DomainError::Conflict(_))),
                "{status:?}: {decided:?}"
            );
        }
    }
}

fn attach_for(requested: &str) -> ExceptionCommand {
    ExceptionCommand::AttachDocument {
        document_id: Uuid::now_v7(),
        file_name: "invoice.pdf".into(),
        content_type: "application/pdf".into(),
        size: 10,
        sha256: "cd".into(),
        requested: Some(requested.into()),
    }
}

fn answer(missing: Vec<MissingDocument>) -> ExceptionCommand {
    ExceptionCommand::Respond {
        confirm_changes: true,
        note: None,
        via_link: None,
        missing,
    }
}

#[test]
fn an_answer_needs_each_requested_document_or_a_reason_for_it() {
    // The form asks for the commercial invoice: no file and no reason is refused, naming it.
    let s = at(ExceptionStatus::AwaitingConfirmation);
    let refused = when_by(&s, answer(vec![]), &acme()).expect_err("refused");
    assert_eq!(fields(refused), vec!["missing.commercialInvoice"]);
    // A blank reason is no reason.
    let blank = MissingDocument {
        document: "commercialInvoice".into(),
        reason: "  ".into(),
    };
    let refused = when_by(&s, answer(vec![blank]), &acme()).expect_err("refused");
    assert_eq!(fields(refused), vec!["missing.commercialInvoice"]);
    // With a reason the answer goes through and carries it.
    let events = when_by(&s, answer(vec![invoice_missing()]), &acme()).expect("answered");
    match &events[0] {
        Event::Responded(r) => assert_eq!(r.missing, vec![invoice_missing()]),
        other => panic!("expected Responded, got {other:?}"),
    }
}

#[test]
fn a_file_sent_for_the_requested_document_fills_its_slot() {
    let mut s = at(ExceptionStatus::AwaitingConfirmation);
    // A file for a document that was not asked for is refused, naming the field.
    let refused = when_by(&s, attach_for("passport"), &acme()).expect_err("refused");
    assert_eq!(fields(refused), vec!["requested"]);
    // A file sent beside the request fills no slot.
    apply_by(
        &mut s,
        ExceptionCommand::AttachDocument {
            document_id: Uuid::now_v7(),
            file_name: "photo.png".into(),
            content_type: "image/png".into(),
            size: 10,
            sha256: "ef".into(),
            requested: None,
        },
        &acme(),
    );
    assert_eq!(s.unsupplied(), vec!["commercialInvoice".to_string()]);
    apply_by(&mut s, attach_for("commercialInvoice"), &acme());
    assert!(s.unsupplied().is_empty());
    // Supplied: the answer needs no reason, and a reason for it is refused.
    assert!(when_by(&s, answer(vec![]), &acme()).is_ok());
    let refused = when_by(&s, answer(vec![invoice_missing()]), &acme()).expect_err("refused");
    assert_eq!(fields(refused), vec!["missing.commercialInvoice"]);
}

#[test]
fn other_documents_asked_for_by_name_are_slots_too() {
    let mut s = at(ExceptionStatus::AwaitingConfirmation);
    s.form.other_documents = vec![" bank slip ".into(), "".into()];
    assert_eq!(
        s.form.requested_slots(),
        vec!["commercialInvoice".to_string(), "bank slip".to_string()]
    );
    apply_by(&mut s, attach_for("bank slip"), &acme());
    assert_eq!(s.unsupplied(), vec!["commercialInvoice".to_string()]);
}
