//! Reports: file downloads built from the read models.

pub mod declaration_export;
pub mod xlsx;
