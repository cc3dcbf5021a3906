//! The caller's language (`Accept-Language`: Chinese by default, English on request), as the
//! request being served has it.

use axum::http::header::ACCEPT_LANGUAGE;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    /// The first supported language in an `Accept-Language` header, honouring q-values.
    pub fn from_header(value: &str) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for part in value.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = pieces
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|q| q.parse::<f32>().ok())
                })
                .unwrap_or(1.0);
            let lang = if tag.starts_with("en") {
                Lang::En
            } else if tag.starts_with("zh") {
                Lang::Zh
            } else {
                continue;
            };
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l).unwrap_or_default()
    }

    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

tokio::task_local! {
    static LANG: Lang;
}

/// The language of the request being served (Chinese outside a request).
pub fn current() -> Lang {
    LANG.try_with(|l| *l).unwrap_or_default()
}

/// Runs `f` with `lang` as the request's language ([`crate::context`] does, per request).
pub(crate) async fn scope<F: std::future::Future>(lang: Lang, f: F) -> F::Output {
    LANG.scope(lang, f).await
}

/// The language an `Accept-Language` header asks for (Chinese without one).
pub(crate) fn of_headers(headers: &axum::http::HeaderMap) -> Lang {
    headers
        .get(ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map(Lang::from_header)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_is_chosen_only_when_asked_for() {
        assert_eq!(Lang::from_header("en-US,en;q=0.9"), Lang::En);
        assert_eq!(Lang::from_header("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(Lang::from_header("fr"), Lang::Zh);
        assert_eq!(Lang::from_header("zh;q=0.5, en;q=0.9"), Lang::En);
    }
}
