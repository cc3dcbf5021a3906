//! The optional language model: an OpenAI-compatible chat-completions endpoint
//! (`CLEARWAY_LLM_URL`, `CLEARWAY_LLM_MODEL`, `CLEARWAY_LLM_KEY`) asked for the declaration
//! as JSON under a JSON schema (`response_format: json_schema`). Its proposals are checked
//! like the extractor's values (reference tables, HS 2022 subheadings, USCC check character)
//! and only fill what the built-in extractor did not find, marked with source `LLM`.
//! Unset, nothing is asked: the feature works on the built-in extractor alone.

use std::collections::BTreeMap;
use std::time::Duration;

use events::ai_draft::Proposal;
use serde_json::{Map, Value, json};

use super::extract::values::{country, currency, unit};
use super::extract::{Context, Extraction};
use super::read::Document;
use crate::rules::uscc;

/// Confidence given to a checked model proposal: below any document-read value.
pub const LLM_CONFIDENCE: f64 = 0.6;
/// Characters of document text sent.
const MAX_PROMPT_CHARS: usize = 30_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LlmConfig {
    pub url: String,
    pub model: String,
    pub key: Option<String>,
    pub timeout: Duration,
}

impl LlmConfig {
    /// From the environment: both the URL and the model must be set.
    pub fn from_env() -> Option<Self> {
        let get = |k: &str| {
            std::env::var(k)
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        Some(Self {
            url: get("CLEARWAY_LLM_URL")?,
            model: get("CLEARWAY_LLM_MODEL")?,
            key: get("CLEARWAY_LLM_KEY"),
            timeout: Duration::from_secs(60),
        })
    }

    fn endpoint(&self) -> String {
        let base = self.url.trim_end_matches('/');
        if base.ends_with("/chat/completions") {
            base.to_string()
        } else if base.ends_with("/v1") {
            format!("{base}/chat/completions")
        } else {
            format!("{base}/v1/chat/completions")
        }
    }
}

/// Header fields asked for, with their JSON type.
const FIELDS: &[(&str, &str)] = &[
    ("trackingNumber", "string"),
    ("contractNo", "string"),
    ("billNo", "string"),
    ("voyageNo", "string"),
    ("consigneeCompanyCn", "string"),
    ("consigneeCompanyEn", "string"),
    ("consigneeScc", "string"),
    ("consignorCompanyEn", "string"),
    ("currencyCode", "string"),
    ("tradeCountryCode", "string"),
    ("grossWeight", "number"),
    ("netWeight", "number"),
    ("packageQuantity", "number"),
];

const GOODS: &[(&str, &str)] = &[
    ("goodsName", "string"),
    ("goodsCode", "string"),
    ("goodsQuantity", "number"),
    ("goodsUnit", "string"),
    ("unitPrice", "number"),
    ("totalPrice", "number"),
    ("currency", "string"),
    ("originCountry", "string"),
];

fn object(fields: &[(&str, &str)]) -> Value {
    let props: Map<String, Value> = fields
        .iter()
        .map(|(n, t)| ((*n).to_string(), json!({"type": [t, "null"]})))
        .collect();
    let required: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// The JSON schema of the answer.
pub fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "fields": object(FIELDS),
            "goods": {"type": "array", "items": object(GOODS)}
        },
        "required": ["fields", "goods"],
        "additionalProperties": false
    })
}

const INSTRUCTIONS: &str = "You read shipping documents (commercial invoice, packing list, air waybill) \
for a Chinese customs declaration. Answer only values the documents state; null when absent. \
Currencies as ISO 4217 codes, countries as ISO 3166 alpha-3 codes, units as codes of the Chinese \
customs unit table (007 piece, 035 kilogram, 011 item ...), weights in kilograms, HS codes as digits.";

/// The request body sent to the endpoint.
pub fn request(cfg: &LlmConfig, documents: &[Document]) -> Value {
    let mut text = String::new();
    for d in documents {
        text.push_str(&format!("=== {} ===\n", d.name));
        for l in &d.lines {
            text.push_str(&l.text());
            text.push('\n');
        }
    }
    let text: String = text.chars().take(MAX_PROMPT_CHARS).collect();
    json!({
        "model": cfg.model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": INSTRUCTIONS},
            {"role": "user", "content": text}
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "declaration", "strict": true, "schema": schema()}
        }
    })
}

/// Asks the endpoint; answers its JSON (`{fields, goods}`) or why not.
pub async fn ask(cfg: &LlmConfig, documents: &[Document]) -> Result<Value, String> {
    let client = reqwest::Client::builder()
        .timeout(cfg.timeout)
        .build()
        .map_err(|e| e.to_string())?;
    let mut req = client.post(cfg.endpoint()).json(&request(cfg, documents));
    if let Some(key) = &cfg.key {
        req = req.bearer_auth(key);
    }
    let response = req
        .send()
        .await
        .map_err(|e| format!("the model did not answer: {e}"))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("the model answered HTTP {status}"));
    }
    let body: Value = response
        .json()
        .await
        .map_err(|e| format!("the model's answer is not JSON: {e}"))?;
    let content = body["choices"][0]["message"]["content"]
        .as_str()
        .ok_or("the model's answer has no message content")?;
    serde_json::from_str(content).map_err(|e| format!("the model's content is not JSON: {e}"))
}

/// A model value checked like a document value: `Ok(None)` for null, `Err` for a refusal.
fn check(name: &str, v: &Value, ctx: &Context) -> Result<Option<Value>, String> {
    let on = ctx.on;
    let r = ctx.reference;
    let s = match v {
        Value::Null => return Ok(None),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => {
            return match n.as_f64() {
                Some(f) if f >= 0.0 && f.is_finite() => Ok(Some(v.clone())),
                _ => Err("must be a number of at least 0".into()),
            };
        }
        _ => return Err("must be a string or a number".into()),
    };
    let numeric = FIELDS
        .iter()
        .chain(GOODS)
        .any(|(n, t)| *n == name && *t == "number");
    if numeric {
        return Err("must be a number".into());
    }
    let known = |ok: Option<String>, what: &str| {
        ok.map(|c| Some(Value::String(c)))
            .ok_or(format!("{s} is not a known {what}"))
    };
    match name {
        "currencyCode" | "currency" => known(
            currency(&s, r, on).filter(|c| r.exists("currencies", c, on)),
            "currency",
        ),
        "tradeCountryCode" | "originCountry" => known(country(&s, r, on), "country"),
        "goodsUnit" => known(unit(&s, r, on), "unit"),
        "consigneeScc" => uscc::check(&s.to_uppercase())
            .map(|()| Some(Value::String(s.to_uppercase())))
            .map_err(|_| format!("{s} fails the USCC check character")),
        "goodsCode" => {
            let digits: String = s.chars().filter(char::is_ascii_digit).collect();
            if (6..=10).contains(&digits.len()) && crate::hs::is_subheading(&digits[..6]) {
                Ok(Some(Value::String(digits)))
            } else {
                Err(format!("{s} is not an HS 2022 subheading"))
            }
        }
        _ => Ok(Some(Value::String(s.chars().take(200).collect()))),
    }
}

fn llm(value: Value) -> Proposal {
    Proposal {
        value,
        source: "LLM".into(),
        location: String::new(),
        confidence: LLM_CONFIDENCE,
    }
}

/// Adds the model's checked proposals where the extractor has none; refusals become warnings.
pub fn merge(x: &mut Extraction, answer: &Value, ctx: &Context) {
    let take = |target: &mut BTreeMap<String, Proposal>,
                path: String,
                name: &str,
                v: &Value,
                warnings: &mut Vec<String>| {
        if target.contains_key(name) {
            return;
        }
        match check(name, v, ctx) {
            Ok(Some(value)) => {
                target.insert(name.to_string(), llm(value));
            }
            Ok(None) => {}
            Err(why) => warnings.push(format!("{path}: the model's proposal was refused: {why}")),
        }
    };
    let mut warnings = Vec::new();
    if let Some(fields) = answer["fields"].as_object() {
        for (name, _) in FIELDS {
            if let Some(v) = fields.get(*name) {
                take(&mut x.fields, (*name).to_string(), name, v, &mut warnings);
            }
        }
    }
    if let Some(goods) = answer["goods"].as_array() {
        for (i, line) in goods
            .iter()
            .enumerate()
            .take(crate::declaration::shape::MAX_GOODS_LINES)
        {
            if x.goods.len() <= i {
                x.goods.push(BTreeMap::new());
            }
            for (name, _) in GOODS {
                if let Some(v) = line.get(*name) {
                    let path = format!("declarationGoodsInfo[{i}].{name}");
                    take(&mut x.goods[i], path, name, v, &mut warnings);
                }
            }
        }
        x.goods.retain(|g| !g.is_empty());
    }
    x.warnings.extend(warnings);
}
