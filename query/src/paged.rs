//! The paged lists of the directories (customers, ports, staff): one filter counted, then
//! one page of rows in a fixed order. Each list keeps its own columns, filter and order;
//! the count, the page's `LIMIT`/`OFFSET` and the keyword pattern are written once here.

use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArguments, PgRow};
use sqlx::{Arguments, FromRow, PgPool};

/// A `LIKE` pattern that finds `keyword` anywhere, in lower case (`\`, `%` and `_` escaped).
pub fn like(keyword: &str) -> String {
    let escaped = keyword
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{}%", escaped.to_lowercase())
}

/// One directory's paged list.
pub struct PagedList<'a> {
    /// `SELECT <columns> FROM <table> <alias>`: what a row of the page is read with.
    pub select: &'a str,
    /// `<table> <alias>`: what the total is counted in.
    pub from: &'a str,
    /// The `WHERE` condition over `$1..$n`, the arguments `bind` adds.
    pub filter: &'a str,
    /// The `ORDER BY` list; it ends with a unique key, so pages neither overlap nor skip.
    pub order: &'a str,
}

impl PagedList<'_> {
    /// The total of rows the filter keeps, and the `size` rows after `offset` of them.
    /// `bind` adds the filter's arguments in order (it is called once per statement).
    pub async fn fetch<R>(
        &self,
        pool: &PgPool,
        size: i64,
        offset: i64,
        bind: impl Fn(&mut PgArguments) -> Result<(), BoxDynError>,
    ) -> Result<(i64, Vec<R>), sqlx::Error>
    where
        R: for<'r> FromRow<'r, PgRow> + Send + Unpin,
    {
        let mut args = PgArguments::default();
        bind(&mut args).map_err(sqlx::Error::Encode)?;
        let n = args.len();
        let count = format!("SELECT count(*) FROM {} WHERE {}", self.from, self.filter);
        let total: i64 = sqlx::query_scalar_with(&count, args)
            .fetch_one(pool)
            .await?;
        let mut args = PgArguments::default();
        bind(&mut args).map_err(sqlx::Error::Encode)?;
        args.add(size).map_err(sqlx::Error::Encode)?;
        args.add(offset).map_err(sqlx::Error::Encode)?;
        let page = format!(
            "{} WHERE {} ORDER BY {} LIMIT ${} OFFSET ${}",
            self.select,
            self.filter,
            self.order,
            n + 1,
            n + 2
        );
        let rows: Vec<R> = sqlx::query_as_with(&page, args).fetch_all(pool).await?;
        Ok((total, rows))
    }
}
