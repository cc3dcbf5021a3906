//! The `AiDraft` aggregate: documents read and turned into a proposed declaration, then
//! accepted (with the reviewer's corrections) into a real declaration draft. Pure `evolve`
//! and `decide`; the document reading is in `ai_draft/read.rs`, the extractor in
//! `ai_draft/extract.rs`, the routes in `ai_draft/routes.rs`.
//!
//! Acceptance appends `AiDraftAccepted` here and `DeclarationDrafted` (with its
//! `provenance`) on the new declaration's stream in one transaction, so a draft makes at
//! most one declaration and never half of one.

pub mod extract;
pub mod llm;
pub mod read;
pub mod routes;
pub mod sample;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::str::FromStr;

use events::ai_draft::{Accepted, AiDraftEvent, DocumentRead, Proposal, Proposed};
use events::declaration::{DeclarationData, FieldProvenance, ReviewDecision, TypeCode};
use rust_decimal::Decimal;
use serde_json::Value;
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError};

#[derive(Debug, Default, Clone, PartialEq)]
pub struct AiDraftState {
    pub proposed: Option<Proposed>,
    pub accepted: Option<Uuid>,
}

impl AiDraftState {
    pub fn exists(&self) -> bool {
        self.proposed.is_some()
    }

    pub fn customer_id(&self) -> Option<Uuid> {
        self.proposed.as_ref().map(|p| p.customer_id)
    }
}

impl Aggregate for AiDraftState {
    type Event = AiDraftEvent;
    type Command = AiDraftCommand;
    const STREAM_TYPE: &'static str = events::ai_draft::STREAM_TYPE;

    fn evolve(&mut self, event: &AiDraftEvent) {
        match event {
            AiDraftEvent::Proposed(p) => self.proposed = Some(p.clone()),
            AiDraftEvent::Accepted(a) => self.accepted = Some(a.declaration_id),
        }
    }

    fn decide(&self, cmd: AiDraftCommand, _ctx: &Ctx) -> Result<Vec<AiDraftEvent>, DomainError> {
        let state = self;
        match cmd {
            AiDraftCommand::Propose(p) => {
                if state.exists() {
                    return Err(DomainError::Conflict("the draft already exists".into()));
                }
                Ok(vec![AiDraftEvent::Proposed(*p)])
            }
            AiDraftCommand::Accept {
                declaration_id,
                fields,
            } => {
                if !state.exists() {
                    return Err(DomainError::NotFound);
                }
                if let Some(made) = state.accepted {
                    return Err(DomainError::Conflict(format!(
                        "the draft was already accepted as declaration {made}"
                    )));
                }
                let count =
                    |d: ReviewDecision| fields.iter().filter(|f| f.decision == d).count() as u32;
                Ok(vec![AiDraftEvent::Accepted(Accepted {
                    declaration_id,
                    accepted: count(ReviewDecision::Accepted),
                    changed: count(ReviewDecision::Changed),
                    rejected: count(ReviewDecision::Rejected),
                })])
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum AiDraftCommand {
    Propose(Box<Proposed>),
    /// The reviewed form made declaration `declaration_id`; `fields` is the review.
    Accept {
        declaration_id: Uuid,
        fields: Vec<FieldProvenance>,
    },
}

/// The review of every proposed field against the saved form: the same value is
/// accepted, another value changed, an empty one rejected. Header fields by name, goods
/// fields as `declarationGoodsInfo[i].name`.
pub fn review(proposed: &Proposed, form: &DeclarationData) -> Vec<FieldProvenance> {
    let json = serde_json::to_value(form).unwrap_or(Value::Null);
    let mut out = Vec::new();
    let mut one = |path: String, p: &Proposal, saved: Option<&Value>| {
        let saved = saved.cloned().unwrap_or(Value::Null);
        let decision = if is_empty(&saved) {
            ReviewDecision::Rejected
        } else if same(&p.value, &saved) {
            ReviewDecision::Accepted
        } else {
            ReviewDecision::Changed
        };
        out.push(FieldProvenance {
            field: path,
            old: p.value.clone(),
            new: saved,
            source: p.source.clone(),
            location: p.location.clone(),
            confidence: p.confidence,
            decision,
        });
    };
    for (name, p) in &proposed.fields {
        one(name.clone(), p, json.get(name));
    }
    for (i, line) in proposed.goods.iter().enumerate() {
        let saved = json.get("declarationGoodsInfo").and_then(|g| g.get(i));
        for (name, p) in line {
            one(
                format!("declarationGoodsInfo[{i}].{name}"),
                p,
                saved.and_then(|g| g.get(name)),
            );
        }
    }
    out
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

fn as_decimal(v: &Value) -> Option<Decimal> {
    match v {
        Value::Number(n) => Decimal::from_str(&n.to_string())
            .or_else(|_| Decimal::from_scientific(&n.to_string()))
            .ok(),
        Value::String(s) => Decimal::from_str(s.trim()).ok(),
        _ => None,
    }
}

fn same(a: &Value, b: &Value) -> bool {
    if let (Value::Number(_), _) | (_, Value::Number(_)) = (a, b)
        && let (Some(x), Some(y)) = (as_decimal(a), as_decimal(b))
    {
        return x == y;
    }
    match (a, b) {
        (Value::String(x), Value::String(y)) => x.trim() == y.trim(),
        _ => a == b,
    }
}

/// The form a proposal fills when accepted as is: every proposed value in its place.
pub fn proposed_form(proposed: &Proposed) -> DeclarationData {
    let mut json = serde_json::Map::new();
    for (name, p) in &proposed.fields {
        json.insert(name.clone(), p.value.clone());
    }
    let goods: Vec<Value> = proposed
        .goods
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut g: serde_json::Map<String, Value> = line
                .iter()
                .map(|(k, p)| (k.clone(), p.value.clone()))
                .collect();
            g.insert("goodsNo".into(), Value::from(i as u64 + 1));
            Value::Object(g)
        })
        .collect();
    json.insert("declarationGoodsInfo".into(), Value::Array(goods));
    serde_json::from_value(Value::Object(json)).unwrap_or_default()
}

/// A proposal as stored: the documents, the extraction and what was asked for.
pub fn proposed(
    customer_id: Uuid,
    declaration_type: TypeCode,
    documents: Vec<DocumentRead>,
    x: extract::Extraction,
) -> Proposed {
    Proposed {
        customer_id,
        declaration_type,
        documents,
        fields: x.fields,
        goods: x.goods,
        warnings: x.warnings,
        class: x.class,
    }
}

/// Goods maps as the wire shows them.
pub type Goods = Vec<BTreeMap<String, Proposal>>;
