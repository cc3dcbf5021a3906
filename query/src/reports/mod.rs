//! Reports: file downloads built from the read models.

pub mod clearance_export;
pub mod declaration_export;
pub mod xlsx;
