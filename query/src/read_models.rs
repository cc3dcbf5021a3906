//! Names shared by the read-side modules of the declarations: the projections their tables
//! come from (what a read waits for), and the one clock every answer is given in.

use chrono::{DateTime, FixedOffset, Utc};
use chrono_tz::Asia::Shanghai;

/// `rm_declarations`, the list of declarations.
pub const DECLARATION_LIST: &str = "declaration_list";
/// `rm_declaration_taxes`, each declaration's estimated and assessed taxes.
pub const DECLARATION_TAXES: &str = "declaration_taxes";

/// Serialize an instant in Shanghai time with its offset (`2026-11-22T09:30:00+08:00`).
pub fn shanghai(t: DateTime<Utc>) -> DateTime<FixedOffset> {
    t.with_timezone(&Shanghai).fixed_offset()
}
