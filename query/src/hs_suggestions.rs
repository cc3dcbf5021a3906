//! `GET /api/v1/hs-suggestions?q=&customerId=&limit=`: HS codes for a goods description, for
//! the AI review screen, the assisted wizard and the declaration form's goods lines.
//!
//! Three sources, in this order: the customer's own product library (`rm_products`: the same
//! description first, then one containing the text or contained in it, then similar words),
//! the Chinese tariff descriptions when a user has imported them (`rm_hs_tariff_zh`, table
//! `hs-tariff-zh`), and the HS 2022 subheadings (`hs_nomenclature`, loaded by
//! `clearway seed`). The first two are searched through PostgreSQL full-text indexes (GIN on
//! a `tsvector`): English words through the `english` configuration, Chinese words segmented
//! by jieba (crate `textsearch`) through `simple`. The subheadings are ranked by the
//! in-memory index of China's 2026 tariff (`textsearch::hs`: every ten-digit line read with
//! its eight-digit, subheading, heading and chapter text, Chinese and English), each with
//! the tariff line that matched best (`tariffLine`, ten digits) and the words that matched
//! (`matched`). Digits search code prefixes instead.
//!
//! Customers get their own company's products (naming another company's `customerId` is
//! 404, as anything not theirs); staff holding `declarations:management` name any customer,
//! or none (then no product library). Read-only.

use std::collections::{HashMap, HashSet};

use api::{Actor, ApiError, ApiResult, Guards, Query, Text, ok};
use axum::extract::State;
use serde::{Deserialize, Serialize};
use sqlx::{FromRow, PgPool};
use textsearch::QueryTerms;
use textsearch::hs::TariffLine;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::{OpenApiRouter, UtoipaMethodRouterExt};
use utoipa_axum::routes;
use uuid::Uuid;

use crate::QueryState;

const STAFF_PERMISSION: &str = "declarations:management";
/// The longest `q` (characters).
pub const MAX_Q: usize = 100;
/// The largest `limit`.
pub const MAX_LIMIT: i64 = 20;
const DEFAULT_LIMIT: i64 = 10;

pub fn routes(g: &Guards) -> OpenApiRouter<QueryState> {
    // Build the tariff index in the background (a few seconds), not on the first request.
    static WARM: std::sync::Once = std::sync::Once::new();
    WARM.call_once(|| {
        std::thread::spawn(|| {
            textsearch::hs::index();
        });
    });
    let guard = g.customer_or_permission(&[STAFF_PERMISSION]);
    OpenApiRouter::new().routes(routes!(hs_suggestions).map(|r| r.route_layer(guard)))
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct HsSuggestionParams {
    /// The goods description (Chinese or English, at most 100 characters), or 2-10 digits of
    /// an HS code to complete.
    #[param(required = true, value_type = String, min_length = 1, max_length = 100)]
    pub q: Option<String>,
    /// Whose product library to search: a customer's own (the default for a customer; another
    /// company's is 404); staff may name any customer, or none (no product library).
    #[param(value_type = Option<Uuid>)]
    pub customer_id: Option<String>,
    /// At most this many suggestions (default 10, at most 20).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 20)]
    pub limit: Option<String>,
}

/// Where a suggestion comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum HsSource {
    /// One of the customer's products (its 10-digit code).
    ProductLibrary,
    /// An imported Chinese tariff line (`hs-tariff-zh`).
    TariffZh,
    /// An HS 2022 subheading (6 digits).
    Nomenclature,
}

/// One level of the code's place in the nomenclature.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct HsPathEntry {
    /// 2 (chapter), 4 (heading) or 6 digits (subheading).
    pub code: String,
    /// The HS 2022 description (English).
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HsSuggestion {
    /// The HS code: 10 digits from a product or a tariff line, 6 from the nomenclature.
    pub code: String,
    /// The product's description (Chinese / English), the tariff line's or the subheading's.
    pub description: String,
    pub source: HsSource,
    /// How well the text matched, 0..1, comparable within one source: 1 is the same
    /// description (or a code prefix), 0.9 a product description containing the text or
    /// contained in it, 0.5-0.8 a product sharing words with it (by its full-text rank);
    /// imported tariff lines: the full-text rank r as r / (r + 1); subheadings: the tariff
    /// index's score s as s / (s + 10).
    pub score: f64,
    /// Chapter > heading > subheading (those the nomenclature has).
    pub path: Vec<HsPathEntry>,
    /// Legal units of measurement (unit codes), when the product or the tariff line names
    /// them; the nomenclature has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_units: Option<Vec<String>>,
    /// The declaration elements to fill (申报要素), when the product or the tariff line has
    /// them; the nomenclature has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elements: Option<String>,
    /// The product suggested (source `PRODUCT_LIBRARY`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product_id: Option<Uuid>,
    /// For a subheading suggested from a description (source `NOMENCLATURE`): the line of
    /// China's 2026 tariff under it that matched the description best, the ten-digit code
    /// to declare, with its official name and parents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tariff_line: Option<TariffLineRef>,
    /// Why it was suggested: the words of the description that the tariff line's text (its
    /// own name or its parents') contains.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<Vec<String>>,
}

/// A line of China's 2026 tariff (`seeds/cn_tariff_2026.csv`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffLineRef {
    /// Ten digits.
    pub code: String,
    /// The tariff edition the line is of.
    pub edition: String,
    /// The official Chinese goods name.
    pub name_zh: String,
    /// China Customs' English statistical name of its eight digits, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_en: Option<String>,
    /// The first legal unit as the tariff names it (千克, 件, 台, ...), when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_unit: Option<String>,
    /// 监管条件 (supervision conditions) letters, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub supervision_conditions: Option<String>,
    /// 检验检疫类别 (inspection category) letters, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inspection_category: Option<String>,
    /// 申报要素 (declaration elements) as the tariff lists them, `n:name;...`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declaration_elements: Option<String>,
    /// Its parents, nearest first: eight digits (statistical names), subheading, heading,
    /// chapter.
    pub parents: Vec<TariffParent>,
}

/// A parent of a tariff line.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TariffParent {
    pub code: String,
    /// English: China's statistical name (eight digits) or the HS 2022 description.
    pub name_en: String,
    /// Chinese: the statistical name (eight digits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_zh: Option<String>,
}

/// HS code suggestions
///
/// For a goods description (Chinese or English): the customer's products of the same or a
/// similar description first, then imported Chinese tariff lines, then HS 2022 subheadings,
/// ranked by a full-text index; each with its chapter > heading > subheading path, legal
/// units and declaration elements where known. Digits complete a code instead.
#[utoipa::path(
    get, path = "/api/v1/hs-suggestions", operation_id = "hsSuggestions",
    tag = api::doc::MASTER_DATA, security(("bearer" = [])),
    params(HsSuggestionParams),
    responses(
        (status = 200, description = "Up to `limit` suggestions, best first.", body = Vec<HsSuggestion>),
        api::doc::ReadErrors,
    ),
)]
async fn hs_suggestions(
    State(state): State<QueryState>,
    actor: Actor,
    Query(params): Query<HsSuggestionParams>,
) -> ApiResult<Vec<HsSuggestion>> {
    let limit = match params.limit.as_deref().map(str::trim) {
        None | Some("") => DEFAULT_LIMIT,
        Some(l) => l
            .parse::<i64>()
            .ok()
            .filter(|l| (1..=MAX_LIMIT).contains(l))
            .ok_or_else(|| {
                ApiError::bad_field(
                    "limit",
                    format!("limit：须为 1 到 {MAX_LIMIT} 的整数"),
                    format!("limit: must be a whole number from 1 to {MAX_LIMIT}"),
                )
            })?,
    };
    let q = params.q.as_deref().map(str::trim).unwrap_or_default();
    if q.is_empty() {
        return Err(ApiError::bad_field(
            "q",
            "q：请输入商品描述或编码",
            "q: is required (a goods description or HS code digits)",
        ));
    }
    if q.chars().count() > MAX_Q {
        return Err(ApiError::bad_field(
            "q",
            format!("q：最多 {MAX_Q} 个字符"),
            format!("q: at most {MAX_Q} characters"),
        ));
    }
    let customer = scope(&state.pool, &actor, params.customer_id.as_deref()).await?;
    Ok(ok(suggest(&state.pool, q, customer, limit).await?))
}

/// The customer whose product library is searched.
async fn scope(
    pool: &PgPool,
    actor: &Actor,
    customer_id: Option<&str>,
) -> Result<Option<Uuid>, ApiError> {
    let named = customer_id.map(str::trim).filter(|s| !s.is_empty());
    let not_found = || {
        ApiError::NotFound(Text::new(
            "customerId：客户不存在",
            "customerId: no such customer",
        ))
    };
    if actor.is_customer() {
        let own = actor.customer_id.ok_or_else(ApiError::forbidden)?;
        return match named {
            None => Ok(Some(own)),
            Some(s) if Uuid::parse_str(s).ok() == Some(own) => Ok(Some(own)),
            // Another company's id, or no id at all: not theirs to see.
            Some(_) => Err(not_found()),
        };
    }
    let Some(named) = named else {
        return Ok(None);
    };
    let id = Uuid::parse_str(named).map_err(|_| {
        ApiError::bad_field(
            "customerId",
            "customerId：不是有效的客户编号",
            "customerId: is not a customer id",
        )
    })?;
    let exists: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM rm_customers WHERE customer_id = $1)")
            .bind(id)
            .fetch_one(pool)
            .await?;
    if exists {
        Ok(Some(id))
    } else {
        Err(not_found())
    }
}

#[derive(FromRow)]
struct ProductHit {
    product_id: Uuid,
    hs_code: String,
    description_cn: String,
    description_en: Option<String>,
    legal_unit_one: Option<String>,
    legal_unit_two: Option<String>,
    declaration_elements: Option<String>,
    score: f64,
}

#[derive(FromRow)]
struct TariffHit {
    code: String,
    description: String,
    legal_unit_one: Option<String>,
    legal_unit_two: Option<String>,
    elements: Option<String>,
    score: f64,
}

#[derive(FromRow)]
struct NomenclatureHit {
    code: String,
    description: String,
    score: f64,
    /// The best tariff line under the subheading, with the words matched.
    #[sqlx(skip)]
    line: Option<(&'static TariffLine, Vec<String>)>,
}

fn none(s: &str) -> Option<String> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.to_string())
}

fn tariff_line_ref(line: &TariffLine) -> TariffLineRef {
    let parents = textsearch::hs::index().parents(&line.code);
    TariffLineRef {
        code: line.code.clone(),
        edition: textsearch::hs::EDITION.to_string(),
        name_zh: line.name_zh.clone(),
        name_en: parents
            .first()
            .filter(|p| p.code.len() == 8)
            .map(|p| p.name_en.clone()),
        legal_unit: none(&line.legal_unit),
        supervision_conditions: none(&line.supervision_conditions),
        inspection_category: none(&line.inspection_category),
        declaration_elements: none(&line.declaration_elements),
        parents: parents
            .into_iter()
            .map(|p| TariffParent {
                code: p.code,
                name_en: p.name_en,
                name_zh: none(&p.name_zh),
            })
            .collect(),
    }
}

const PRODUCT_COLUMNS: &str = "product_id, hs_code, description_cn, description_en,
    legal_unit_one, legal_unit_two, declaration_elements";

/// The version of `hs-tariff-zh` in force today (Shanghai time).
const TARIFF_IN_FORCE: &str = "(SELECT max(effective_from) FROM rm_hs_tariff_zh
    WHERE effective_from <= (now() AT TIME ZONE 'Asia/Shanghai')::date)";

/// The suggestions for `q` (trimmed, non-empty): the customer's products, then tariff lines,
/// then subheadings, at most `limit` in all.
pub async fn suggest(
    pool: &PgPool,
    q: &str,
    customer: Option<Uuid>,
    limit: i64,
) -> Result<Vec<HsSuggestion>, sqlx::Error> {
    let digits = (2..=10).contains(&q.len()) && q.bytes().all(|b| b.is_ascii_digit());
    let (products, tariff, nomenclature) = if digits {
        by_code(pool, q, customer, limit).await?
    } else {
        by_text(pool, q, customer, limit).await?
    };

    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for p in products {
        // One suggestion per code: the best product for it.
        if !seen.insert(p.hs_code.clone()) {
            continue;
        }
        let description = match p.description_en.as_deref().filter(|e| !e.is_empty()) {
            Some(en) => format!("{} / {en}", p.description_cn),
            None => p.description_cn,
        };
        out.push(HsSuggestion {
            code: p.hs_code,
            description,
            source: HsSource::ProductLibrary,
            score: p.score,
            path: Vec::new(),
            legal_units: units(p.legal_unit_one, p.legal_unit_two),
            elements: p.declaration_elements,
            product_id: Some(p.product_id),
            tariff_line: None,
            matched: None,
        });
    }
    for t in tariff {
        out.push(HsSuggestion {
            code: t.code,
            description: t.description,
            source: HsSource::TariffZh,
            score: t.score,
            path: Vec::new(),
            legal_units: units(t.legal_unit_one, t.legal_unit_two),
            elements: t.elements,
            product_id: None,
            tariff_line: None,
            matched: None,
        });
    }
    for n in nomenclature {
        out.push(HsSuggestion {
            code: n.code,
            description: n.description,
            source: HsSource::Nomenclature,
            score: n.score,
            path: Vec::new(),
            legal_units: None,
            elements: None,
            product_id: None,
            tariff_line: n.line.as_ref().map(|l| tariff_line_ref(l.0)),
            matched: n.line.map(|l| l.1),
        });
    }
    out.truncate(usize::try_from(limit).unwrap_or(0));
    for s in &mut out {
        s.score = (s.score.clamp(0.0, 1.0) * 1000.0).round() / 1000.0;
    }
    fill_paths(pool, &mut out).await?;
    Ok(out)
}

fn units(one: Option<String>, two: Option<String>) -> Option<Vec<String>> {
    let units: Vec<String> = one
        .into_iter()
        .chain(two)
        .filter(|u| !u.is_empty())
        .collect();
    (!units.is_empty()).then_some(units)
}

type Hits = (Vec<ProductHit>, Vec<TariffHit>, Vec<NomenclatureHit>);

/// Digits: codes starting with them (a subheading also when the digits go past its six).
async fn by_code(
    pool: &PgPool,
    digits: &str,
    customer: Option<Uuid>,
    limit: i64,
) -> Result<Hits, sqlx::Error> {
    let prefix = format!("{digits}%");
    let products = match customer {
        Some(customer) => {
            sqlx::query_as(&format!(
                "SELECT {PRODUCT_COLUMNS}, 1.0::float8 AS score FROM rm_products
                  WHERE customer_id = $1 AND NOT deleted AND hs_code LIKE $2
                  ORDER BY hs_code, update_time DESC LIMIT $3"
            ))
            .bind(customer)
            .bind(&prefix)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }
        None => Vec::new(),
    };
    let tariff = sqlx::query_as(&format!(
        "SELECT code, description, legal_unit_one, legal_unit_two, elements, 1.0::float8 AS score
           FROM rm_hs_tariff_zh
          WHERE effective_from = {TARIFF_IN_FORCE} AND code LIKE $1
          ORDER BY code LIMIT $2"
    ))
    .bind(&prefix)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    let nomenclature = sqlx::query_as(
        "SELECT code, description, 1.0::float8 AS score FROM hs_nomenclature
          WHERE level = 6 AND (code LIKE $1 OR $2 LIKE code || '%')
          ORDER BY code LIMIT $3",
    )
    .bind(&prefix)
    .bind(digits)
    .bind(limit)
    .fetch_all(pool)
    .await?;
    Ok((products, tariff, nomenclature))
}

/// Text: the full-text indexes.
async fn by_text(
    pool: &PgPool,
    q: &str,
    customer: Option<Uuid>,
    limit: i64,
) -> Result<Hits, sqlx::Error> {
    let terms = QueryTerms::parse(q);
    let own_english = terms.english_query();
    let chinese = terms.chinese_query();
    let lower = q.to_lowercase();

    // The customer's products: the same description, one containing the text or contained
    // in it, then words in common (the query's own words, not the glossary's: a product is
    // named in the customer's words).
    let products = match customer {
        Some(customer) => {
            sqlx::query_as(&format!(
                "WITH q AS (SELECT CASE
                     WHEN $3::text IS NULL AND $4::text IS NULL THEN NULL
                     WHEN $3::text IS NULL THEN to_tsquery('simple', $4)
                     WHEN $4::text IS NULL THEN to_tsquery('english', $3)
                     ELSE to_tsquery('english', $3) || to_tsquery('simple', $4) END AS q),
                 p AS (SELECT *, lower(description_cn) AS cn,
                              lower(coalesce(description_en, '')) AS en
                         FROM rm_products WHERE customer_id = $1 AND NOT deleted)
                 SELECT {PRODUCT_COLUMNS},
                        (CASE WHEN cn = $2 OR en = $2 THEN 1.0
                              WHEN strpos(cn, $2) > 0 OR strpos($2, cn) > 0
                                   OR (en <> '' AND (strpos(en, $2) > 0 OR strpos($2, en) > 0))
                                THEN 0.9
                              ELSE 0.5 + 0.3 * ts_rank(search, q.q, 1)
                                              / (ts_rank(search, q.q, 1) + 0.1) END)::float8
                          AS score
                   FROM p, q
                  WHERE cn = $2 OR en = $2 OR strpos(cn, $2) > 0 OR strpos($2, cn) > 0
                        OR (en <> '' AND (strpos(en, $2) > 0 OR strpos($2, en) > 0))
                        OR search @@ q.q
                  ORDER BY score DESC, update_time DESC LIMIT $5"
            ))
            .bind(customer)
            .bind(&lower)
            .bind(own_english.as_deref())
            .bind(chinese.as_deref())
            .bind(limit)
            .fetch_all(pool)
            .await?
        }
        None => Vec::new(),
    };

    let tariff = match chinese.as_deref() {
        Some(chinese) => {
            sqlx::query_as(&format!(
                "SELECT code, description, legal_unit_one, legal_unit_two, elements,
                        ts_rank(search, q, 1 | 32)::float8 AS score
                   FROM rm_hs_tariff_zh, to_tsquery('simple', $1) AS q
                  WHERE effective_from = {TARIFF_IN_FORCE} AND search @@ q
                  ORDER BY score DESC, code LIMIT $2"
            ))
            .bind(chinese)
            .bind(limit)
            .fetch_all(pool)
            .await?
        }
        None => Vec::new(),
    };

    let nomenclature = tariff_index_hits(pool, q, limit).await?;
    Ok((products, tariff, nomenclature))
}

/// The subheadings the in-memory index of the 2026 tariff (`textsearch::hs`) ranks first
/// for `q`, each with its best tariff line; only those the `hs_nomenclature` table holds
/// (their description comes from it). The score is the index's s as s / (s + 10).
async fn tariff_index_hits(
    pool: &PgPool,
    q: &str,
    limit: i64,
) -> Result<Vec<NomenclatureHit>, sqlx::Error> {
    let q = q.to_string();
    let n = usize::try_from(limit).unwrap_or(0);
    let found = tokio::task::spawn_blocking(move || textsearch::hs::index().suggest(&q, n))
        .await
        .unwrap_or_default();
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let codes: Vec<String> = found.iter().map(|s| s.subheading.clone()).collect();
    let rows: Vec<(String, String)> = sqlx::query_as(
        "SELECT code, description FROM hs_nomenclature WHERE level = 6 AND code = ANY($1)",
    )
    .bind(&codes)
    .fetch_all(pool)
    .await?;
    let descriptions: HashMap<String, String> = rows.into_iter().collect();
    Ok(found
        .into_iter()
        .filter_map(|s| {
            let description = descriptions.get(&s.subheading)?.clone();
            let score = f64::from(s.score);
            Some(NomenclatureHit {
                code: s.subheading,
                description,
                score: score / (score + 10.0),
                line: Some((s.line, s.matched)),
            })
        })
        .collect())
}

/// The nomenclature is English: it is searched with the query's English words and the
/// glossary's words for its terms (`words`: `to_tsquery` text), any of them; the rank weighs
/// a subheading's own words above its heading's and chapter's and divides by the length of
/// the text.
async fn nomenclature_hits(
    pool: &PgPool,
    words: &str,
    limit: i64,
) -> Result<Vec<NomenclatureHit>, sqlx::Error> {
    sqlx::query_as(
        "SELECT code, description, ts_rank(search, q, 1 | 32)::float8 AS score
           FROM hs_nomenclature, to_tsquery('english', $1) AS q
          WHERE level = 6 AND search @@ q
          ORDER BY ts_rank(search, q, 1) DESC, code LIMIT $2",
    )
    .bind(words)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The nomenclature's subheadings for `q`, best first, as the endpoint ranks them; without
/// the glossary when `glossary` is false (the benchmark's baseline).
pub async fn nomenclature_codes(
    pool: &PgPool,
    q: &str,
    limit: i64,
    glossary: bool,
) -> Result<Vec<String>, sqlx::Error> {
    let terms = QueryTerms::parse(q);
    let words = if glossary {
        terms.expanded_query()
    } else {
        terms.english_query()
    };
    Ok(match words {
        Some(words) => nomenclature_hits(pool, &words, limit)
            .await?
            .into_iter()
            .map(|h| h.code)
            .collect(),
        None => Vec::new(),
    })
}

/// Each suggestion's chapter, heading and subheading, from the nomenclature.
async fn fill_paths(pool: &PgPool, out: &mut [HsSuggestion]) -> Result<(), sqlx::Error> {
    let mut prefixes: Vec<String> = Vec::new();
    for s in out.iter() {
        for n in [2, 4, 6] {
            if s.code.len() >= n {
                prefixes.push(s.code[..n].to_string());
            }
        }
    }
    prefixes.sort();
    prefixes.dedup();
    if prefixes.is_empty() {
        return Ok(());
    }
    let rows: Vec<(String, String)> =
        sqlx::query_as("SELECT code, description FROM hs_nomenclature WHERE code = ANY($1)")
            .bind(&prefixes)
            .fetch_all(pool)
            .await?;
    let by_code: HashMap<String, String> = rows.into_iter().collect();
    for s in out.iter_mut() {
        s.path = [2, 4, 6]
            .into_iter()
            .filter(|&n| s.code.len() >= n && s.code.is_char_boundary(n))
            .filter_map(|n| {
                let code = &s.code[..n];
                by_code.get(code).map(|d| HsPathEntry {
                    code: code.to_string(),
                    description: d.clone(),
                })
            })
            .collect();
    }
    Ok(())
}
