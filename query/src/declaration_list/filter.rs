//! The filters shared by the list, the counts and the export: parsed and checked once,
//! rendered into a WHERE clause with bound values.

use api::{Actor, ApiError};
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{Postgres, QueryBuilder};
use uuid::Uuid;

use super::codes::DELETED;

/// At most this many tracking numbers in one status query.
pub const MAX_TRACKING_NUMBERS: usize = 500;

/// Which rows of `rm_declarations` a query reads.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Type codes (empty: all).
    pub types: Vec<&'static str>,
    /// One status; `None` means every status but deleted (5).
    pub status: Option<i16>,
    pub tracking_numbers: Vec<String>,
    pub username: Option<String>,
    pub customer_id: Option<Uuid>,
    pub port: Option<String>,
    pub slic: Option<String>,
    /// The newest customs receipt's code; `Some(None)`: no receipt yet.
    pub customs_receipt: Option<Option<&'static str>>,
    /// Customs' entry number, upper-cased.
    pub entry_id: Option<String>,
    /// `created_at >= from` and `created_at < to` (UTC instants of Shanghai midnights).
    pub from: Option<DateTime<Utc>>,
    pub to: Option<DateTime<Utc>>,
    /// The same range as inclusive Shanghai days, for the counters.
    pub from_day: Option<NaiveDate>,
    pub to_day: Option<NaiveDate>,
}

/// The counters' scope for all customers together.
pub const ALL_CUSTOMERS: Uuid = Uuid::nil();

impl Filter {
    /// Customers see their own company's rows only, whatever they asked for.
    pub fn restrict_to(&mut self, actor: &Actor) {
        if actor.is_customer() {
            self.customer_id = Some(actor.customer_id.unwrap_or(Uuid::nil()));
        }
    }

    pub fn set_days(&mut self, from: Option<NaiveDate>, to: Option<NaiveDate>) {
        self.from = from.map(api::dates::day_start_utc);
        self.to = to.map(api::dates::day_end_exclusive_utc);
        self.from_day = from;
        self.to_day = to;
    }

    /// Can the counters (type, status, day; per customer, per port or for all) answer this
    /// filter's total? Port counters use the scope `md5('port:' || port)::uuid` (projection
    /// `declaration_list`). Tracking numbers, SLIC, username, or customer and port together
    /// are counted over the rows.
    pub fn countable(&self) -> bool {
        self.tracking_numbers.is_empty()
            && self.username.is_none()
            && self.slic.is_none()
            && self.customs_receipt.is_none()
            && self.entry_id.is_none()
            && !(self.port.is_some() && self.customer_id.is_some())
            && (self.from.is_none() || self.from_day.is_some())
            && (self.to.is_none() || self.to_day.is_some())
    }

    /// ` WHERE ...` over a counter table for a [`countable`](Self::countable) filter.
    fn push_counter_where(&self, qb: &mut QueryBuilder<'_, Postgres>, any_status: bool) {
        match (&self.port, self.customer_id) {
            (Some(port), None) => {
                qb.push(" WHERE scope = md5('port:' || ")
                    .push_bind(port.clone())
                    .push(")::uuid");
            }
            (_, customer_id) => {
                qb.push(" WHERE scope = ")
                    .push_bind(customer_id.unwrap_or(ALL_CUSTOMERS));
            }
        }
        if !any_status {
            match self.status {
                Some(status) => {
                    qb.push(" AND status = ");
                    qb.push(status.to_string());
                }
                None => {
                    qb.push(" AND status <> ");
                    qb.push(DELETED.to_string());
                }
            }
        }
        push_types(qb, &self.types);
        if let Some(from) = self.from_day {
            qb.push(" AND day >= ").push_bind(from);
        }
        if let Some(to) = self.to_day {
            qb.push(" AND day <= ").push_bind(to);
        }
    }

    /// `(...) AS counters`: the counter rows (`declaration_type, status, day, n`) for a
    /// [`countable`](Self::countable) filter, folded and pending alike (projection
    /// `declaration_list`). `any_status` drops the status condition (the counts endpoint).
    pub fn push_counter_rows(&self, qb: &mut QueryBuilder<'_, Postgres>, any_status: bool) {
        qb.push("(SELECT declaration_type, status, day, n FROM rm_declaration_counts");
        self.push_counter_where(qb, any_status);
        qb.push(
            " UNION ALL SELECT declaration_type, status, day, n FROM rm_declaration_count_deltas",
        );
        self.push_counter_where(qb, any_status);
        qb.push(") AS counters");
    }

    /// Append ` WHERE ...` for these filters. Type codes and status codes come from a fixed
    /// list and are written as literals (so the planner can use the partial indexes on
    /// `status <> 5`); everything the caller typed is bound.
    pub fn push_where(&self, qb: &mut QueryBuilder<'_, Postgres>) {
        match self.status {
            Some(status) => {
                qb.push(" WHERE status = ");
                qb.push(status.to_string());
            }
            None => {
                qb.push(" WHERE status <> ");
                qb.push(DELETED.to_string());
            }
        }
        push_types(qb, &self.types);
        if let Some(customer_id) = self.customer_id {
            qb.push(" AND customer_id = ").push_bind(customer_id);
        }
        // Case, spaces and hyphens do not matter (the numbers come compacted, see
        // [`parse_tracking_numbers`]); the key has its own index.
        match self.tracking_numbers.as_slice() {
            [] => {}
            [one] => {
                qb.push(" AND ")
                    .push(TRACKING_KEY)
                    .push(" = ")
                    .push_bind(one.clone());
            }
            many => {
                qb.push(" AND ")
                    .push(TRACKING_KEY)
                    .push(" = ANY(")
                    .push_bind(many.to_vec())
                    .push(")");
            }
        }
        if let Some(username) = &self.username {
            qb.push(" AND username = ").push_bind(username.clone());
        }
        if let Some(port) = &self.port {
            qb.push(" AND port = ").push_bind(port.clone());
        }
        if let Some(slic) = &self.slic {
            qb.push(" AND slic = ").push_bind(slic.clone());
        }
        // Codes come from the fixed list and are written as literals.
        match self.customs_receipt {
            None => {}
            Some(None) => {
                qb.push(" AND customs_receipt IS NULL");
            }
            Some(Some(code)) => {
                qb.push(" AND customs_receipt = '").push(code).push("'");
            }
        }
        if let Some(entry_id) = &self.entry_id {
            qb.push(" AND upper(entry_id) = ")
                .push_bind(entry_id.clone());
        }
        if let Some(from) = self.from {
            qb.push(" AND created_at >= ").push_bind(from);
        }
        if let Some(to) = self.to {
            qb.push(" AND created_at < ").push_bind(to);
        }
    }
}

/// ` AND declaration_type ...` for type codes of the fixed list (written as literals).
pub fn push_types(qb: &mut QueryBuilder<'_, Postgres>, types: &[&'static str]) {
    match types {
        [] => {}
        [one] => {
            qb.push(" AND declaration_type = '");
            qb.push(*one);
            qb.push("'");
        }
        many => {
            qb.push(" AND declaration_type IN (");
            for (i, code) in many.iter().enumerate() {
                if i > 0 {
                    qb.push(", ");
                }
                qb.push("'");
                qb.push(*code);
                qb.push("'");
            }
            qb.push(")");
        }
    }
}

/// The customs receipt codes (CUSTOMS.md), as the list filter takes them.
pub const RECEIPT_CODES: [&str; 12] =
    ["L", "G", "C", "T", "H", "M", "P", "R", "E", "Z", "Y", "Sp1"];

/// `customsReceipt`: a receipt code (any case) or `none`.
pub fn parse_customs_receipt(
    value: Option<&str>,
) -> Result<Option<Option<&'static str>>, ApiError> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if value.eq_ignore_ascii_case("none") {
        return Ok(Some(None));
    }
    RECEIPT_CODES
        .iter()
        .find(|code| code.eq_ignore_ascii_case(value))
        .map(|code| Some(Some(*code)))
        .ok_or_else(|| {
            ApiError::bad_field(
                "customsReceipt",
                "customsReceipt：应为回执代码 L G C T H M P R E Z Y Sp1 或 none",
                "customsReceipt: must be a receipt code (L G C T H M P R E Z Y Sp1) or none",
            )
        })
}

/// `entryId`: customs' entry number, compared upper-cased; at most 40 characters.
pub fn parse_entry_id(value: Option<&str>) -> Result<Option<String>, ApiError> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if value.chars().count() > 40 || value.chars().any(char::is_control) {
        return Err(ApiError::bad_field(
            "entryId",
            "entryId：报关单号最多 40 个字符",
            "entryId: an entry number has at most 40 characters",
        ));
    }
    Ok(Some(value.to_uppercase()))
}

/// How a stored tracking number is compared: without spaces and hyphens, in capitals
/// (migration `20261201010000_declaration_tracking_key.sql` indexes it).
pub const TRACKING_KEY: &str = "upper(regexp_replace(tracking_number, '[[:space:]-]', '', 'g'))";

/// A tracking number as [`TRACKING_KEY`] compares it: no spaces or hyphens, capitals.
pub fn tracking_key(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// One or many tracking numbers, separated by commas, semicolons, whitespace or newlines,
/// each compacted ([`tracking_key`]); duplicates dropped, at most [`MAX_TRACKING_NUMBERS`].
pub fn parse_tracking_numbers(value: Option<&str>) -> Result<Vec<String>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let mut out: Vec<String> = Vec::new();
    for part in value.split(|c: char| c == ',' || c == ';' || c == '，' || c.is_whitespace()) {
        let part = tracking_key(part);
        if !part.is_empty() && !out.contains(&part) {
            out.push(part);
        }
    }
    if out.len() > MAX_TRACKING_NUMBERS {
        return Err(ApiError::bad_field(
            "trackingNumber",
            format!("一次最多查询 {MAX_TRACKING_NUMBERS} 个运单号"),
            format!("at most {MAX_TRACKING_NUMBERS} tracking numbers at once"),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracking_numbers_split_on_commas_and_newlines_without_duplicates() {
        let parsed = parse_tracking_numbers(Some("1Z1, 1z2\n1Z3\r\n1Z1,,1-z-1")).ok();
        assert_eq!(
            parsed,
            Some(vec!["1Z1".to_string(), "1Z2".into(), "1Z3".into()])
        );
        let many = (0..501)
            .map(|i| format!("T{i}"))
            .collect::<Vec<_>>()
            .join(",");
        assert!(parse_tracking_numbers(Some(&many)).is_err());
    }

    #[test]
    fn the_receipt_filter_takes_the_codes_and_none() {
        assert_eq!(parse_customs_receipt(Some("c")).ok(), Some(Some(Some("C"))));
        assert_eq!(
            parse_customs_receipt(Some("SP1")).ok(),
            Some(Some(Some("Sp1")))
        );
        assert_eq!(parse_customs_receipt(Some("none")).ok(), Some(Some(None)));
        assert_eq!(parse_customs_receipt(Some(" ")).ok(), Some(None));
        assert!(parse_customs_receipt(Some("X")).is_err());
        assert!(parse_customs_receipt(Some("C'; drop")).is_err());
        let filter = Filter {
            customs_receipt: Some(Some("Sp1")),
            entry_id: parse_entry_id(Some("ab1")).ok().flatten(),
            ..Filter::default()
        };
        assert!(!filter.countable());
        let mut qb = QueryBuilder::new("SELECT 1 FROM rm_declarations");
        filter.push_where(&mut qb);
        assert_eq!(
            qb.sql(),
            "SELECT 1 FROM rm_declarations WHERE status <> 5 AND customs_receipt = 'Sp1' \
             AND upper(entry_id) = $1"
        );
        assert!(parse_entry_id(Some(&"9".repeat(41))).is_err());
    }

    #[test]
    fn the_where_clause_binds_what_the_caller_typed() {
        let filter = Filter {
            types: vec!["OD", "ID"],
            tracking_numbers: vec!["a".into(), "b".into()],
            port: Some("PVG'; drop".into()),
            ..Filter::default()
        };
        let mut qb = QueryBuilder::new("SELECT 1 FROM rm_declarations");
        filter.push_where(&mut qb);
        assert_eq!(
            qb.sql(),
            "SELECT 1 FROM rm_declarations WHERE status <> 5 AND declaration_type IN ('OD', 'ID') \
             AND upper(regexp_replace(tracking_number, '[[:space:]-]', '', 'g')) = ANY($1) AND port = $2"
        );
    }
}
