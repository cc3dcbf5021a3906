//! Reading spreadsheet rows with a mapping scheme. Everything here is pure (no I/O, no
//! reference data), so the preview route and the upload worker apply a scheme the same way.
//!
//! How a scheme reads a sheet:
//!
//! 1. [`resolve`] finds each [`ColumnMapping`]'s column in the header row: by `header`,
//!    then by any of `aliases` (compared after [`normalize_header`]: case, spaces,
//!    full-width forms and `*`/`:` markers do not matter), then by `position` (1-based,
//!    A = 1). A column found nowhere is listed in [`Resolved::missing`].
//! 2. [`apply`] reads one data row: for each mapped field the cell's text is trimmed; an
//!    empty cell (or a missing column) takes the field's default, if the scheme has one; a
//!    non-empty cell is translated when a [`Translation`] of that field matches it (ignoring
//!    case and full-width forms). The value is then checked for its field's kind (numbers
//!    must be decimal numbers, `estimatedPickupTime` a date-time) and, when it passes, put
//!    into [`MappedRow::declaration`] or [`MappedRow::goods`] under the field's wire name
//!    (always as a JSON string; the declaration types read numbers from strings). A value
//!    that fails gets a [`CellProblem`] and is left out.
//! 3. [`MappedRow::declaration_data`] and [`MappedRow::goods_line`] give the typed
//!    declaration fields and goods line of the row, for the declaration validators and the
//!    declaration commands. Rows of one declaration (same `trackingNumber`) are grouped by
//!    the caller.
//!
//! [`header_match`] and [`best_match`] pick the saved scheme whose headers fit a file's
//! header row, so a file in a known layout is read without asking.
//!
//! Targets ([`targets`]): every text, number and date-time field of the declaration create
//! body (`DeclarationData`, wire names such as `trackingNumber`), `declarationType`, and every
//! goods-line field as `declarationGoodsInfo.<field>`.

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::LazyLock;

use chrono::{DateTime, NaiveDateTime, TimeZone};
use chrono_tz::Asia::Shanghai;
use events::declaration::{DeclarationData, GoodsLine, TypeCode};
pub use events::mapping_scheme::{ColumnMapping, FieldDefault, SchemeDefinition, Translation};
use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::aggregate::Violation;

/// Prefix of goods-line targets.
pub const GOODS_PREFIX: &str = "declarationGoodsInfo.";
/// The target that carries the declaration type of a row (`OC`, `ID`, ...).
pub const DECLARATION_TYPE: &str = "declarationType";

/// Limits of a definition (each checked by [`check_definition`]).
pub const MAX_NAME: usize = 100;
pub const MAX_COLUMNS: usize = 300;
pub const MAX_ALIASES: usize = 20;
pub const MAX_TEXT: usize = 200;
pub const MAX_TRANSLATIONS: usize = 2000;
pub const MAX_DEFAULTS: usize = 300;
pub const MAX_POSITION: u32 = 16_384;
pub const MAX_HEADER_ROW: u32 = 1000;
/// A mapped cell's text is cut off here (the declaration rules cap every field far lower).
pub const MAX_CELL_CHARS: usize = 2000;

/// Where a target field goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Level {
    /// The declaration's header (one value per declaration).
    Declaration,
    /// A goods line (one per row).
    Goods,
}

/// What a field's value must look like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FieldKind {
    Text,
    /// A decimal number (`12.5`, `-3`, `1e3`).
    Number,
    /// ISO 8601 with offset, or `YYYY-MM-DD HH:MM[:SS]` / `YYYY-MM-DD` in Asia/Shanghai.
    DateTime,
    /// A declaration type code (`OB` .. `ID`).
    DeclarationType,
}

/// One field a column may be mapped to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Target {
    /// As written in a scheme: `trackingNumber`, `declarationGoodsInfo.goodsCode`.
    pub field: String,
    /// The wire name inside its level: `trackingNumber`, `goodsCode`.
    pub name: String,
    pub level: Level,
    pub kind: FieldKind,
}

/// The scalar fields of a serializable form with their kinds, found by serializing the
/// empty form and probing each field with a text value (so the list follows the types).
fn scalar_fields<T>(level: Level, prefix: &str) -> Vec<Target>
where
    T: Default + Serialize + serde::de::DeserializeOwned,
{
    let Ok(Value::Object(empty)) = serde_json::to_value(T::default()) else {
        return Vec::new();
    };
    let accepts = |name: &str, v: &str| {
        let mut probe = Map::new();
        probe.insert(name.to_string(), Value::String(v.to_string()));
        serde_json::from_value::<T>(Value::Object(probe)).is_ok()
    };
    empty
        .iter()
        .filter(|(_, v)| v.is_null())
        .map(|(name, _)| {
            let kind = if accepts(name, "x") {
                FieldKind::Text
            } else if accepts(name, "1") {
                FieldKind::Number
            } else {
                FieldKind::DateTime
            };
            Target {
                field: format!("{prefix}{name}"),
                name: name.clone(),
                level,
                kind,
            }
        })
        .collect()
}

static TARGETS: LazyLock<(Vec<Target>, HashMap<String, usize>)> = LazyLock::new(|| {
    let mut all = vec![Target {
        field: DECLARATION_TYPE.into(),
        name: DECLARATION_TYPE.into(),
        level: Level::Declaration,
        kind: FieldKind::DeclarationType,
    }];
    all.extend(scalar_fields::<DeclarationData>(Level::Declaration, ""));
    all.extend(scalar_fields::<GoodsLine>(Level::Goods, GOODS_PREFIX));
    let index = all
        .iter()
        .enumerate()
        .map(|(i, t)| (t.field.clone(), i))
        .collect();
    (all, index)
});

/// Every field a column may be mapped to: `declarationType`, then the declaration's fields,
/// then the goods line's (each group in alphabetical order).
pub fn targets() -> &'static [Target] {
    &TARGETS.0
}

/// The target named `field`, if it is one.
pub fn target(field: &str) -> Option<&'static Target> {
    TARGETS.1.get(field).and_then(|&i| TARGETS.0.get(i))
}

/// Header text as compared: full-width ASCII folded to ASCII, lower case, without white
/// space and without the `*`, `:` and `：` that mark required or labelled columns.
pub fn normalize_header(s: &str) -> String {
    fold(s)
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '*' | ':' | '：'))
        .collect()
}

/// Full-width ASCII (U+FF01..U+FF5E) and the ideographic space folded, lower-cased.
fn fold(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// A value as compared with a translation's `from`.
fn translation_key(s: &str) -> String {
    fold(s).trim().to_string()
}

/// How each column of a scheme was found in a header row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resolved {
    /// Per [`SchemeDefinition::columns`] entry, in order: the 0-based column, or `None`.
    pub columns: Vec<Option<usize>>,
    /// How each was found (`header`, `alias`, `position`), `None` when not found.
    pub found_by: Vec<Option<FoundBy>>,
    /// Target fields whose column was not found.
    pub missing: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum FoundBy {
    Header,
    Alias,
    Position,
}

/// Finds each column of `def` in `headers` (the header row's cells as text).
pub fn resolve(def: &SchemeDefinition, headers: &[String]) -> Resolved {
    let mut by_text: HashMap<String, usize> = HashMap::new();
    for (i, h) in headers.iter().enumerate() {
        let key = normalize_header(h);
        if !key.is_empty() {
            by_text.entry(key).or_insert(i);
        }
    }
    let find = |text: &str| by_text.get(&normalize_header(text)).copied();
    let mut out = Resolved {
        columns: Vec::with_capacity(def.columns.len()),
        found_by: Vec::with_capacity(def.columns.len()),
        missing: Vec::new(),
    };
    for c in &def.columns {
        let found = c
            .header
            .as_deref()
            .filter(|h| !h.trim().is_empty())
            .and_then(find)
            .map(|i| (i, FoundBy::Header))
            .or_else(|| {
                c.aliases
                    .iter()
                    .filter(|a| !a.trim().is_empty())
                    .find_map(|a| find(a))
                    .map(|i| (i, FoundBy::Alias))
            })
            .or_else(|| {
                c.position
                    .filter(|p| (1..=MAX_POSITION).contains(p))
                    .map(|p| (p as usize - 1, FoundBy::Position))
            });
        if found.is_none() {
            out.missing.push(c.field.clone());
        }
        out.columns.push(found.map(|f| f.0));
        out.found_by.push(found.map(|f| f.1));
    }
    out
}

/// How well a header row fits a scheme: `None` when a column the scheme finds by header
/// text (it names a `header` or `aliases`) is not among `headers`, or when the scheme finds
/// no column by text at all; otherwise how many columns were found by text.
pub fn header_match(def: &SchemeDefinition, headers: &[String]) -> Option<usize> {
    let resolved = resolve(def, headers);
    let mut found = 0;
    for (c, by) in def.columns.iter().zip(&resolved.found_by) {
        let by_text = c.header.as_deref().is_some_and(|h| !h.trim().is_empty())
            || c.aliases.iter().any(|a| !a.trim().is_empty());
        match by {
            Some(FoundBy::Header | FoundBy::Alias) => found += 1,
            _ if by_text => return None,
            _ => {}
        }
    }
    (found > 0).then_some(found)
}

/// The scheme among `schemes` whose headers fit `headers` best (most columns found by text;
/// the first one on a tie, so callers list the most recently changed first).
pub fn best_match<'a, T>(
    schemes: impl IntoIterator<Item = (T, &'a SchemeDefinition)>,
    headers: &[String],
) -> Option<T> {
    let mut best: Option<(usize, T)> = None;
    for (key, def) in schemes {
        if let Some(score) = header_match(def, headers)
            && best.as_ref().is_none_or(|(b, _)| score > *b)
        {
            best = Some((score, key));
        }
    }
    best.map(|(_, key)| key)
}

/// A problem with one cell (or a missing column) of a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CellProblem {
    /// The target field (`declarationGoodsInfo.goodsCode`).
    pub field: String,
    /// 1-based column, when the column was found.
    pub column: Option<u32>,
    /// The cell's text (after translation), when there was one.
    pub value: Option<String>,
    pub rule: &'static str,
    pub zh: String,
    pub en: String,
}

/// One mapped field of a row, as the preview shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MappedCell {
    pub field: String,
    /// 1-based column, `None` when the column was not found.
    pub column: Option<u32>,
    /// The cell as read (trimmed); `None` when empty or the column is missing.
    pub raw: Option<String>,
    /// The value used: translated, defaulted, normalised; `None` when empty or refused.
    pub value: Option<String>,
    pub translated: bool,
    pub defaulted: bool,
}

/// A row read with a scheme.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MappedRow {
    /// The row's 1-based number in the sheet.
    pub row: u32,
    /// `declarationType` of the row, when mapped (or defaulted) and valid.
    pub declaration_type: Option<String>,
    /// Declaration fields by wire name, each a JSON string.
    pub declaration: Map<String, Value>,
    /// Goods-line fields by wire name, each a JSON string.
    pub goods: Map<String, Value>,
    pub cells: Vec<MappedCell>,
    pub problems: Vec<CellProblem>,
}

impl MappedRow {
    /// No mapped cell had a value (defaults do not count): a blank row to skip.
    pub fn is_blank(&self) -> bool {
        self.cells.iter().all(|c| c.raw.is_none())
    }

    /// The declaration fields of the row. Refused values are absent (see `problems`).
    pub fn declaration_data(&self) -> DeclarationData {
        serde_json::from_value(Value::Object(self.declaration.clone())).unwrap_or_default()
    }

    /// The goods line of the row. Refused values are absent (see `problems`).
    pub fn goods_line(&self) -> GoodsLine {
        serde_json::from_value(Value::Object(self.goods.clone())).unwrap_or_default()
    }

    /// The row's value of a target field (`trackingNumber`, `declarationGoodsInfo.goodsCode`).
    pub fn value(&self, field: &str) -> Option<&str> {
        if field == DECLARATION_TYPE {
            return self.declaration_type.as_deref();
        }
        let t = target(field)?;
        let map = match t.level {
            Level::Declaration => &self.declaration,
            Level::Goods => &self.goods,
        };
        map.get(&t.name).and_then(Value::as_str)
    }
}

/// A scheme prepared for many rows: its columns resolved against one header row, its
/// translations and defaults indexed.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    def: &'a SchemeDefinition,
    resolved: Resolved,
    /// (field, folded from) -> to
    translations: HashMap<(String, String), String>,
    defaults: HashMap<String, String>,
}

impl<'a> Reader<'a> {
    pub fn new(def: &'a SchemeDefinition, headers: &[String]) -> Self {
        let translations = def
            .translations
            .iter()
            .map(|t| {
                (
                    (t.field.clone(), translation_key(&t.from)),
                    t.to.trim().to_string(),
                )
            })
            .collect();
        let defaults = def
            .defaults
            .iter()
            .filter(|d| !d.value.trim().is_empty())
            .map(|d| (d.field.clone(), d.value.trim().to_string()))
            .collect();
        Self {
            def,
            resolved: resolve(def, headers),
            translations,
            defaults,
        }
    }

    pub fn resolved(&self) -> &Resolved {
        &self.resolved
    }

    /// Reads one data row (`cells` as text, 0-based columns; `row` its 1-based number).
    pub fn read(&self, row: u32, cells: &[Option<String>]) -> MappedRow {
        let mut out = MappedRow {
            row,
            ..Default::default()
        };
        let mut seen: Vec<&str> = Vec::new();
        for (c, col) in self.def.columns.iter().zip(&self.resolved.columns) {
            let raw = col
                .and_then(|i| cells.get(i))
                .and_then(|v| v.as_deref())
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| s.chars().take(MAX_CELL_CHARS).collect::<String>());
            let column = col.and_then(|i| u32::try_from(i + 1).ok());
            seen.push(c.field.as_str());
            self.put(&mut out, &c.field, column, raw);
        }
        // Defaults of fields no column maps.
        for d in &self.def.defaults {
            if !seen.contains(&d.field.as_str()) {
                seen.push(d.field.as_str());
                self.put(&mut out, &d.field, None, None);
            }
        }
        out
    }

    fn put(&self, out: &mut MappedRow, field: &str, column: Option<u32>, raw: Option<String>) {
        let Some(t) = target(field) else { return };
        let mut translated = false;
        let mut defaulted = false;
        let value = match &raw {
            Some(r) => match self
                .translations
                .get(&(field.to_string(), translation_key(r)))
            {
                Some(to) => {
                    translated = true;
                    Some(to.clone())
                }
                None => Some(r.clone()),
            },
            None => self.defaults.get(field).map(|d| {
                defaulted = true;
                d.clone()
            }),
        };
        let checked = match value {
            None => None,
            Some(v) => match check_value(t, &v) {
                Ok(v) => Some(v),
                Err((rule, zh, en)) => {
                    out.problems.push(CellProblem {
                        field: field.to_string(),
                        column,
                        value: Some(v),
                        rule,
                        zh,
                        en,
                    });
                    None
                }
            },
        };
        if let Some(v) = &checked {
            if t.kind == FieldKind::DeclarationType {
                out.declaration_type = Some(v.clone());
            } else {
                let map = match t.level {
                    Level::Declaration => &mut out.declaration,
                    Level::Goods => &mut out.goods,
                };
                map.insert(t.name.clone(), Value::String(v.clone()));
            }
        }
        out.cells.push(MappedCell {
            field: field.to_string(),
            column,
            raw,
            value: checked,
            translated,
            defaulted,
        });
    }
}

/// Reads every row of `rows` with `def` (a convenience over [`Reader`]).
pub fn apply(
    def: &SchemeDefinition,
    headers: &[String],
    rows: impl IntoIterator<Item = (u32, Vec<Option<String>>)>,
) -> Vec<MappedRow> {
    let reader = Reader::new(def, headers);
    rows.into_iter()
        .map(|(n, cells)| reader.read(n, &cells))
        .collect()
}

type Refusal = (&'static str, String, String);

/// A value checked for its field's kind, normalised (numbers without thousands separators,
/// date-times as RFC 3339, type codes upper-cased).
fn check_value(t: &Target, v: &str) -> Result<String, Refusal> {
    let field = &t.field;
    match t.kind {
        FieldKind::Text => Ok(v.to_string()),
        FieldKind::Number => {
            let plain: String = v.chars().filter(|c| *c != ',').collect();
            Decimal::from_str(&plain)
                .or_else(|_| Decimal::from_scientific(&plain))
                .map(|d| d.normalize().to_string())
                .map_err(|_| {
                    (
                        "number",
                        format!("{field}：“{v}”不是数字"),
                        format!("{field}: \"{v}\" is not a number"),
                    )
                })
        }
        FieldKind::DateTime => parse_date_time(v).ok_or_else(|| {
            (
                "date_time",
                format!("{field}：“{v}”不是日期时间（如 2026-03-02 14:30）"),
                format!("{field}: \"{v}\" is not a date-time (e.g. 2026-03-02 14:30)"),
            )
        }),
        FieldKind::DeclarationType => TypeCode::from_str(&v.to_ascii_uppercase())
            .map(|c| c.as_str().to_string())
            .map_err(|_| {
                (
                    "declaration_type",
                    format!("{field}：“{v}”不是申报类型（OB、OC、OD、IB、IC、ID）"),
                    format!("{field}: \"{v}\" is not a declaration type (OB, OC, OD, IB, IC, ID)"),
                )
            }),
    }
}

/// RFC 3339, or a local date-time / date in Asia/Shanghai, as RFC 3339.
fn parse_date_time(v: &str) -> Option<String> {
    if let Ok(t) = DateTime::parse_from_rfc3339(v) {
        return Some(t.to_rfc3339());
    }
    let local = [
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y/%m/%d %H:%M:%S",
        "%Y/%m/%d %H:%M",
    ]
    .iter()
    .find_map(|f| NaiveDateTime::parse_from_str(v, f).ok())
    .or_else(|| {
        ["%Y-%m-%d", "%Y/%m/%d", "%Y%m%d"].iter().find_map(|f| {
            chrono::NaiveDate::parse_from_str(v, f)
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })
    })?;
    Shanghai
        .from_local_datetime(&local)
        .single()
        .map(|t| t.fixed_offset().to_rfc3339())
}

/// The text of a numeric spreadsheet cell: whole numbers without a fraction (`6109100000`,
/// not `6109100000.0`), others in the shortest form that reads back the same.
pub fn number_cell_text(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 {
        format!("{}", f as i64)
    } else {
        format!("{f}")
    }
}

fn v(field: String, rule: &'static str, zh: String, en: String) -> Violation {
    Violation {
        field,
        rule,
        zh,
        en,
    }
}

fn too_long(out: &mut Vec<Violation>, field: String, value: &str, max: usize) {
    if value.chars().count() > max {
        out.push(v(
            field.clone(),
            "max_length",
            format!("{field}：最多 {max} 个字符"),
            format!("{field}: at most {max} characters"),
        ));
    }
}

fn known_target(out: &mut Vec<Violation>, path: String, field: &str) {
    if field.trim().is_empty() {
        out.push(v(
            path.clone(),
            "required",
            format!("{path}：请选择目标字段"),
            format!("{path}: the target field is required"),
        ));
    } else if target(field).is_none() {
        out.push(v(
            path.clone(),
            "unknown_field",
            format!("{path}：“{field}”不是报关单或商品项的字段"),
            format!("{path}: \"{field}\" is not a declaration or goods-line field"),
        ));
    }
}

/// Every rule a definition breaks, each naming its field as a JSON path (`columns[2].field`).
pub fn check_definition(def: &SchemeDefinition) -> Vec<Violation> {
    let mut out = Vec::new();
    if def.name.trim().is_empty() {
        out.push(v(
            "name".into(),
            "required",
            "name：请输入方案名称".into(),
            "name: is required".into(),
        ));
    }
    too_long(&mut out, "name".into(), &def.name, MAX_NAME);
    if let Some(t) = def.declaration_type.as_deref().filter(|t| !t.is_empty())
        && TypeCode::from_str(t).is_err()
    {
        out.push(v(
            "declarationType".into(),
            "declaration_type",
            format!("declarationType：“{t}”不是申报类型（OB、OC、OD、IB、IC、ID）"),
            format!("declarationType: \"{t}\" is not a declaration type (OB, OC, OD, IB, IC, ID)"),
        ));
    }
    if !(1..=MAX_HEADER_ROW).contains(&def.header_row) {
        out.push(v(
            "headerRow".into(),
            "range",
            format!("headerRow：须在 1 到 {MAX_HEADER_ROW} 之间"),
            format!("headerRow: must be between 1 and {MAX_HEADER_ROW}"),
        ));
    }
    if def.columns.is_empty() {
        out.push(v(
            "columns".into(),
            "min_items",
            "columns：至少需要一列".into(),
            "columns: at least one column is required".into(),
        ));
    }
    for (list, len, max) in [
        ("columns", def.columns.len(), MAX_COLUMNS),
        ("translations", def.translations.len(), MAX_TRANSLATIONS),
        ("defaults", def.defaults.len(), MAX_DEFAULTS),
    ] {
        if len > max {
            out.push(v(
                list.into(),
                "max_items",
                format!("{list}：不能超过 {max} 项"),
                format!("{list}: must have at most {max} items"),
            ));
            return out;
        }
    }
    let mut fields: Vec<&str> = Vec::new();
    for (i, c) in def.columns.iter().enumerate() {
        let p = |f: &str| format!("columns[{i}].{f}");
        known_target(&mut out, p("field"), &c.field);
        if fields.contains(&c.field.as_str()) {
            out.push(v(
                p("field"),
                "duplicate",
                format!("{}：“{}”已映射过一次", p("field"), c.field),
                format!("{}: \"{}\" is mapped twice", p("field"), c.field),
            ));
        }
        fields.push(&c.field);
        let has_header = c.header.as_deref().is_some_and(|h| !h.trim().is_empty());
        let has_alias = c.aliases.iter().any(|a| !a.trim().is_empty());
        if !has_header && !has_alias && c.position.is_none() {
            out.push(v(
                p("header"),
                "required",
                format!("{}：请填写表头、别名或列号", p("header")),
                format!("{}: give a header, an alias or a position", p("header")),
            ));
        }
        if let Some(h) = &c.header {
            too_long(&mut out, p("header"), h, MAX_TEXT);
        }
        if c.aliases.len() > MAX_ALIASES {
            out.push(v(
                p("aliases"),
                "max_items",
                format!("{}：不能超过 {MAX_ALIASES} 个", p("aliases")),
                format!("{}: must have at most {MAX_ALIASES} items", p("aliases")),
            ));
        }
        for (j, a) in c.aliases.iter().enumerate() {
            too_long(&mut out, format!("columns[{i}].aliases[{j}]"), a, MAX_TEXT);
        }
        if c.position.is_some_and(|p| !(1..=MAX_POSITION).contains(&p)) {
            out.push(v(
                p("position"),
                "range",
                format!("{}：须在 1 到 {MAX_POSITION} 之间", p("position")),
                format!("{}: must be between 1 and {MAX_POSITION}", p("position")),
            ));
        }
    }
    let mut pairs: Vec<(&str, String)> = Vec::new();
    for (i, t) in def.translations.iter().enumerate() {
        let p = |f: &str| format!("translations[{i}].{f}");
        known_target(&mut out, p("field"), &t.field);
        if t.from.trim().is_empty() {
            out.push(v(
                p("from"),
                "required",
                format!("{}：请输入原值", p("from")),
                format!("{}: is required", p("from")),
            ));
        }
        too_long(&mut out, p("from"), &t.from, MAX_TEXT);
        too_long(&mut out, p("to"), &t.to, MAX_TEXT);
        let key = (t.field.as_str(), translation_key(&t.from));
        if pairs.contains(&key) {
            out.push(v(
                p("from"),
                "duplicate",
                format!("{}：同一字段的“{}”已有转换", p("from"), t.from),
                format!(
                    "{}: \"{}\" is translated twice for this field",
                    p("from"),
                    t.from
                ),
            ));
        }
        pairs.push(key);
    }
    let mut defaulted: Vec<&str> = Vec::new();
    for (i, d) in def.defaults.iter().enumerate() {
        let p = |f: &str| format!("defaults[{i}].{f}");
        known_target(&mut out, p("field"), &d.field);
        if defaulted.contains(&d.field.as_str()) {
            out.push(v(
                p("field"),
                "duplicate",
                format!("{}：“{}”已有默认值", p("field"), d.field),
                format!("{}: \"{}\" has a default already", p("field"), d.field),
            ));
        }
        defaulted.push(&d.field);
        too_long(&mut out, p("value"), &d.value, MAX_TEXT);
        if let Some(t) = target(&d.field)
            && !d.value.trim().is_empty()
            && let Err((rule, zh, en)) = check_value(t, d.value.trim())
        {
            out.push(v(p("value"), rule, zh, en));
        }
    }
    out
}

#[cfg(test)]
mod tests;
