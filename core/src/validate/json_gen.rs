//! Test inputs shared by the parsers' equivalence properties (`direct`, `presized`): texts
//! spelled from tokens, and a valid text in its compact and pretty forms.

use serde_json::Value;

/// A text spelled from `set` by the indices in `tokens` (modulo the set's length).
pub(super) fn token_soup(tokens: &[u8], set: &[&str]) -> String {
    tokens
        .iter()
        .map(|&t| set[usize::from(t) % set.len()])
        .collect()
}

/// `text` and its pretty-printed form, or `None` when `text` is not valid JSON (a
/// generator bug: the properties fail on it).
pub(super) fn compact_and_pretty(text: String) -> Option<[String; 2]> {
    let pretty = serde_json::from_str::<Value>(&text)
        .and_then(|v| serde_json::to_string_pretty(&v))
        .ok()?;
    Some([text, pretty])
}
