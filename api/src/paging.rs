//! `pageNo` (1-based) and `pageSize` (default 10, at most 500), and the `{records, total}` answer.

use serde::{Deserialize, Serialize};

use crate::error::ApiError;

pub const DEFAULT_PAGE_SIZE: i64 = 10;
pub const MAX_PAGE_SIZE: i64 = 500;

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Paging {
    #[serde(default)]
    pub page_no: Option<i64>,
    #[serde(default)]
    pub page_size: Option<i64>,
}

impl Paging {
    /// Validated (page_no, page_size, offset), or a 400 naming the field.
    pub fn resolve(&self) -> Result<(i64, i64, i64), ApiError> {
        self.resolve_with_max(MAX_PAGE_SIZE)
    }

    pub fn resolve_with_max(&self, max: i64) -> Result<(i64, i64, i64), ApiError> {
        let page_no = self.page_no.unwrap_or(1);
        let page_size = self.page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if page_no < 1 {
            return Err(ApiError::bad_field(
                "pageNo",
                "页码必须从 1 开始",
                "pageNo starts at 1",
            ));
        }
        if !(1..=max).contains(&page_size) {
            return Err(ApiError::bad_field(
                "pageSize",
                format!("每页条数须在 1 到 {max} 之间"),
                format!("pageSize must be between 1 and {max}"),
            ));
        }
        let offset = (page_no - 1).saturating_mul(page_size);
        Ok((page_no, page_size, offset))
    }
}

/// A page of a list: its rows and how many rows the whole list has.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    pub records: Vec<T>,
    /// Rows of the whole list (all pages).
    pub total: i64,
}
