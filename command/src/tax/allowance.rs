//! The yearly cross-border allowance per buyer (docs/taxes.md, "The yearly allowance"): one
//! ledger stream per buyer (data subject of the ID number) and calendar year
//! (`events::allowance`). A declaration charges it when it becomes declared (submitted,
//! redeclared) and is given back when it no longer stands declared (withdrawn, returned,
//! deleted, rejected by customs).
//!
//! Consistency: the ledger is appended in the transaction of the declaration's own event
//! (the command's [`AfterAppend`] hook), after a transaction-scoped advisory lock on the
//! ledger's stream id, and with the ledger's version read under that lock as the expected
//! version. Submits for one buyer therefore queue on the lock and each decides on what the
//! previous one committed; two can never both count the same remaining amount, and a writer
//! that bypassed the lock would still lose on the version.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Datelike, Utc};
use events::allowance::{self, AllowanceEvent, Charged, Released};
use events::declaration::{
    DeclarationData, DeclarationEvent, DeclarationStatus, Direction, TypeCode,
};
use events::{Appended, DomainEvent, EventStore, Metadata, NewEvent};
use rust_decimal::Decimal;
use serde::Serialize;
use sqlx::PgConnection;
use utoipa::ToSchema;
use uuid::Uuid;

use super::estimate::{self, Regime};
use super::figures::Figures;
use crate::aggregate::{Aggregate, DomainError, Violation};
use crate::declaration::DeclarationState;
use crate::declaration::validate::{declaration_date, present};
use crate::handler::{AfterAppend, CommandError, Hooked, also_append};
use crate::reference::ReferenceData;

/// The field that names the buyer of a cross-border retail import.
pub const BUYER_FIELD: &str = "recipientIdNumber";

/// What a declaration would use of its buyer's allowance.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub id_number: String,
    pub subject: String,
    pub year: i32,
    /// The dutiable value (CIF) in CNY.
    pub amount: Decimal,
    /// `crossBorderPerYear` in force on the declaration's date.
    pub limit: Decimal,
}

impl Claim {
    pub fn stream_id(&self) -> Uuid {
        allowance::stream_id(&self.subject, self.year)
    }
}

/// The claim of a declaration of `ty` on its buyer's allowance: `Ok(None)` when it is no
/// cross-border retail import (or `tax-rules` has no yearly limit on its date); a refusal
/// when it is one but the buyer or the value cannot be told.
pub fn claim(
    ty: TypeCode,
    data: &DeclarationData,
    reference: &ReferenceData,
    now: DateTime<Utc>,
) -> Result<Option<Claim>, Violation> {
    if ty.direction != Direction::Import {
        return Ok(None);
    }
    let on = declaration_date(data, now);
    let f = Figures::on(reference, on);
    if estimate::regime(ty, data, &f) != Regime::CrossBorder {
        return Ok(None);
    }
    let Some(limit) = f.cross_border_per_year else {
        return Ok(None);
    };
    let Some((id_number, subject)) = present(&data.recipient_id_number)
        .and_then(|n| events::pii::subject_of(n).map(|s| (n.to_string(), s)))
    else {
        return Err(Violation::new(
            BUYER_FIELD,
            "cross_border_buyer_required",
            "跨境电商零售进口须填写购买人身份证号（按人计算年度交易限值）",
            "cross-border retail import needs the buyer's ID number (the yearly limit is counted per person)",
        ));
    };
    let Some(amount) = estimate::estimate(ty, data, reference, on).dutiable_cny else {
        return Err(Violation::new(
            "declarationGoodsInfo",
            "cross_border_value_unknown",
            "无法计算人民币完税价格，不能计入年度交易限值",
            "the value in CNY cannot be told, so the yearly limit cannot be counted",
        ));
    };
    Ok(Some(Claim {
        id_number,
        subject,
        year: on.year(),
        amount,
        limit,
    }))
}

/// A buyer's ledger of one year, folded: the charges still open, by declaration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ledger {
    pub open: BTreeMap<Uuid, Decimal>,
    pub version: i64,
}

impl Ledger {
    pub fn evolve(&mut self, e: &AllowanceEvent) {
        match e {
            AllowanceEvent::Charged(c) => {
                self.open.insert(c.declaration_id, c.amount_cny);
            }
            AllowanceEvent::Released(r) => {
                self.open.remove(&r.declaration_id);
            }
        }
    }

    pub fn used(&self) -> Decimal {
        self.open.values().copied().sum()
    }
}

/// Whether a declaration in `status` stands declared (its value counts for the year).
pub fn stands_declared(status: Option<DeclarationStatus>) -> bool {
    use DeclarationStatus::*;
    matches!(
        status,
        Some(Unprocessed | ReviewedNotCompleted | Completed | DocumentException)
    )
}

async fn read_ledger(
    store: &EventStore,
    conn: &mut PgConnection,
    stream: Uuid,
) -> Result<Ledger, CommandError> {
    let mut ledger = Ledger::default();
    for recorded in store.read_stream_in(&mut *conn, stream).await? {
        ledger.evolve(&AllowanceEvent::from_recorded(&recorded)?);
        ledger.version = recorded.stream_version;
    }
    Ok(ledger)
}

/// The open charges of declarations that no longer stand declared, as releases. Every move
/// settles its ledger in its own transaction now ([`AllowanceHook`], [`also_append_counted`]);
/// this still clears what older history left (a customs rejection or a voided exception
/// recorded before those paths counted) when the ledger is next charged or read.
async fn stale_charges(
    store: &EventStore,
    conn: &mut PgConnection,
    ledger: &Ledger,
    except: Uuid,
) -> Result<Vec<Released>, CommandError> {
    let mut out = Vec::new();
    for (&id, &amount) in &ledger.open {
        if id == except {
            continue;
        }
        let (state, _) = crate::handler::load_in::<DeclarationState>(store, conn, id).await?;
        if !stands_declared(state.status) {
            out.push(Released {
                declaration_id: id,
                amount_cny: amount,
                status: state.status.map(|s| s.code()).unwrap_or_default(),
            });
        }
    }
    Ok(out)
}

/// What the buyer of `claim` has used this year and what remains, stale charges left out.
pub async fn standing(
    store: &EventStore,
    pool: &sqlx::PgPool,
    claim: &Claim,
) -> Result<Use, CommandError> {
    let mut conn = pool.acquire().await?;
    let mut ledger = read_ledger(store, &mut conn, claim.stream_id()).await?;
    for r in stale_charges(store, &mut conn, &ledger, Uuid::nil()).await? {
        ledger.open.remove(&r.declaration_id);
    }
    Ok(Use::of(claim, ledger.used()))
}

/// "Used / remaining this year" of the buyer on the form.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Use {
    pub year: i32,
    /// The year's limit (`crossBorderPerYear`), CNY.
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub limit_cny: Decimal,
    /// What the buyer's declared cross-border orders of the year used, CNY.
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub used_cny: Decimal,
    /// `limitCny - usedCny` (never below 0).
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub remaining_cny: Decimal,
    /// What this declaration would use (its CIF value), CNY.
    #[schema(value_type = f64)]
    #[serde(with = "rust_decimal::serde::float")]
    pub this_cny: Decimal,
}

impl Use {
    fn of(claim: &Claim, used: Decimal) -> Self {
        Self {
            year: claim.year,
            limit_cny: claim.limit,
            used_cny: estimate::fen(used),
            remaining_cny: estimate::fen((claim.limit - used).max(Decimal::ZERO)),
            this_cny: estimate::fen(claim.amount),
        }
    }

    /// The refusal when this declaration does not fit what remains.
    pub fn violation(&self) -> Option<Violation> {
        (self.this_cny > self.remaining_cny).then(|| {
            Violation::new(
                BUYER_FIELD,
                "cross_border_year_limit",
                format!(
                    "该购买人 {} 年跨境电商零售进口已用 {} 元，剩余 {} 元，本单 {} 元超过年度限值 {} 元",
                    self.year, self.used_cny, self.remaining_cny, self.this_cny, self.limit_cny
                ),
                format!(
                    "this buyer has used CNY {} of the {} cross-border allowance; CNY {} remains, and this order of CNY {} passes the yearly limit of CNY {}",
                    self.used_cny, self.year, self.remaining_cny, self.this_cny, self.limit_cny
                ),
            )
        })
    }
}

/// The declaration command's hook: charges, re-counts or gives back the buyer's allowance
/// in the command's transaction. The command's decision hands it the declaration before and
/// after its events ([`AllowanceHook::decided`]).
///
/// - A move into "declared" (submit, redeclare) charges the claim, refused past what remains.
/// - A move out of it (withdraw, return, delete, a customs rejection) gives the charge back.
/// - A change of a declared declaration (an amendment of a completed one) re-counts it: a
///   new value is charged in place of the old one (refused past what remains, its own old
///   charge left out), and a new buyer or year moves the charge to that ledger.
pub struct AllowanceHook {
    store: EventStore,
    reference: Arc<ReferenceData>,
    now: DateTime<Utc>,
    metadata: Metadata,
    declaration: Uuid,
    decided: Mutex<Option<(DeclarationState, DeclarationState)>>,
}

impl AllowanceHook {
    pub fn new(
        store: EventStore,
        reference: Arc<ReferenceData>,
        metadata: Metadata,
        declaration: Uuid,
    ) -> Self {
        Self {
            store,
            reference,
            now: Utc::now(),
            metadata,
            declaration,
            decided: Mutex::new(None),
        }
    }

    /// Records the declaration before `events` and as they leave it (called by the decision,
    /// once per attempt: the last attempt's is the one appended).
    pub fn decided(&self, before: &DeclarationState, events: &[DeclarationEvent]) {
        let mut after = before.clone();
        for e in events {
            after.evolve(e);
        }
        *self.decided.lock().unwrap_or_else(|e| e.into_inner()) = Some((before.clone(), after));
    }

    /// The claim of `state`, when it stands declared and is a cross-border retail import
    /// whose buyer and value can be told.
    fn standing_claim(&self, state: &DeclarationState) -> Option<Claim> {
        let ty = state.declaration_type?;
        if !stands_declared(state.status) {
            return None;
        }
        claim(ty, &state.data, &self.reference, self.now)
            .ok()
            .flatten()
    }

    async fn settle(
        &self,
        conn: &mut PgConnection,
        appended: Appended,
    ) -> Result<i64, CommandError> {
        let Some((before, after)) = self
            .decided
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return Ok(appended.position);
        };
        let Some(ty) = after.declaration_type else {
            return Ok(appended.position);
        };
        let declared = stands_declared(after.status);
        // Neither moved in or out of "declared" nor changed: nothing to count (a customs
        // receipt that keeps the declaration where it stands, a note).
        if declared == stands_declared(before.status) && before.data == after.data {
            return Ok(appended.position);
        }
        let target = match claim(ty, &after.data, &self.reference, self.now) {
            Ok(Some(c)) if declared => Some(c),
            Ok(_) => None,
            // Only a declaration that stands declared needs the buyer and the value.
            Err(v) if declared => return Err(DomainError::Validation(vec![v]).into()),
            Err(_) => None,
        };
        // The ledgers concerned: the target's, and the one the declaration was counted in
        // before (another buyer or year after an amendment). Locked in a fixed order.
        let mut streams: Vec<Uuid> = target.iter().map(Claim::stream_id).collect();
        if let Some(old) = self.standing_claim(&before) {
            streams.push(old.stream_id());
        }
        streams.sort_unstable();
        streams.dedup();
        let mut position = appended.position;
        for stream in streams {
            let here = target.as_ref().filter(|c| c.stream_id() == stream);
            if let Some(p) = self.settle_ledger(conn, stream, here, &after).await? {
                position = p;
            }
        }
        Ok(position)
    }

    /// Brings one ledger in line: the declaration charged `target` there, or not at all.
    async fn settle_ledger(
        &self,
        conn: &mut PgConnection,
        stream: Uuid,
        target: Option<&Claim>,
        after: &DeclarationState,
    ) -> Result<Option<i64>, CommandError> {
        // The first 8 bytes of the ledger's id: one lock per buyer and year.
        let key = i64::from_be_bytes(stream.as_bytes()[..8].try_into().unwrap_or_default());
        sqlx::query("SELECT pg_advisory_xact_lock($1)")
            .bind(key)
            .execute(&mut *conn)
            .await?;
        let mut ledger = read_ledger(&self.store, conn, stream).await?;
        let charged = ledger.open.get(&self.declaration).copied();
        let status = after.status.map(|s| s.code()).unwrap_or_default();
        let mut new: Vec<AllowanceEvent> = Vec::new();
        match (target, charged) {
            (Some(c), Some(amount)) if amount == estimate::fen(c.amount) => {}
            (Some(c), charged) => {
                for r in stale_charges(&self.store, conn, &ledger, self.declaration).await? {
                    ledger.open.remove(&r.declaration_id);
                    new.push(AllowanceEvent::Released(r));
                }
                // Re-counted: the old charge goes before the new one is weighed.
                if let Some(amount) = charged {
                    ledger.open.remove(&self.declaration);
                    new.push(AllowanceEvent::Released(Released {
                        declaration_id: self.declaration,
                        amount_cny: amount,
                        status,
                    }));
                }
                if let Some(v) = Use::of(c, ledger.used()).violation() {
                    return Err(DomainError::Validation(vec![v]).into());
                }
                new.push(AllowanceEvent::Charged(Charged {
                    declaration_id: self.declaration,
                    buyer_id_number: c.id_number.clone(),
                    year: c.year,
                    amount_cny: estimate::fen(c.amount),
                    limit_cny: c.limit,
                }));
            }
            (None, Some(amount)) => new.push(AllowanceEvent::Released(Released {
                declaration_id: self.declaration,
                amount_cny: amount,
                status,
            })),
            (None, None) => {}
        }
        if new.is_empty() {
            return Ok(None);
        }
        let new: Vec<NewEvent> = new.iter().map(DomainEvent::to_new_event).collect();
        let written = self
            .store
            .append_in(
                conn,
                allowance::STREAM_TYPE,
                stream,
                ledger.version,
                &new,
                &self.metadata,
            )
            .await?;
        Ok(Some(written.position))
    }
}

impl AfterAppend for AllowanceHook {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, appended: Appended) -> Hooked<'c> {
        Box::pin(self.settle(tx, appended))
    }
}

/// [`also_append`] of a declaration's events beside another stream's (a clearance exception's
/// resolution or void, an anomaly attached) or by the customs reader, with its buyer's
/// allowance settled in the same transaction as [`AllowanceHook`] does for the declaration's
/// own commands. Answers the declaration's append, its position the last one written.
pub async fn also_append_counted<D>(
    store: &EventStore,
    conn: &mut PgConnection,
    reference: Arc<ReferenceData>,
    declaration: Uuid,
    metadata: &Metadata,
    decide: D,
) -> Result<Appended, CommandError>
where
    D: FnOnce(&DeclarationState, i64) -> Result<Vec<DeclarationEvent>, DomainError>,
{
    let hook = AllowanceHook::new(store.clone(), reference, metadata.clone(), declaration);
    let appended =
        also_append::<DeclarationState, _>(store, conn, declaration, metadata, |d, v| {
            let events = decide(d, v)?;
            hook.decided(d, &events);
            Ok(events)
        })
        .await?;
    if appended.position == 0 {
        return Ok(appended);
    }
    let position = hook.settle(conn, appended).await?;
    Ok(Appended {
        version: appended.version,
        position: position.max(appended.position),
    })
}
