//! The `Port` aggregate: a courier gateway port (PVG, CGO, ...) with the SLIC declarations
//! at it are filed under and its facilities. Pure `evolve` and `decide`; the HTTP layer is
//! `crate::http::ports`.
//!
//! Rules, each naming its field: `portCode` is 3 upper-case letters (lower case is upper-cased
//! first), `portName` is required (at most 50 characters), `portNameEn` at most 100,
//! `declarationSlic` and `upsFacilitySlic` are 4 digits, `upsFacilityName` is required (at
//! most 100). A port code exists once (409 `portCode`), a facility SLIC once among the live
//! facilities of a port (409 `upsFacilitySlic`); nothing happens to a deleted port (404).

pub mod routes;

use events::port::{
    Changed, Deleted, FieldChange, PortEvent, Registered, SlicAdded, SlicChanged, SlicRemoved,
};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError, Violation};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facility {
    pub id: Uuid,
    pub name: String,
    pub slic: String,
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct PortState {
    /// Registered at least once (the stream exists).
    pub registered: bool,
    pub deleted: bool,
    pub port_code: String,
    pub port_name: String,
    pub port_name_en: Option<String>,
    pub declaration_slic: String,
    /// The live facilities, in the order they were added.
    pub facilities: Vec<Facility>,
}

impl PortState {
    /// Registered and not deleted.
    pub fn live(&self) -> bool {
        self.registered && !self.deleted
    }

    fn facility_mut(&mut self, id: Uuid) -> Option<&mut Facility> {
        self.facilities.iter_mut().find(|f| f.id == id)
    }
}

fn apply_changes(changes: &[FieldChange], mut set: impl FnMut(&str, Option<String>)) {
    for c in changes {
        set(c.field.as_str(), c.to.clone());
    }
}

impl Aggregate for PortState {
    type Event = PortEvent;
    type Command = PortCommand;
    const STREAM_TYPE: &'static str = events::port::STREAM_TYPE;

    fn evolve(&mut self, event: &PortEvent) {
        match event {
            PortEvent::Registered(r) => {
                *self = PortState {
                    registered: true,
                    deleted: false,
                    port_code: r.port_code.clone(),
                    port_name: r.port_name.clone(),
                    port_name_en: r.port_name_en.clone(),
                    declaration_slic: r.declaration_slic.clone(),
                    facilities: Vec::new(),
                }
            }
            PortEvent::Changed(c) => {
                let mut name = None;
                let mut name_en = None;
                let mut slic = None;
                apply_changes(&c.changes, |field, to| match field {
                    "portName" => name = Some(to.unwrap_or_default()),
                    "portNameEn" => name_en = Some(to),
                    "declarationSlic" => slic = Some(to.unwrap_or_default()),
                    _ => {}
                });
                if let Some(n) = name {
                    self.port_name = n;
                }
                if let Some(n) = name_en {
                    self.port_name_en = n;
                }
                if let Some(s) = slic {
                    self.declaration_slic = s;
                }
            }
            PortEvent::SlicAdded(a) => self.facilities.push(Facility {
                id: a.slic_id,
                name: a.ups_facility_name.clone(),
                slic: a.ups_facility_slic.clone(),
            }),
            PortEvent::SlicChanged(c) => {
                if let Some(f) = self.facility_mut(c.slic_id) {
                    apply_changes(&c.changes, |field, to| match field {
                        "upsFacilityName" => f.name = to.unwrap_or_default(),
                        "upsFacilitySlic" => f.slic = to.unwrap_or_default(),
                        _ => {}
                    });
                }
            }
            PortEvent::SlicRemoved(r) => self.facilities.retain(|f| f.id != r.slic_id),
            PortEvent::Deleted(_) => {
                self.deleted = true;
                self.facilities.clear();
            }
        }
    }

    /// Decide a port command on the port's state.
    fn decide(&self, cmd: PortCommand, _ctx: &Ctx) -> Result<Vec<PortEvent>, DomainError> {
        let state = self;
        match cmd {
            PortCommand::Register {
                port_code,
                port_name,
                port_name_en,
                declaration_slic,
            } => {
                let port_code = normalize_code(&port_code);
                let mut v = Vec::new();
                if port_code.is_empty() {
                    v.push(Violation::new(
                        "portCode",
                        "required",
                        "请输入口岸代码",
                        "portCode is required",
                    ));
                } else if !port_code_ok(&port_code) {
                    v.push(Violation::new(
                        "portCode",
                        "port_code",
                        "口岸代码应为 3 位大写字母（如 PVG）",
                        "portCode must be 3 upper-case letters (e.g. PVG)",
                    ));
                }
                required("portName", "口岸名称", &port_name, 50, &mut v);
                if let Some(en) = &port_name_en {
                    at_most("portNameEn", "英文名称", en, 100, &mut v);
                }
                slic_rule("declarationSlic", "申报 SLIC", &declaration_slic, &mut v);
                refuse_if_any(v)?;
                if state.live() {
                    return Err(DomainError::Conflict(CODE_TAKEN.into()));
                }
                Ok(vec![PortEvent::Registered(Registered {
                    port_code,
                    port_name,
                    port_name_en,
                    declaration_slic,
                })])
            }
            PortCommand::Change {
                port_name,
                port_name_en,
                declaration_slic,
            } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let mut v = Vec::new();
                if let Some(n) = &port_name {
                    required("portName", "口岸名称", n, 50, &mut v);
                }
                if let Some(Some(en)) = &port_name_en {
                    at_most("portNameEn", "英文名称", en, 100, &mut v);
                }
                if let Some(s) = &declaration_slic {
                    slic_rule("declarationSlic", "申报 SLIC", s, &mut v);
                }
                refuse_if_any(v)?;
                let changes: Vec<FieldChange> = [
                    change("portName", Some(&state.port_name), port_name.as_ref()),
                    port_name_en
                        .filter(|new| *new != state.port_name_en)
                        .map(|new| FieldChange {
                            field: "portNameEn".into(),
                            from: state.port_name_en.clone(),
                            to: new,
                        }),
                    change(
                        "declarationSlic",
                        Some(&state.declaration_slic),
                        declaration_slic.as_ref(),
                    ),
                ]
                .into_iter()
                .flatten()
                .collect();
                if changes.is_empty() {
                    return Ok(Vec::new());
                }
                Ok(vec![PortEvent::Changed(Changed { changes })])
            }
            PortCommand::Delete { reason } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![PortEvent::Deleted(Deleted { reason })])
            }
            PortCommand::AddSlic {
                slic_id,
                ups_facility_name,
                ups_facility_slic,
            } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let mut v = Vec::new();
                required(
                    "upsFacilityName",
                    "设施名称",
                    &ups_facility_name,
                    100,
                    &mut v,
                );
                slic_rule("upsFacilitySlic", "设施 SLIC", &ups_facility_slic, &mut v);
                refuse_if_any(v)?;
                if state.facilities.iter().any(|f| f.slic == ups_facility_slic) {
                    return Err(DomainError::Conflict(SLIC_TAKEN.into()));
                }
                Ok(vec![PortEvent::SlicAdded(SlicAdded {
                    slic_id,
                    ups_facility_name,
                    ups_facility_slic,
                })])
            }
            PortCommand::ChangeSlic {
                slic_id,
                ups_facility_name,
                ups_facility_slic,
            } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let facility = state
                    .facilities
                    .iter()
                    .find(|f| f.id == slic_id)
                    .ok_or(DomainError::NotFound)?;
                let mut v = Vec::new();
                if let Some(n) = &ups_facility_name {
                    required("upsFacilityName", "设施名称", n, 100, &mut v);
                }
                if let Some(s) = &ups_facility_slic {
                    slic_rule("upsFacilitySlic", "设施 SLIC", s, &mut v);
                }
                refuse_if_any(v)?;
                if let Some(s) = &ups_facility_slic
                    && state
                        .facilities
                        .iter()
                        .any(|f| f.id != slic_id && &f.slic == s)
                {
                    return Err(DomainError::Conflict(SLIC_TAKEN.into()));
                }
                let changes: Vec<FieldChange> = [
                    change(
                        "upsFacilityName",
                        Some(&facility.name),
                        ups_facility_name.as_ref(),
                    ),
                    change(
                        "upsFacilitySlic",
                        Some(&facility.slic),
                        ups_facility_slic.as_ref(),
                    ),
                ]
                .into_iter()
                .flatten()
                .collect();
                if changes.is_empty() {
                    return Ok(Vec::new());
                }
                Ok(vec![PortEvent::SlicChanged(SlicChanged {
                    slic_id,
                    changes,
                })])
            }
            PortCommand::RemoveSlic { slic_id, reason } => {
                if !state.live() || !state.facilities.iter().any(|f| f.id == slic_id) {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![PortEvent::SlicRemoved(SlicRemoved {
                    slic_id,
                    reason,
                })])
            }
        }
    }
}

/// What can be done to a port.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PortCommand {
    /// Missing fields are empty strings (refused as required).
    Register {
        port_code: String,
        port_name: String,
        port_name_en: Option<String>,
        declaration_slic: String,
    },
    /// `None` = unchanged; `port_name_en: Some(None)` empties the English name.
    Change {
        port_name: Option<String>,
        port_name_en: Option<Option<String>>,
        declaration_slic: Option<String>,
    },
    Delete {
        reason: Option<String>,
    },
    /// `slic_id` is chosen by the caller (a new UUID), so the decision stays pure.
    AddSlic {
        slic_id: Uuid,
        ups_facility_name: String,
        ups_facility_slic: String,
    },
    ChangeSlic {
        slic_id: Uuid,
        ups_facility_name: Option<String>,
        ups_facility_slic: Option<String>,
    },
    RemoveSlic {
        slic_id: Uuid,
        reason: Option<String>,
    },
}

/// The conflict messages' keys: the field that clashes.
pub const CODE_TAKEN: &str = "portCode";
pub const SLIC_TAKEN: &str = "upsFacilitySlic";

/// Upper-case and trim a port code as typed.
pub fn normalize_code(code: &str) -> String {
    code.trim().to_uppercase()
}

pub fn port_code_ok(code: &str) -> bool {
    code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase())
}

pub fn slic_ok(slic: &str) -> bool {
    slic.len() == 4 && slic.bytes().all(|b| b.is_ascii_digit())
}

fn required(field: &str, zh_name: &str, value: &str, max: usize, out: &mut Vec<Violation>) {
    if value.trim().is_empty() {
        out.push(Violation::new(
            field,
            "required",
            format!("请输入{zh_name}"),
            format!("{field} is required"),
        ));
    } else {
        at_most(field, zh_name, value, max, out);
    }
}

fn at_most(field: &str, zh_name: &str, value: &str, max: usize, out: &mut Vec<Violation>) {
    if value.chars().count() > max {
        out.push(Violation::new(
            field,
            "length",
            format!("{zh_name}最多 {max} 个字符"),
            format!("{field} has at most {max} characters"),
        ));
    }
}

fn slic_rule(field: &str, zh_name: &str, value: &str, out: &mut Vec<Violation>) {
    if value.trim().is_empty() {
        out.push(Violation::new(
            field,
            "required",
            format!("请输入{zh_name}"),
            format!("{field} is required"),
        ));
    } else if !slic_ok(value) {
        out.push(Violation::new(
            field,
            "slic",
            format!("{zh_name}应为 4 位数字"),
            format!("{field} must be 4 digits"),
        ));
    }
}

fn refuse_if_any(violations: Vec<Violation>) -> Result<(), DomainError> {
    if violations.is_empty() {
        Ok(())
    } else {
        Err(DomainError::Validation(violations))
    }
}

fn change(field: &str, old: Option<&str>, new: Option<&String>) -> Option<FieldChange> {
    let new = new?;
    (old != Some(new.as_str())).then(|| FieldChange {
        field: field.into(),
        from: old.map(String::from),
        to: Some(new.clone()),
    })
}

#[cfg(test)]
mod tests;
