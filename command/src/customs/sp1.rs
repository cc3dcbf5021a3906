//! An `Sp1` receipt (supplementary documents requested): the declaration moves 2 -> 4 and a
//! clearance exception opens in the same transaction, raised by the actor "customs",
//! asking for the receipt's `DOCS` with customs' `NOTE` as its summary. The exception's id
//! is fixed by the receipt, so the same `Sp1` read again opens nothing more. The customer is
//! then notified on the form's channels, as staff notify a raised exception.

use std::sync::Arc;

use events::clearance_exception::ExceptionForm;
use events::declaration::customs::CustomsReceipt;
use sqlx::PgConnection;
use uuid::Uuid;

use super::outcome::{Outcome, customs_actor, settle_outcome};
use crate::aggregate::{Aggregate, Ctx, DomainError};
use crate::clearance_exception::{
    DeclarationRef, ExceptionCommand, ExceptionState, ProposedValues,
};
use crate::declaration::customs::{CustomsCommand, sp1_events};
use crate::declaration::{DeclarationCommand, DeclarationState};
use crate::handler::{
    AfterAppend, Command, CommandError, Hooked, also_append, execute, execute_then, load,
};
use crate::http::{CommandState, system_metadata};
use crate::reference::ReferenceData;

/// The exception an `Sp1` opens: fixed by the receipt's identity.
pub fn exception_id(r: &CustomsReceipt) -> Uuid {
    events::declaration::customs::sp1_exception_id(r)
}

/// The exception form of an `Sp1`: its `DOCS` as the document flags (an unknown kind as an
/// other document), its `NOTE` as the summary, e-mail as the channel.
pub fn form(r: &CustomsReceipt) -> ExceptionForm {
    let mut f = ExceptionForm {
        send_to_email: true,
        ..Default::default()
    };
    for d in &r.docs {
        match d.as_str() {
            "personalId" => f.is_personal_id_checked = true,
            "passport" => f.is_passport_checked = true,
            "poa" => f.is_poa_checked = true,
            "electronicProxy" => f.is_electronic_proxy_checked = true,
            "waybill" => f.is_waybill_checked = true,
            "packingList" => f.is_packing_list_checked = true,
            "commercialInvoice" => f.is_commercial_invoice_checked = true,
            "tradeContract" => f.is_trade_contract_checked = true,
            "proxyProtocol" => f.is_proxy_protocol_checked = true,
            "priceExemption" => f.is_price_exemption_checked = true,
            "factSheet" => f.is_fact_sheet_checked = true,
            "legalInspection" => f.is_legal_inspection_checked = true,
            "originCertificate" => f.is_origin_certificate_checked = true,
            other => f.other_documents.push(other.chars().take(200).collect()),
        }
    }
    let summary = r
        .note
        .clone()
        .unwrap_or_else(|| "海关要求补充资料 / customs asks for supplementary documents".into());
    f.exception_summary = Some(summary.chars().take(1000).collect());
    f
}

struct DeclarationSide {
    store: events::EventStore,
    declaration_id: Uuid,
    metadata: events::Metadata,
    reference: Arc<ReferenceData>,
    receipt: CustomsReceipt,
    source: String,
    exception_id: Uuid,
}

impl AfterAppend for DeclarationSide {
    fn run<'c>(&'c self, tx: &'c mut PgConnection, _appended: events::Appended) -> Hooked<'c> {
        Box::pin(async move {
            let actor = customs_actor();
            let mut meta = self.metadata.clone();
            meta.causation_id = Some(self.metadata.command_id);
            meta.command_id = Uuid::now_v7();
            let appended = also_append::<DeclarationState, _>(
                &self.store,
                tx,
                self.declaration_id,
                &meta,
                |d, _| {
                    let ctx = Ctx::new(&actor, self.reference.clone());
                    d.decide(
                        DeclarationCommand::Customs(CustomsCommand::Sp1 {
                            receipt: self.receipt.clone(),
                            source: self.source.clone(),
                            exception_id: self.exception_id,
                        }),
                        &ctx,
                    )
                },
            )
            .await?;
            Ok(appended.position)
        })
    }
}

/// Records an `Sp1` for declaration `id`.
pub async fn record(
    state: &CommandState,
    id: Uuid,
    receipt: CustomsReceipt,
    source: &str,
) -> Result<Outcome, CommandError> {
    let actor = customs_actor();
    let exception_id = exception_id(&receipt);
    let (d, _) = load::<DeclarationState>(&state.store, id).await?;
    let planned = match sp1_events(&d, receipt.clone(), source.to_string(), exception_id) {
        Ok(events) => events,
        Err(e) => return settle_outcome(state, receipt, source, id, Err(e.into())).await,
    };
    if planned.is_empty() {
        return settle_outcome(state, receipt, source, id, Ok(false)).await;
    }
    let opens = planned.len() > 1;
    let ctx = state.ctx(&actor);
    if !opens {
        // Late: history only, on the declaration alone.
        let cmd = Command::<DeclarationState>::on(&state.store, id, system_metadata(&actor, None));
        let decided = execute(cmd, |s, _| {
            s.decide(
                DeclarationCommand::Customs(CustomsCommand::Sp1 {
                    receipt: receipt.clone(),
                    source: source.to_string(),
                    exception_id,
                }),
                &ctx,
            )
        })
        .await;
        return settle_outcome(state, receipt, source, id, decided.map(|_| true)).await;
    }
    let (Some(status), Some(ty)) = (d.status, d.declaration_type) else {
        return settle_outcome(
            state,
            receipt,
            source,
            id,
            Err(DomainError::NotFound.into()),
        )
        .await;
    };
    let declaration = DeclarationRef {
        id,
        customer_id: d.customer_id,
        username: d.username.clone(),
        company_name: d.company_name.clone(),
        declaration_type: ty.as_str().to_string(),
        status,
        open_exception: d.open_exception,
        data: d.data.clone(),
    };
    let meta = system_metadata(&actor, Some(d.customer_id));
    let side = DeclarationSide {
        store: state.store.clone(),
        declaration_id: id,
        metadata: meta.clone(),
        reference: state.reference.current(),
        receipt: receipt.clone(),
        source: source.to_string(),
        exception_id,
    };
    let command = ExceptionCommand::Raise {
        id: exception_id,
        declaration: Box::new(declaration),
        form: Box::new(form(&receipt)),
        proposed: ProposedValues::default(),
    };
    let run = Command::<ExceptionState>::create(&state.store, exception_id, meta);
    let raised = execute_then(run, |s, _| s.decide(command.clone(), &ctx), Some(&side)).await;
    let decided = match raised {
        Ok(_) => Ok(true),
        // Opened before (the file read again after a crash): the receipt is recorded.
        Err(CommandError::VersionConflict) => Ok(false),
        Err(e) => Err(e),
    };
    let result = settle_outcome(state, receipt, source, id, decided).await?;
    if result.result == "recorded" {
        notify(state, exception_id).await;
    }
    Ok(result)
}

/// Notifies the customer of the exception on the form's channels and contacts, as staff do
/// after raising one; a form without a contact to notify leaves it pending for staff.
async fn notify(state: &CommandState, exception_id: Uuid) {
    let actor = customs_actor();
    let ctx = state.ctx(&actor);
    let cmd =
        Command::<ExceptionState>::on(&state.store, exception_id, system_metadata(&actor, None));
    let notified = execute(cmd, |s, _| {
        s.decide(
            ExceptionCommand::Notify {
                channels: None,
                contacts: None,
                note: None,
            },
            &ctx,
        )
    })
    .await;
    if let Err(e) = notified {
        tracing::info!(exception = %exception_id, error = %e, "customs: the exception opened by an Sp1 waits for staff to notify");
    }
}
