//! The customer's product library as the upload reads it: a goods line without an HS code
//! takes the code of the library product whose description matches the line's goods name,
//! exactly (after trimming) first, then normalised (full-width forms folded, case, spaces
//! and punctuation ignored). Chinese and English descriptions both count; when two products
//! share a description, the most recently changed one wins.

use std::collections::HashMap;

use uuid::Uuid;

/// How a goods name matched a library description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    Exact,
    Normalised,
}

/// Descriptions to HS codes.
#[derive(Debug, Clone, Default)]
pub struct Library {
    exact: HashMap<String, String>,
    normalised: HashMap<String, String>,
}

/// A description as compared loosely: full-width ASCII folded, lower case, letters and
/// digits only (Chinese characters are letters).
pub fn normalise(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

impl Library {
    /// From `(description, hs_code)` pairs, the preferred first.
    pub fn new<I, S>(entries: I) -> Self
    where
        I: IntoIterator<Item = (S, S)>,
        S: AsRef<str>,
    {
        let mut lib = Self::default();
        for (desc, hs) in entries {
            let (desc, hs) = (desc.as_ref().trim(), hs.as_ref().trim());
            if desc.is_empty() || hs.is_empty() {
                continue;
            }
            lib.exact
                .entry(desc.to_string())
                .or_insert_with(|| hs.to_string());
            let key = normalise(desc);
            if !key.is_empty() {
                lib.normalised.entry(key).or_insert_with(|| hs.to_string());
            }
        }
        lib
    }

    pub fn is_empty(&self) -> bool {
        self.exact.is_empty()
    }

    /// The HS code of a goods name, and how it matched.
    pub fn lookup(&self, goods_name: &str) -> Option<(&str, Match)> {
        let name = goods_name.trim();
        if let Some(hs) = self.exact.get(name) {
            return Some((hs, Match::Exact));
        }
        let key = normalise(name);
        if key.is_empty() {
            return None;
        }
        self.normalised
            .get(&key)
            .map(|hs| (hs.as_str(), Match::Normalised))
    }

    /// The live products of a customer (from the read model `rm_products`).
    pub async fn load(pool: &sqlx::PgPool, customer_id: Uuid) -> Result<Self, sqlx::Error> {
        let rows: Vec<(String, Option<String>, String)> = sqlx::query_as(
            "SELECT description_cn, description_en, hs_code FROM rm_products
              WHERE customer_id = $1 AND NOT deleted
              ORDER BY update_time DESC, product_id",
        )
        .bind(customer_id)
        .fetch_all(pool)
        .await?;
        let mut pairs = Vec::with_capacity(rows.len() * 2);
        for (cn, en, hs) in &rows {
            pairs.push((cn.as_str(), hs.as_str()));
            if let Some(en) = en {
                pairs.push((en.as_str(), hs.as_str()));
            }
        }
        Ok(Self::new(pairs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_first_then_normalised() {
        let lib = Library::new([
            ("Cotton T-Shirt", "6109100000"),
            ("cotton t shirt", "6109909000"),
            ("笔记本电脑", "8471309000"),
        ]);
        assert_eq!(
            lib.lookup(" Cotton T-Shirt "),
            Some(("6109100000", Match::Exact))
        );
        assert_eq!(
            lib.lookup("cotton t shirt"),
            Some(("6109909000", Match::Exact))
        );
        // Normalised: both descriptions fold to "cottontshirt"; the first listed wins.
        assert_eq!(
            lib.lookup("COTTON  T‑SHIRT!"),
            Some(("6109100000", Match::Normalised))
        );
        assert_eq!(
            lib.lookup("笔记本 电脑"),
            Some(("8471309000", Match::Normalised))
        );
        assert_eq!(
            lib.lookup("ＣＯＴＴＯＮ Ｔ－ＳＨＩＲＴ").map(|m| m.1),
            Some(Match::Normalised)
        );
        assert_eq!(lib.lookup("wool sweater"), None);
        assert_eq!(lib.lookup("  "), None);
    }

    #[test]
    fn the_preferred_entry_wins_a_shared_description() {
        let lib = Library::new([("laptop", "8471309000"), ("laptop", "8471414000")]);
        assert_eq!(lib.lookup("laptop"), Some(("8471309000", Match::Exact)));
    }
}
