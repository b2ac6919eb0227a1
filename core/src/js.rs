//! The JavaScript semantics the peer's messages depend on, over `serde_json::Value`.
//!
//! The peer builds messages with `JSON.stringify(v)` or with string concatenation
//! (`String(v)`), walks objects with `Object.keys` (array-index keys first, ascending, then
//! the rest in insertion order), formats numbers with `Number.prototype.toString`, and
//! tests values with `typeof`, truthiness and `Number.isInteger`. This module reproduces
//! each of those for JSON values, so the validator can render exactly what the peer does.

use std::fmt::Write as _;

use serde_json::Number;

use crate::json::{Json, JsonObject, Kind};

/// Own-property lookup by key on manifest objects (an object's keys are unique, so the
/// first equal key is the one a hashed lookup finds).
pub(crate) trait Field {
    /// The value type found.
    type Value;

    /// The value under `key`, when this is an object that has it.
    fn field(&self, key: &str) -> Option<&Self::Value>;

    /// Whether this is an object that has `key`.
    fn has_field(&self, key: &str) -> bool {
        self.field(key).is_some()
    }
}

impl<O: JsonObject> Field for O {
    type Value = O::Value;

    fn field(&self, key: &str) -> Option<&O::Value> {
        self.member(key)
    }
}

/// JavaScript `typeof` of a JSON value (`undefined` when absent).
pub(crate) fn type_of<J: Json>(v: Option<&J>) -> &'static str {
    match v.map(Json::kind) {
        None => "undefined",
        Some(Kind::Null | Kind::Array(_) | Kind::Object(_)) => "object",
        Some(Kind::Bool(_)) => "boolean",
        Some(Kind::Number(_)) => "number",
        Some(Kind::String(_)) => "string",
    }
}

/// The peer's `(got: null|array|<typeof>)` rendering.
pub(crate) fn kind_of<J: Json>(v: Option<&J>) -> &'static str {
    match v.map(Json::kind) {
        Some(Kind::Null) => "null",
        Some(Kind::Array(_)) => "array",
        _ => type_of(v),
    }
}

/// JavaScript truthiness of a JSON value.
pub(crate) fn truthy<J: Json>(v: Option<&J>) -> bool {
    match v.map(Json::kind) {
        None | Some(Kind::Null) => false,
        Some(Kind::Bool(b)) => b,
        Some(Kind::Number(n)) => as_f64(n) != 0.0,
        Some(Kind::String(s)) => !s.is_empty(),
        Some(Kind::Array(_) | Kind::Object(_)) => true,
    }
}

/// The number as JavaScript holds it (a double; `JSON.parse` rounds big integers).
#[allow(clippy::cast_precision_loss)] // Reason: JavaScript holds every JSON number as a double.
pub(crate) fn as_f64(n: &Number) -> f64 {
    if let Some(u) = n.as_u64() {
        u as f64
    } else if let Some(i) = n.as_i64() {
        i as f64
    } else {
        n.as_f64().unwrap_or(f64::NAN)
    }
}

/// The numeric value when `v` is a JSON number.
pub(crate) fn number<J: Json>(v: Option<&J>) -> Option<f64> {
    match v.map(Json::kind) {
        Some(Kind::Number(n)) => Some(as_f64(n)),
        _ => None,
    }
}

/// `Number.isInteger(v)`.
pub(crate) fn is_integer<J: Json>(v: Option<&J>) -> bool {
    number(v).is_some_and(|x| x.is_finite() && x.fract() == 0.0)
}

/// `Number.isSafeInteger(v)`.
pub(crate) fn is_safe_integer<J: Json>(v: Option<&J>) -> bool {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    number(v).is_some_and(|x| x.is_finite() && x.fract() == 0.0 && x.abs() <= MAX_SAFE)
}

/// The value when it is a string.
pub(crate) fn as_str<J: Json>(v: Option<&J>) -> Option<&str> {
    v.and_then(Json::as_str)
}

/// The value when it is a non-empty string (the peer's `typeof x === 'string' && x.length`).
pub(crate) fn non_empty_str<J: Json>(v: Option<&J>) -> Option<&str> {
    as_str(v).filter(|s| !s.is_empty())
}

/// The value when it is a plain object (not null, not an array).
pub(crate) fn as_object<J: Json>(v: Option<&J>) -> Option<&J::Object> {
    v.and_then(Json::as_object)
}

/// `Object.prototype.hasOwnProperty.call(v, key)` for an object-typed JSON value (arrays
/// own their indices and `length`).
pub(crate) fn has_own_property<J: Json>(v: &J, key: &str) -> bool {
    match v.kind() {
        Kind::Object(map) => map.member(key).is_some(),
        Kind::Array(items) => {
            key == "length" || array_index(key).is_some_and(|i| (i as usize) < items.len())
        }
        _ => false,
    }
}

/// JavaScript `Number.prototype.toString()` for a finite double.
pub(crate) fn number_to_string(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.to_owned();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    // Rust's `{:e}` prints the shortest round-tripping digits, as ECMAScript requires.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exponent.parse().unwrap_or(0);
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    // ECMAScript: value = digits × 10^(n − k).
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        let zeros = usize::try_from(n - k).unwrap_or(0);
        format!("{digits}{}", "0".repeat(zeros))
    } else if 0 < n && n <= 21 {
        let split = usize::try_from(n).unwrap_or(0);
        format!("{}.{}", &digits[..split], &digits[split..])
    } else if -6 < n && n <= 0 {
        let zeros = usize::try_from(-n).unwrap_or(0);
        format!("0.{}{digits}", "0".repeat(zeros))
    } else {
        let e = n - 1;
        let e_sign = if e >= 0 { "+" } else { "-" };
        if digits.len() == 1 {
            format!("{digits}e{e_sign}{}", e.abs())
        } else {
            format!("{}.{}e{e_sign}{}", &digits[..1], &digits[1..], e.abs())
        }
    };
    format!("{sign}{body}")
}

/// Whether `key` is an array index (`"0"` … `"4294967294"` in canonical form): such keys
/// come first, ascending, in JavaScript's own-property order.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || key.len() > 10 || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u64>()
        .ok()
        .filter(|&n| n < u64::from(u32::MAX))
        .and_then(|n| u32::try_from(n).ok())
}

/// `Object.keys(map)` order: array-index keys ascending, then the others in insertion
/// (document) order.
pub(crate) fn js_entries<O: JsonObject>(map: &O) -> Vec<(&str, &O::Value)> {
    let mut indexed: Vec<(u32, &str, &O::Value)> = Vec::new();
    let mut named: Vec<(&str, &O::Value)> = Vec::with_capacity(map.member_count());
    for (k, v) in map.members() {
        match array_index(k) {
            Some(i) => indexed.push((i, k, v)),
            None => named.push((k, v)),
        }
    }
    if indexed.is_empty() {
        return named;
    }
    indexed.sort_by_key(|(i, _, _)| *i);
    indexed
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(named)
        .collect()
}

/// The first `n` keys of `map` that pass `keep`, in `Object.keys` order, and how many
/// further keys pass it. Equal to filtering [`js_entries`] and splitting it at `n`, but
/// holds at most `2n` key references however large the map is: the `n` smallest
/// array-index keys seen so far and the first `n` other keys.
pub(crate) fn first_js_keys<O: JsonObject>(
    map: &O,
    n: usize,
    mut keep: impl FnMut(&str) -> bool,
) -> (Vec<&str>, usize) {
    let mut indexed: Vec<(u32, &str)> = Vec::new();
    let mut named: Vec<&str> = Vec::new();
    let mut total = 0usize;
    for (key, _) in map.members() {
        if !keep(key) {
            continue;
        }
        total += 1;
        match array_index(key) {
            Some(i) => {
                // Keys are unique, so indices are too: insert in order, drop the largest.
                let at = indexed.partition_point(|(j, _)| *j < i);
                if at < n {
                    indexed.insert(at, (i, key));
                    indexed.truncate(n);
                }
            }
            None if named.len() < n => named.push(key),
            None => {}
        }
    }
    let first: Vec<&str> = indexed
        .into_iter()
        .map(|(_, k)| k)
        .chain(named)
        .take(n)
        .collect();
    let rest = total - first.len();
    (first, rest)
}

/// `JSON.stringify` of a string (well-formed JSON string escaping).
fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The members of one array or object a rendering has opened and not yet closed.
enum Open<'v, J: Json> {
    Array(std::slice::Iter<'v, J>),
    Object(std::vec::IntoIter<(&'v str, &'v J)>),
}

/// `JSON.stringify` of `v` appended to `out`. Iterative (one open container per level), so
/// a caller-built value of any depth renders without recursing.
fn stringify_into<J: Json>(out: &mut String, v: &J) {
    // Each open level, and whether a member has been written in it yet.
    let mut open: Vec<(Open<'_, J>, bool)> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v.kind() {
                Kind::Null => out.push_str("null"),
                Kind::Bool(b) => out.push_str(if b { "true" } else { "false" }),
                Kind::Number(n) => {
                    let x = as_f64(n);
                    // JSON.stringify renders non-finite numbers as null.
                    if x.is_finite() {
                        out.push_str(&number_to_string(x));
                    } else {
                        out.push_str("null");
                    }
                }
                Kind::String(s) => quote_into(out, s),
                Kind::Array(items) => {
                    out.push('[');
                    open.push((Open::Array(items.iter()), false));
                }
                Kind::Object(map) => {
                    out.push('{');
                    open.push((Open::Object(js_entries(map).into_iter()), false));
                }
            }
        }
        let Some((level, started)) = open.last_mut() else {
            return;
        };
        let member = match level {
            Open::Array(items) => items.next().map(|item| (None, item)),
            Open::Object(entries) => entries.next().map(|(k, item)| (Some(k), item)),
        };
        if let Some((key, item)) = member {
            if *started {
                out.push(',');
            }
            *started = true;
            if let Some(key) = key {
                quote_into(out, key);
                out.push(':');
            }
            next = Some(item);
        } else {
            out.push(if matches!(level, Open::Array(_)) {
                ']'
            } else {
                '}'
            });
            open.pop();
        }
    }
}

/// `JSON.stringify(v)`; an absent value renders as `undefined` (what concatenating
/// `JSON.stringify(undefined)` into a string prints).
pub(crate) fn stringify<J: Json>(v: Option<&J>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(v) => {
            let mut out = String::new();
            stringify_into(&mut out, v);
            out
        }
    }
}

/// `String(v)` appended to `out`. Iterative (one open array per level), so a caller-built
/// value of any depth renders without recursing.
fn to_string_into<J: Json>(out: &mut String, v: &J) {
    // Each open array's remaining items, and whether an item has been written in it yet.
    let mut open: Vec<(std::slice::Iter<'_, J>, bool)> = Vec::new();
    let mut next = Some(v);
    loop {
        if let Some(v) = next.take() {
            match v.kind() {
                Kind::Null => out.push_str("null"),
                Kind::Bool(b) => out.push_str(if b { "true" } else { "false" }),
                Kind::Number(n) => out.push_str(&number_to_string(as_f64(n))),
                Kind::String(s) => out.push_str(s),
                Kind::Array(items) => open.push((items.iter(), false)),
                Kind::Object(_) => out.push_str("[object Object]"),
            }
        }
        let Some((items, started)) = open.last_mut() else {
            return;
        };
        match items.next() {
            Some(item) => {
                // Array.prototype.join: null/undefined elements render as empty strings.
                if *started {
                    out.push(',');
                }
                *started = true;
                if !matches!(item.kind(), Kind::Null) {
                    next = Some(item);
                }
            }
            None => {
                open.pop();
            }
        }
    }
}

/// `String(v)` (string concatenation); an absent value renders as `undefined`.
pub(crate) fn to_js_string<J: Json>(v: Option<&J>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(v) => {
            let mut out = String::new();
            to_string_into(&mut out, v);
            out
        }
    }
}

/// JavaScript `String.prototype.replace(needle, replacement)` with a string pattern: only
/// the first occurrence is replaced, and `$$`, `$&`, `` $` `` and `$'` in the replacement
/// are expanded.
pub(crate) fn replace_first(haystack: &str, needle: &str, replacement: &str) -> String {
    let Some(at) = haystack.find(needle) else {
        return haystack.to_owned();
    };
    let before = &haystack[..at];
    let after = &haystack[at + needle.len()..];
    let mut expanded = String::with_capacity(replacement.len());
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            expanded.push(c);
            continue;
        }
        match chars.peek() {
            Some('$') => {
                chars.next();
                expanded.push('$');
            }
            Some('&') => {
                chars.next();
                expanded.push_str(needle);
            }
            Some('`') => {
                chars.next();
                expanded.push_str(before);
            }
            Some('\'') => {
                chars.next();
                expanded.push_str(after);
            }
            _ => expanded.push('$'),
        }
    }
    format!("{before}{expanded}{after}")
}

/// `true` for the characters JavaScript's `String.prototype.trim` and `\s` treat as
/// whitespace (differs from Rust's `char::is_whitespace` at U+0085 and U+FEFF).
#[must_use]
pub(crate) fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `true` when `value` has at least one non-whitespace character (the override gate).
#[must_use]
pub(crate) fn is_non_blank(value: &str) -> bool {
    value.chars().any(|c| !is_js_space(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deep_test::{DEPTH, dismantle, nested, on_small_stack};
    use serde_json::{Map, Value, json};

    /// `field` finds what `Map::get` finds, on maps small enough to be searched key by key
    /// and on larger ones, for present keys, absent keys and near misses.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn field_finds_what_get_finds(keys: Vec<u8>, probes: Vec<u8>) -> bool {
        let name = |k: u8| {
            ["", "a", "ab", "b", "id", "di", "runtime", "runtimes"][usize::from(k % 8)].to_owned()
                + &"x".repeat(usize::from(k / 8 % 4))
        };
        let map: Map<String, Value> = keys
            .iter()
            .enumerate()
            .map(|(i, &k)| (name(k), Value::from(i)))
            .collect();
        let value = Value::Object(map.clone());
        let view = crate::json::Value::of(&value);
        probes.iter().chain(&keys).all(|&p| {
            let key = name(p);
            map.field(&key) == map.get(&key)
                && value.field(&key) == value.get(&key)
                && view.field(&key).map(crate::json::Value::to_serde).as_ref() == value.get(&key)
                && map.has_field(&key) == map.contains_key(&key)
        }) && Value::from(keys).field("0").is_none()
    }

    /// `first_js_keys` equals filtering `js_entries` and splitting at `n`, on maps whose
    /// keys are drawn so that array-index keys (`0`, `7`, `10`…), near misses (`01`,
    /// `4294967295`) and names mix, in random insertion order.
    #[quickcheck_macros::quickcheck]
    fn first_js_keys_is_a_prefix_of_js_order(raw: Vec<(u8, u32)>, n: u8, skip: u8) -> bool {
        let mut map = Map::new();
        for (kind, x) in raw {
            let key = match kind % 4 {
                0 => (x % 50).to_string(),
                1 => format!("0{}", x % 5),
                2 => u32::MAX.to_string(),
                _ => format!("k{}", x % 50),
            };
            map.insert(key, Value::Null);
        }
        let n = usize::from(n % 12);
        let keep = |k: &str| k.len() % 3 != usize::from(skip % 4);
        let all: Vec<&str> = js_entries(&map)
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| keep(k))
            .collect();
        let (first, rest) = first_js_keys(&map, n, keep);
        let cut = n.min(all.len());
        first == all[..cut] && rest == all.len() - cut
    }

    #[test]
    fn numbers_render_like_javascript() {
        let cases = [
            (1.0, "1"),
            (-0.0, "0"),
            (1.5, "1.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (123_456_789_012_345_680_000.0, "123456789012345680000"),
            (1.5e-7, "1.5e-7"),
            (0.000_001, "0.000001"),
            (1e-7, "1e-7"),
            (-2.5e30, "-2.5e+30"),
            (0.1, "0.1"),
        ];
        for (x, want) in cases {
            assert_eq!(number_to_string(x), want, "{x}");
        }
        let big: Value = serde_json::from_str("12345678901234567890").unwrap_or_default();
        assert_eq!(stringify(Some(&big)), "12345678901234567000");
    }

    #[test]
    fn stringify_orders_index_keys_first() {
        let v: Value =
            serde_json::from_str(r#"{"b":1,"10":2,"a":[null,"x\u001b"],"2":true,"01":0}"#)
                .unwrap_or_default();
        assert_eq!(
            stringify(Some(&v)),
            r#"{"2":true,"10":2,"b":1,"a":[null,"x\u001b"],"01":0}"#
        );
        assert_eq!(stringify::<Value>(None), "undefined");
    }

    #[test]
    fn to_js_string_follows_string_conversion() {
        assert_eq!(
            to_js_string(Some(&json!(["a", null, ["b", "c"], 1]))),
            "a,,b,c,1"
        );
        assert_eq!(to_js_string(Some(&json!({"a": 1}))), "[object Object]");
        assert_eq!(to_js_string(Some(&json!(null))), "null");
        assert_eq!(to_js_string::<Value>(None), "undefined");
    }

    /// Was a recursion per level: a caller-built value 50 000 deep overflowed the stack.
    #[test]
    fn renderings_of_deep_values_do_not_recurse() {
        let rendered = on_small_stack(|| {
            let deep = nested(DEPTH, json!({"k": [1, null]}));
            let deep_object = (0..DEPTH).fold(json!("x"), |v, _| {
                // Not `json!`: it serializes a value given to it, recursively.
                Value::Object(Map::from_iter([("a".to_owned(), v)]))
            });
            let out = (
                stringify(Some(&deep)),
                to_js_string(Some(&deep)),
                stringify(Some(&deep_object)).len(),
            );
            dismantle(deep);
            dismantle(deep_object);
            out
        });
        let brackets = |c: &str| c.repeat(DEPTH);
        assert_eq!(
            rendered.0,
            format!("{}{{\"k\":[1,null]}}{}", brackets("["), brackets("]"))
        );
        assert_eq!(rendered.1, "[object Object]");
        assert_eq!(rendered.2, DEPTH * 6 + 3);
        assert_eq!(
            stringify(Some(
                &json!([[1, {"b": [], "a": {}}], [], {"x": [null, [true]]}])
            )),
            r#"[[1,{"b":[],"a":{}}],[],{"x":[null,[true]]}]"#
        );
        assert_eq!(
            to_js_string(Some(&json!([[1, [null, 2]], [], [[]], "s", [[null]]]))),
            "1,,2,,,s,"
        );
    }

    #[test]
    fn replace_first_expands_dollar_patterns() {
        assert_eq!(
            replace_first("abcabc", "b", "[$&|$`|$'|$$|$1]"),
            "a[b|a|cabc|$|$1]cabc"
        );
        assert_eq!(replace_first("abc", "x", "y"), "abc");
    }
}
