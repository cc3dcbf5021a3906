//! The `MappingScheme` aggregate: how a customer's own spreadsheet layout is read into
//! declarations (`/customers-center/mapping`, staff `/mapping-list`). Pure `evolve` and
//! `decide`; the definition's rules are [`model::check_definition`].
//!
//! - [`model`]: the scheme applied to rows (pure; the upload worker and the preview use it).
//! - [`sheet`]: the safe reading of an xlsx sample's first rows.
//! - `routes`: CRUD and `POST /api/v1/mapping-schemes/preview`.

pub mod model;
pub mod routes;
pub mod sheet;

use events::mapping_scheme::{Changed, Deleted, MappingSchemeEvent, Registered, SchemeDefinition};
use uuid::Uuid;

use crate::aggregate::{Aggregate, Ctx, DomainError};
use crate::master_data::refuse_if_any;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MappingSchemeState {
    pub registered: bool,
    pub deleted: bool,
    pub customer_id: Uuid,
    pub definition: SchemeDefinition,
}

impl MappingSchemeState {
    pub fn live(&self) -> bool {
        self.registered && !self.deleted
    }
}

impl Aggregate for MappingSchemeState {
    type Event = MappingSchemeEvent;
    type Command = MappingSchemeCommand;
    const STREAM_TYPE: &'static str = events::mapping_scheme::STREAM_TYPE;

    fn evolve(&mut self, event: &MappingSchemeEvent) {
        match event {
            MappingSchemeEvent::Registered(r) => {
                *self = Self {
                    registered: true,
                    deleted: false,
                    customer_id: r.customer_id,
                    definition: r.definition.clone(),
                }
            }
            MappingSchemeEvent::Changed(c) => self.definition = c.definition.clone(),
            MappingSchemeEvent::Deleted(_) => self.deleted = true,
        }
    }

    fn decide(
        &self,
        cmd: MappingSchemeCommand,
        _ctx: &Ctx,
    ) -> Result<Vec<MappingSchemeEvent>, DomainError> {
        let state = self;
        match cmd {
            MappingSchemeCommand::Register {
                customer_id,
                definition,
            } => {
                let definition = normalize(definition);
                refuse_if_any(model::check_definition(&definition))?;
                if state.registered {
                    return Err(DomainError::Conflict("id".into()));
                }
                Ok(vec![MappingSchemeEvent::Registered(Registered {
                    customer_id,
                    definition,
                })])
            }
            MappingSchemeCommand::Change { definition } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                let definition = normalize(definition);
                refuse_if_any(model::check_definition(&definition))?;
                if definition == state.definition {
                    return Ok(Vec::new());
                }
                Ok(vec![MappingSchemeEvent::Changed(Changed { definition })])
            }
            MappingSchemeCommand::Delete { reason } => {
                if !state.live() {
                    return Err(DomainError::NotFound);
                }
                Ok(vec![MappingSchemeEvent::Deleted(Deleted { reason })])
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MappingSchemeCommand {
    Register {
        customer_id: Uuid,
        definition: SchemeDefinition,
    },
    /// Replaces the whole definition.
    Change {
        definition: SchemeDefinition,
    },
    Delete {
        reason: Option<String>,
    },
}

/// The definition as typed, trimmed: name, type (upper-cased, empty = any), fields,
/// headers and aliases (empty aliases dropped), translations and defaults.
pub fn normalize(d: SchemeDefinition) -> SchemeDefinition {
    let trim = |s: String| s.trim().to_string();
    SchemeDefinition {
        name: trim(d.name),
        declaration_type: d
            .declaration_type
            .map(|t| t.trim().to_ascii_uppercase())
            .filter(|t| !t.is_empty()),
        header_row: d.header_row,
        columns: d
            .columns
            .into_iter()
            .map(|c| model::ColumnMapping {
                field: trim(c.field),
                header: c.header.map(trim).filter(|h| !h.is_empty()),
                aliases: c
                    .aliases
                    .into_iter()
                    .map(trim)
                    .filter(|a| !a.is_empty())
                    .collect(),
                position: c.position,
            })
            .collect(),
        translations: d
            .translations
            .into_iter()
            .map(|t| model::Translation {
                field: trim(t.field),
                from: trim(t.from),
                to: trim(t.to),
            })
            .collect(),
        defaults: d
            .defaults
            .into_iter()
            .map(|f| model::FieldDefault {
                field: trim(f.field),
                value: trim(f.value),
            })
            .collect(),
    }
}

/// The customer's saved scheme whose headers fit `headers` (a file's header row) best, read
/// from the read model `rm_mapping_schemes` (most recently changed first on a tie; see
/// [`model::best_match`]); `None` when none fits. `declaration_type` narrows the candidates
/// to schemes for that type or for any type. For the upload: a custom file in a known layout
/// is read with its scheme without asking.
pub async fn find_for_headers(
    pool: &sqlx::PgPool,
    customer_id: Uuid,
    declaration_type: Option<&str>,
    headers: &[String],
) -> Result<Option<(Uuid, SchemeDefinition)>, sqlx::Error> {
    let rows: Vec<(Uuid, serde_json::Value)> = sqlx::query_as(
        "SELECT scheme_id, definition FROM rm_mapping_schemes
          WHERE customer_id = $1 AND NOT deleted
            AND ($2::text IS NULL OR declaration_type IS NULL OR declaration_type = $2)
          ORDER BY update_time DESC, scheme_id",
    )
    .bind(customer_id)
    .bind(declaration_type)
    .fetch_all(pool)
    .await?;
    let schemes: Vec<(Uuid, SchemeDefinition)> = rows
        .into_iter()
        .filter_map(|(id, d)| serde_json::from_value(d).ok().map(|d| (id, d)))
        .collect();
    let best = model::best_match(schemes.iter().map(|(id, d)| (*id, d)), headers);
    Ok(best.and_then(|id| schemes.into_iter().find(|(s, _)| *s == id)))
}

#[cfg(test)]
mod tests;
