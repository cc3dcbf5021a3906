//! Given/when/then tests of the port decisions.

use super::*;
use crate::testing::{given, when};

fn register(code: &str, name: &str, slic: &str) -> PortCommand {
    PortCommand::Register {
        port_code: code.into(),
        port_name: name.into(),
        port_name_en: None,
        declaration_slic: slic.into(),
    }
}

fn pvg() -> Vec<PortEvent> {
    when(&PortState::default(), register("PVG", "上海浦东", "2001")).expect("registered")
}

fn add(id: u128, name: &str, slic: &str) -> PortCommand {
    PortCommand::AddSlic {
        slic_id: Uuid::from_u128(id),
        ups_facility_name: name.into(),
        ups_facility_slic: slic.into(),
    }
}

/// PVG with facilities 1 (2011) and 2 (2012).
fn pvg_with_two() -> PortState {
    let mut s = given::<PortState>(&pvg());
    for cmd in [add(1, "Pudong Hub", "2011"), add(2, "Waigaoqiao", "2012")] {
        let events = when(&s, cmd).expect("added");
        for e in &events {
            s.evolve(e);
        }
    }
    s
}

fn fields(err: DomainError) -> Vec<String> {
    match err {
        DomainError::Validation(v) => v.into_iter().map(|v| v.field).collect(),
        other => panic!("expected a validation error, got {other:?}"),
    }
}

#[test]
fn registering_a_port_upper_cases_its_code() {
    let events = when(&PortState::default(), register(" pvg", "上海浦东", "2001")).expect("ok");
    match &events[..] {
        [PortEvent::Registered(r)] => {
            assert_eq!(r.port_code, "PVG");
            assert_eq!(r.declaration_slic, "2001");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(given::<PortState>(&events).live());
}

#[test]
fn a_bad_registration_names_every_field() {
    let err = when(&PortState::default(), register("P1G", "", "20a1")).expect_err("refused");
    assert_eq!(fields(err), ["portCode", "portName", "declarationSlic"]);
    let err = when(&PortState::default(), register("", &"x".repeat(51), "")).expect_err("no");
    assert_eq!(fields(err), ["portCode", "portName", "declarationSlic"]);
    let err = when(&PortState::default(), register("PVGX", "a", "12345")).expect_err("no");
    assert_eq!(fields(err), ["portCode", "declarationSlic"]);
    let long_en = PortCommand::Register {
        port_code: "PVG".into(),
        port_name: "上海".into(),
        port_name_en: Some("x".repeat(101)),
        declaration_slic: "2001".into(),
    };
    assert_eq!(
        fields(when(&PortState::default(), long_en).expect_err("no")),
        ["portNameEn"]
    );
}

#[test]
fn registering_a_live_port_again_is_a_conflict() {
    let err = when(&given::<PortState>(&pvg()), register("PVG", "x", "2001")).expect_err("refused");
    assert_eq!(err, DomainError::Conflict(CODE_TAKEN.into()));
}

#[test]
fn a_deleted_port_may_be_registered_afresh_without_its_old_facilities() {
    let mut s = pvg_with_two();
    for e in when(&s, PortCommand::Delete { reason: None }).expect("deleted") {
        s.evolve(&e);
    }
    assert!(!s.live());
    for e in when(&s, register("PVG", "上海", "2002")).expect("again") {
        s.evolve(&e);
    }
    assert!(s.live());
    assert!(s.facilities.is_empty());
    assert_eq!(s.declaration_slic, "2002");
}

#[test]
fn changing_a_port_records_only_what_differs() {
    let s = given::<PortState>(&pvg());
    let events = when(
        &s,
        PortCommand::Change {
            port_name: Some("上海浦东".into()),
            port_name_en: Some(Some("Shanghai Pudong".into())),
            declaration_slic: Some("2003".into()),
        },
    )
    .expect("changed");
    match &events[..] {
        [PortEvent::Changed(c)] => {
            assert_eq!(c.changes.len(), 2);
            assert_eq!(c.changes[0].field, "portNameEn");
            assert_eq!(c.changes[0].from, None);
            assert_eq!(c.changes[1].from.as_deref(), Some("2001"));
            assert_eq!(c.changes[1].to.as_deref(), Some("2003"));
        }
        other => panic!("unexpected {other:?}"),
    }
    let after = given::<PortState>(&[pvg(), events].concat());
    assert_eq!(after.declaration_slic, "2003");
    assert_eq!(after.port_name_en.as_deref(), Some("Shanghai Pudong"));
    let emptied = when(
        &after,
        PortCommand::Change {
            port_name: None,
            port_name_en: Some(None),
            declaration_slic: None,
        },
    )
    .expect("emptied");
    match &emptied[..] {
        [PortEvent::Changed(c)] => {
            assert_eq!(c.changes[0].field, "portNameEn");
            assert_eq!(c.changes[0].to, None);
        }
        other => panic!("unexpected {other:?}"),
    }
    let mut cleared = after.clone();
    cleared.evolve(&emptied[0]);
    assert_eq!(cleared.port_name_en, None);
    let none = when(
        &after,
        PortCommand::Change {
            port_name: None,
            port_name_en: None,
            declaration_slic: Some("2003".into()),
        },
    )
    .expect("no-op");
    assert!(none.is_empty());
}

#[test]
fn a_bad_change_names_its_field() {
    let err = when(
        &given::<PortState>(&pvg()),
        PortCommand::Change {
            port_name: Some("x".repeat(51)),
            port_name_en: None,
            declaration_slic: Some("20011".into()),
        },
    )
    .expect_err("refused");
    assert_eq!(fields(err), ["portName", "declarationSlic"]);
}

#[test]
fn nothing_happens_to_a_missing_or_deleted_port() {
    let deleted =
        given::<PortState>(&[pvg(), vec![PortEvent::Deleted(Deleted { reason: None })]].concat());
    for s in [PortState::default(), deleted] {
        for cmd in [
            PortCommand::Change {
                port_name: Some("x".into()),
                port_name_en: None,
                declaration_slic: None,
            },
            PortCommand::Delete { reason: None },
            add(9, "x", "1234"),
            PortCommand::ChangeSlic {
                slic_id: Uuid::from_u128(1),
                ups_facility_name: Some("x".into()),
                ups_facility_slic: None,
            },
            PortCommand::RemoveSlic {
                slic_id: Uuid::from_u128(1),
                reason: None,
            },
        ] {
            assert_eq!(when(&s, cmd), Err(DomainError::NotFound));
        }
    }
}

#[test]
fn deleting_a_port_records_the_reason() {
    let events = when(
        &given::<PortState>(&pvg()),
        PortCommand::Delete {
            reason: Some("closed".into()),
        },
    )
    .expect("deleted");
    assert_eq!(
        events,
        [PortEvent::Deleted(Deleted {
            reason: Some("closed".into())
        })]
    );
}

#[test]
fn adding_a_facility_checks_its_fields_and_uniqueness() {
    let s = pvg_with_two();
    assert_eq!(s.facilities.len(), 2);
    assert_eq!(
        fields(when(&s, add(3, "", "20x1")).expect_err("refused")),
        ["upsFacilityName", "upsFacilitySlic"]
    );
    assert_eq!(
        fields(when(&s, add(3, &"n".repeat(101), "")).expect_err("refused")),
        ["upsFacilityName", "upsFacilitySlic"]
    );
    assert_eq!(
        when(&s, add(3, "Another", "2011")),
        Err(DomainError::Conflict(SLIC_TAKEN.into()))
    );
    // another port may use the same facility SLIC
    let other = given::<PortState>(
        &when(&PortState::default(), register("CGO", "郑州", "4501")).expect("cgo"),
    );
    assert!(when(&other, add(3, "Another", "2011")).is_ok());
}

#[test]
fn changing_a_facility_records_from_and_to() {
    let s = pvg_with_two();
    let events = when(
        &s,
        PortCommand::ChangeSlic {
            slic_id: Uuid::from_u128(2),
            ups_facility_name: Some("Waigaoqiao".into()),
            ups_facility_slic: Some("2013".into()),
        },
    )
    .expect("changed");
    match &events[..] {
        [PortEvent::SlicChanged(c)] => {
            assert_eq!(c.slic_id, Uuid::from_u128(2));
            assert_eq!(c.changes.len(), 1);
            assert_eq!(c.changes[0].field, "upsFacilitySlic");
            assert_eq!(c.changes[0].from.as_deref(), Some("2012"));
        }
        other => panic!("unexpected {other:?}"),
    }
    let mut after = s.clone();
    after.evolve(&events[0]);
    assert_eq!(after.facilities[1].slic, "2013");
}

#[test]
fn a_facility_change_refuses_bad_fields_a_taken_slic_and_unknown_ids() {
    let s = pvg_with_two();
    let cs = |id: u128, name: Option<&str>, slic: Option<&str>| PortCommand::ChangeSlic {
        slic_id: Uuid::from_u128(id),
        ups_facility_name: name.map(String::from),
        ups_facility_slic: slic.map(String::from),
    };
    assert_eq!(
        fields(when(&s, cs(2, Some(""), Some("1"))).expect_err("no")),
        ["upsFacilityName", "upsFacilitySlic"]
    );
    assert_eq!(
        when(&s, cs(2, None, Some("2011"))),
        Err(DomainError::Conflict(SLIC_TAKEN.into()))
    );
    // its own SLIC again is no change
    assert_eq!(when(&s, cs(2, None, Some("2012"))), Ok(vec![]));
    assert_eq!(when(&s, cs(7, Some("x"), None)), Err(DomainError::NotFound));
}

#[test]
fn a_removed_facility_is_gone_and_its_slic_free_again() {
    let mut s = pvg_with_two();
    let events = when(
        &s,
        PortCommand::RemoveSlic {
            slic_id: Uuid::from_u128(1),
            reason: None,
        },
    )
    .expect("removed");
    s.evolve(&events[0]);
    assert_eq!(s.facilities.len(), 1);
    assert_eq!(
        when(
            &s,
            PortCommand::RemoveSlic {
                slic_id: Uuid::from_u128(1),
                reason: None
            }
        ),
        Err(DomainError::NotFound)
    );
    assert!(when(&s, add(4, "Pudong Hub", "2011")).is_ok());
}
