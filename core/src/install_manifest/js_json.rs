//! A bounded JSON reader with the value semantics of JavaScript's `JSON.parse`.
//!
//! The install manifest is untrusted text (a project-local one lives in any cloned
//! repository), and the peer reads it with `JSON.parse`. Three places where `serde_json`
//! disagrees with `JSON.parse` matter for parity, so this reader exists:
//!
//! * numbers are IEEE doubles: `1e400` is `Infinity` (not an error), `2.0` is the integer
//!   `2`, `-0` is `0`; a number that is not finite becomes `null` (what `JSON.stringify`
//!   prints for it);
//! * a `\uD800` escape without its partner is accepted (JavaScript keeps a lone surrogate;
//!   a Rust string cannot, so it becomes U+FFFD, which is what the peer prints for it);
//! * object keys follow JavaScript property order: array-index keys (`"0"` … `"4294967294"`)
//!   first in ascending numeric order, then the rest in first-seen order; a duplicate key
//!   keeps its first position and takes the last value.
//!
//! Nesting is bounded ([`super::MAX_MANIFEST_DEPTH`]) so a hostile input cannot exhaust the
//! stack; the size bound is checked by the caller before this runs.

use serde_json::{Map, Number, Value};

/// Why the text is not a JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// Not JSON: a syntax error at this byte offset.
    Syntax { offset: usize, reason: &'static str },
    /// Nested deeper than the bound.
    TooDeep,
}

/// Parses `text` as one JSON value (surrounded only by JSON whitespace).
pub(crate) fn parse(text: &str, max_depth: usize) -> Result<Value, ParseError> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        max_depth,
    };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    if parser.pos != parser.bytes.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    max_depth: usize,
}

impl Parser<'_> {
    fn error(&self, reason: &'static str) -> ParseError {
        ParseError::Syntax {
            offset: self.pos,
            reason,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect_literal(&mut self, literal: &'static str, value: Value) -> Result<Value, ParseError> {
        if self.bytes[self.pos..].starts_with(literal.as_bytes()) {
            self.pos += literal.len();
            Ok(value)
        } else {
            Err(self.error("unexpected token"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.peek() {
            None => Err(self.error("unexpected end of input")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => self.string().map(Value::String),
            Some(b't') => self.expect_literal("true", Value::Bool(true)),
            Some(b'f') => self.expect_literal("false", Value::Bool(false)),
            Some(b'n') => self.expect_literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("unexpected token")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth > self.max_depth {
            return Err(ParseError::TooDeep);
        }
        self.pos += 1;
        let mut map = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Value::Object(map));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a property name"));
            }
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':' after a property name"));
            }
            self.pos += 1;
            self.skip_ws();
            let value = self.value(depth)?;
            // `Map::insert` keeps the first position of a duplicate key and takes the new
            // value, as `JSON.parse` does.
            map.insert(key, value);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(js_property_order(map)));
                }
                None => return Err(self.error("unexpected end of input")),
                Some(_) => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Value, ParseError> {
        if depth > self.max_depth {
            return Err(ParseError::TooDeep);
        }
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                None => return Err(self.error("unexpected end of input")),
                Some(_) => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn hex4(&mut self) -> Result<u16, ParseError> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("bad unicode escape"))?;
        let mut unit: u16 = 0;
        for &d in digits {
            let nibble = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.error("bad unicode escape")),
            };
            unit = (unit << 4) | u16::from(nibble);
        }
        self.pos += 4;
        Ok(unit)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.pos += 1;
        let mut out = String::new();
        // Pending high surrogate from a `\uD8xx` escape, waiting for its low half.
        let mut high: Option<u16> = None;
        loop {
            let start = self.pos;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            if self.pos > start {
                flush_high(&mut out, &mut high);
                out.push_str(&self.text[start..self.pos]);
            }
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.pos += 1;
                    flush_high(&mut out, &mut high);
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escape = self
                        .peek()
                        .ok_or_else(|| self.error("unterminated string"))?;
                    self.pos += 1;
                    let simple = match escape {
                        b'"' => Some('"'),
                        b'\\' => Some('\\'),
                        b'/' => Some('/'),
                        b'b' => Some('\u{8}'),
                        b'f' => Some('\u{c}'),
                        b'n' => Some('\n'),
                        b'r' => Some('\r'),
                        b't' => Some('\t'),
                        b'u' => None,
                        _ => return Err(self.error("bad escape")),
                    };
                    if let Some(c) = simple {
                        flush_high(&mut out, &mut high);
                        out.push(c);
                        continue;
                    }
                    let unit = self.hex4()?;
                    match (high.take(), unit) {
                        (Some(h), 0xDC00..=0xDFFF) => {
                            let code = 0x10000
                                + ((u32::from(h) - 0xD800) << 10)
                                + (u32::from(unit) - 0xDC00);
                            out.push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                        }
                        (pending, 0xD800..=0xDBFF) => {
                            if pending.is_some() {
                                out.push(char::REPLACEMENT_CHARACTER);
                            }
                            high = Some(unit);
                        }
                        (pending, _) => {
                            if pending.is_some() {
                                out.push(char::REPLACEMENT_CHARACTER);
                            }
                            out.push(
                                char::from_u32(u32::from(unit))
                                    .unwrap_or(char::REPLACEMENT_CHARACTER),
                            );
                        }
                    }
                }
                Some(_) => return Err(self.error("control character in string")),
            }
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.error("bad number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.error("bad number"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.error("bad number"));
            }
        }
        let double: f64 = self.text[start..self.pos]
            .parse()
            .map_err(|_| self.error("bad number"))?;
        Ok(js_number(double))
    }
}

/// A lone high surrogate is followed by something that is not its low half: it stays in
/// the JavaScript string alone, which a Rust string spells U+FFFD.
fn flush_high(out: &mut String, high: &mut Option<u16>) {
    if high.take().is_some() {
        out.push(char::REPLACEMENT_CHARACTER);
    }
}

/// A JavaScript number as a JSON value: integral values that fit 64 bits are integers,
/// other finite values are floats, and non-finite values are `null` (as `JSON.stringify`
/// prints them).
pub(crate) fn js_number(double: f64) -> Value {
    const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    if !double.is_finite() {
        return Value::Null;
    }
    if double.fract() == 0.0 {
        if (0.0..TWO_POW_64).contains(&double) {
            // In range and integral by the checks above, so the cast is exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            return Value::Number(Number::from(double as u64));
        }
        if (-TWO_POW_63..0.0).contains(&double) {
            #[allow(clippy::cast_possible_truncation)]
            return Value::Number(Number::from(double as i64));
        }
    }
    Number::from_f64(double).map_or(Value::Null, Value::Number)
}

/// Whether `key` is a JavaScript array index (canonical decimal integer below 2^32 − 1).
pub(super) fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty() && key.len() <= 10);
    if !canonical || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|&n| n != u32::MAX)
}

/// Reorders a parsed object into JavaScript property order.
fn js_property_order(map: Map<String, Value>) -> Map<String, Value> {
    if !map.keys().any(|k| array_index(k).is_some()) {
        return map;
    }
    let mut indexed = Vec::new();
    let mut named = Vec::new();
    for (key, value) in map {
        match array_index(&key) {
            Some(n) => indexed.push((n, key, value)),
            None => named.push((key, value)),
        }
    }
    indexed.sort_by_key(|(n, _, _)| *n);
    indexed
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(named)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok(text: &str) -> Value {
        parse(text, 8).unwrap_or_else(|e| panic!("{text:?}: {e:?}"))
    }

    #[test]
    fn accepts_what_json_parse_accepts() {
        assert_eq!(
            ok(" {\"a\" : [1, 2.0, -0, 1e400, true, null]}\n"),
            json!({"a": [1, 2, 0, null, true, null]})
        );
        assert_eq!(ok("\"\\ud83d\\ude00\\u00e9\\/\""), json!("\u{1F600}é/"));
        assert_eq!(ok("\"\\ud800x\""), json!("\u{FFFD}x"));
        assert_eq!(ok("\"\\udc00\\ud800\""), json!("\u{FFFD}\u{FFFD}"));
        assert_eq!(ok("0.5"), json!(0.5));
    }

    #[test]
    fn rejects_what_json_parse_rejects() {
        for bad in [
            "",
            " ",
            "{",
            "{\"a\":1,}",
            "[1,]",
            "01",
            "1.",
            ".5",
            "+1",
            "\u{feff}{}",
            "'a'",
            "\"\t\"",
            "{a:1}",
            "nul",
            "[1] x",
            "\"\\x\"",
            "\"\\u12\"",
            "-",
            "1e",
            "{\"a\"}",
            "\"abc",
        ] {
            assert!(
                matches!(parse(bad, 8), Err(ParseError::Syntax { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn keys_follow_javascript_property_order() {
        let value = ok(r#"{"b":1,"10":2,"a":3,"2":4,"b":5,"01":6,"4294967295":7,"4294967294":8}"#);
        let keys: Vec<&str> = value
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(
            keys,
            ["2", "10", "4294967294", "b", "a", "01", "4294967295"]
        );
        assert_eq!(value["b"], json!(5));
    }

    #[test]
    fn depth_is_bounded() {
        assert_eq!(
            parse(&format!("{}{}", "[".repeat(9), "]".repeat(9)), 8),
            Err(ParseError::TooDeep)
        );
        assert!(parse(&format!("{}{}", "[".repeat(8), "]".repeat(8)), 8).is_ok());
    }
}
