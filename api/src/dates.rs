//! Dates on the wire: `YYYYMMDD` in query parameters, inclusive, in Asia/Shanghai.

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use chrono_tz::Asia::Shanghai;

use crate::error::ApiError;

pub fn parse_day(field: &str, value: &str) -> Result<NaiveDate, ApiError> {
    let v = value.trim();
    if v.len() != 8 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_field(
            field,
            "日期格式应为 YYYYMMDD",
            "date must be YYYYMMDD",
        ));
    }
    NaiveDate::parse_from_str(v, "%Y%m%d")
        .map_err(|_| ApiError::bad_field(field, "日期不存在", "no such date"))
}

/// Midnight at the start of `day` in Shanghai, as UTC.
pub fn day_start_utc(day: NaiveDate) -> DateTime<Utc> {
    let midnight = day.and_hms_opt(0, 0, 0).unwrap_or_default();
    Shanghai
        .from_local_datetime(&midnight)
        .earliest()
        .map(|d| d.with_timezone(&Utc))
        .unwrap_or_else(|| Utc.from_utc_datetime(&midnight))
}

/// Midnight after `day` in Shanghai, as UTC (an exclusive upper bound for an inclusive day).
pub fn day_end_exclusive_utc(day: NaiveDate) -> DateTime<Utc> {
    day_start_utc(day.succ_opt().unwrap_or(day))
}

/// Today's date in Shanghai.
pub fn today_shanghai(now: DateTime<Utc>) -> NaiveDate {
    now.with_timezone(&Shanghai).date_naive()
}

/// An optional inclusive range; `from` after `to` is a 400 on `toDate`.
pub fn parse_range(
    from: Option<&str>,
    to: Option<&str>,
) -> Result<(Option<NaiveDate>, Option<NaiveDate>), ApiError> {
    let from = from.map(|v| parse_day("fromDate", v)).transpose()?;
    let to = to.map(|v| parse_day("toDate", v)).transpose()?;
    if let (Some(f), Some(t)) = (from, to)
        && f > t
    {
        return Err(ApiError::bad_field(
            "toDate",
            "结束日期不能早于开始日期",
            "toDate is before fromDate",
        ));
    }
    Ok((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shanghai_day_starts_at_sixteen_utc_the_day_before() {
        let d = parse_day("fromDate", "20261122").expect("date");
        assert_eq!(day_start_utc(d).to_rfc3339(), "2026-11-21T16:00:00+00:00");
        assert_eq!(
            day_end_exclusive_utc(d).to_rfc3339(),
            "2026-11-22T16:00:00+00:00"
        );
    }

    #[test]
    fn malformed_and_impossible_dates_name_the_field() {
        assert!(parse_day("toDate", "2026-11-22").is_err());
        assert!(parse_day("toDate", "20260230").is_err());
        assert!(parse_range(Some("20261122"), Some("20261101")).is_err());
    }
}
