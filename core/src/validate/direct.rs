//! Manifest-sized text to [`Value`](crate::json::Value) in one direct pass, each container
//! allocated once.
//!
//! `serde_json` builds a value through its generic visitor: every object starts empty and
//! grows (its order-preserving map reallocates and rehashes its index on the way), every
//! array grows by doubling, and the depth bound is then checked by a second walk over the
//! value. For the small text every real manifest is, that growth and the visitor's
//! machinery cost more than reading the text. [`parse`] reads the text directly: object
//! members and array items are gathered on two scratch stacks, each container is built
//! once at its final size when it closes, and the depth is bounded while reading. A string
//! without escapes, and a run of indentation, are each found a word at a time.
//!
//! It is a shortcut, never a second opinion: it answers only text it can read exactly as
//! `serde_json` does, with the value `serde_json` builds (same strings, same key order, a
//! repeated key's last value at its first position). Anything else (invalid text, text
//! nesting past the bound, `\u` escapes of surrogates, numbers other than plain
//! non-negative integers that `serde_json` parses on its own) gives `None` or defers to
//! `serde_json`, and the caller takes the general path, which owns every error message.

use std::borrow::Cow;

use serde_json::Number;

use crate::{json, words};

/// What the reader builds: a borrowed [`json::Value`] for validation, or the
/// `serde_json::Value` that [`super::parse_manifest`] returns.
pub(crate) trait Build<'t> {
    type Value;
    fn null() -> Self::Value;
    fn bool(b: bool) -> Self::Value;
    fn number(n: Number) -> Self::Value;
    fn string(s: Cow<'t, str>) -> Self::Value;
    fn array(items: impl ExactSizeIterator<Item = Self::Value>) -> Self::Value;
    fn object(members: impl ExactSizeIterator<Item = (Cow<'t, str>, Self::Value)>) -> Self::Value;
}

/// Builds the borrowed value.
pub(crate) struct View;

impl<'t> Build<'t> for View {
    type Value = json::Value<'t>;
    fn null() -> Self::Value {
        json::Value::Null
    }
    fn bool(b: bool) -> Self::Value {
        json::Value::Bool(b)
    }
    fn number(n: Number) -> Self::Value {
        json::Value::Number(n)
    }
    fn string(s: Cow<'t, str>) -> Self::Value {
        json::Value::String(s)
    }
    fn array(items: impl ExactSizeIterator<Item = Self::Value>) -> Self::Value {
        json::Value::Array(items.collect())
    }
    fn object(members: impl ExactSizeIterator<Item = (Cow<'t, str>, Self::Value)>) -> Self::Value {
        json::Value::Object(json::Map::from_members(members.collect()))
    }
}

/// Builds the owned `serde_json` value.
pub(crate) struct Owned;

impl<'t> Build<'t> for Owned {
    type Value = serde_json::Value;
    fn null() -> Self::Value {
        serde_json::Value::Null
    }
    fn bool(b: bool) -> Self::Value {
        serde_json::Value::Bool(b)
    }
    fn number(n: Number) -> Self::Value {
        serde_json::Value::Number(n)
    }
    fn string(s: Cow<'t, str>) -> Self::Value {
        serde_json::Value::String(s.into_owned())
    }
    fn array(items: impl ExactSizeIterator<Item = Self::Value>) -> Self::Value {
        serde_json::Value::Array(items.collect())
    }
    fn object(members: impl ExactSizeIterator<Item = (Cow<'t, str>, Self::Value)>) -> Self::Value {
        let mut map = serde_json::Map::with_capacity(members.len());
        for (key, value) in members {
            map.insert(key.into_owned(), value);
        }
        serde_json::Value::Object(map)
    }
}

/// Scratch room reserved up front for the members and items of open containers. Each
/// reservation stays under 1 KiB: the C allocator serves a larger request on a slower
/// path (sorting its freed chunks first), which cost more than the regrowth it saves.
const PENDING_MEMBERS: usize = 12;
const PENDING_ITEMS: usize = 12;

/// Parses `text` when it is JSON nesting at most `max_depth` arrays/objects deep and
/// made only of what this reader handles; `None` otherwise (the caller then parses with
/// `serde_json`, which yields the same value or the error).
pub(crate) fn parse<'t, B: Build<'t>>(text: &'t str, max_depth: usize) -> Option<B::Value> {
    let mut reader = Reader::<'t, B> {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth_left: max_depth,
        // Room for the members pending at once in a typical manifest: the stacks are
        // seldom regrown (and copied) while reading.
        members: Vec::with_capacity(PENDING_MEMBERS),
        items: Vec::with_capacity(PENDING_ITEMS),
    };
    let value = reader.value()?;
    reader.skip_whitespace();
    (reader.pos == reader.bytes.len()).then_some(value)
}

/// The first position from `from` on holding a quote, a backslash or a control character
/// (`bytes.len()` when none does). Eight bytes at a time: in each word, the lowest byte
/// flagged is the first such byte (a borrow only ever flags bytes above a real match).
fn plain_run_end(bytes: &[u8], from: usize) -> usize {
    let mut pos = from;
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let word = words::load(chunk);
        let flagged =
            words::equal(word, b'"') | words::equal(word, b'\\') | words::below(word, 0x20);
        if flagged != 0 {
            return pos + (flagged.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while let Some(&b) = bytes.get(pos) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        pos += 1;
    }
    pos
}

/// The first position from `from` on that does not hold a space (`bytes.len()` when all
/// do). Eight bytes at a time: pretty-printed text indents every line with a run of them.
fn space_run_end(bytes: &[u8], from: usize) -> usize {
    let mut pos = from;
    while let Some(chunk) = bytes.get(pos..pos + 8) {
        let other = words::load(chunk) ^ (words::ONES * u64::from(b' '));
        if other != 0 {
            return pos + (other.trailing_zeros() / 8) as usize;
        }
        pos += 8;
    }
    while bytes.get(pos) == Some(&b' ') {
        pos += 1;
    }
    pos
}

/// The reading state: the text, the position, the nesting still allowed, and the scratch
/// stacks on which open objects gather their members and open arrays their items
/// (containers close in the reverse order they open).
struct Reader<'t, B: Build<'t>> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    depth_left: usize,
    members: Vec<(Cow<'t, str>, B::Value)>,
    items: Vec<B::Value>,
}

impl<'t, B: Build<'t>> Reader<'t, B> {
    #[inline]
    fn skip_whitespace(&mut self) {
        // Most tokens are not preceded by whitespace: one byte tells.
        if let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.skip_whitespace_run();
        }
    }

    /// [`Self::skip_whitespace`] from a whitespace byte on.
    #[inline(never)]
    fn skip_whitespace_run(&mut self) {
        loop {
            match self.bytes.get(self.pos) {
                Some(b' ' | b'\n') => self.pos = space_run_end(self.bytes, self.pos + 1),
                Some(b'\t' | b'\r') => self.pos += 1,
                _ => return,
            }
        }
    }

    /// The next byte that is not whitespace, not consumed.
    fn peek(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.bytes.get(self.pos).copied()
    }

    /// Consumes `literal` when the text continues with it.
    fn literal(&mut self, literal: &str, value: B::Value) -> Option<B::Value> {
        let end = self.pos + literal.len();
        if self.bytes.get(self.pos..end) == Some(literal.as_bytes()) {
            self.pos = end;
            Some(value)
        } else {
            None
        }
    }

    fn value(&mut self) -> Option<B::Value> {
        match self.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => self.string().map(B::string),
            b't' => self.literal("true", B::bool(true)),
            b'f' => self.literal("false", B::bool(false)),
            b'n' => self.literal("null", B::null()),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// Enters one container level, refusing past the depth bound.
    fn enter(&mut self) -> Option<()> {
        self.depth_left = self.depth_left.checked_sub(1)?;
        self.pos += 1;
        Some(())
    }

    fn object(&mut self) -> Option<B::Value> {
        self.enter()?;
        let start = self.members.len();
        if self.peek()? == b'}' {
            self.pos += 1;
        } else {
            loop {
                if self.peek()? != b'"' {
                    return None;
                }
                let key = self.string()?;
                if self.peek()? != b':' {
                    return None;
                }
                // `"key": value`: the one space after the colon, without a call.
                self.pos += 1 + usize::from(self.bytes.get(self.pos + 1) == Some(&b' '));
                let value = self.value()?;
                self.members.push((key, value));
                match self.peek()? {
                    b',' => self.pos += 1,
                    b'}' => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth_left += 1;
        Some(B::object(self.members.drain(start..)))
    }

    fn array(&mut self) -> Option<B::Value> {
        self.enter()?;
        let start = self.items.len();
        if self.peek()? == b']' {
            self.pos += 1;
        } else {
            loop {
                let item = self.value()?;
                self.items.push(item);
                match self.peek()? {
                    b',' => self.pos += 1,
                    b']' => {
                        self.pos += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth_left += 1;
        Some(B::array(self.items.drain(start..)))
    }

    /// A string at the opening quote: its text, escapes decoded. A raw control character,
    /// a bad escape or a `\u` escape of a surrogate gives `None`.
    // Reason: inlined into its two callers (a key, a value) a manifest reads in 55,000
    // instructions instead of 58,200 (`workload validate`); `#[inline]` alone is not
    // followed here.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let start = self.pos + 1;
        let end = plain_run_end(self.bytes, start);
        if self.bytes.get(end) == Some(&b'"') {
            // No escape: the text itself (both ends are at ASCII quotes, so on char
            // boundaries).
            self.pos = end + 1;
            return self.text.get(start..end).map(Cow::Borrowed);
        }
        // Resume at the byte that stopped the scan; the run before it is kept as is.
        self.pos = end;
        self.escaped_string(start)
    }

    /// The rest of [`Self::string`] for a string that holds an escape (or is not a string
    /// at all): `start` is its first character, the position is where the plain run
    /// before the first escape ends.
    #[cold]
    fn escaped_string(&mut self, start: usize) -> Option<Cow<'t, str>> {
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            self.pos = plain_run_end(self.bytes, self.pos);
            let b = *self.bytes.get(self.pos)?;
            match b {
                b'"' => {
                    let tail = self.text.get(run..self.pos)?;
                    self.pos += 1;
                    return Some(match owned {
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                        None => Cow::Borrowed(tail),
                    });
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(self.text.get(run..self.pos)?);
                    let escape = *self.bytes.get(self.pos + 1)?;
                    self.pos += 2;
                    let decoded = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = self.text.get(self.pos..self.pos + 4)?;
                            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                                return None;
                            }
                            self.pos += 4;
                            // Surrogates (pairs or lone) are left to serde_json.
                            char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
                        }
                        _ => return None,
                    };
                    s.push(decoded);
                    run = self.pos;
                }
                0..=0x1f => return None,
                _ => self.pos += 1,
            }
        }
    }

    /// A number: plain non-negative integers are read here, any other number token is
    /// handed to `serde_json` on its own (which reads it exactly as within the text).
    fn number(&mut self) -> Option<B::Value> {
        let start = self.pos;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
        let token = self.text.get(start..self.pos)?;
        let plain = token.len() <= 19
            && token.bytes().all(|b| b.is_ascii_digit())
            && (token.len() == 1 || !token.starts_with('0'));
        if plain {
            token.parse::<u64>().ok().map(|n| B::number(n.into()))
        } else {
            serde_json::from_str::<Number>(token).ok().map(B::number)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `serde_json` reads, spelled in its member order (`serde_json`'s map equality
    /// ignores order; the spelling does not).
    fn serde_reads(text: &str) -> Option<String> {
        serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .map(|v| v.to_string())
    }

    /// What this reader reads, as the `serde_json` value it stands for, spelled; `None`
    /// also when its two builders disagree (borrowed view, owned `serde_json` value).
    fn reads(text: &str) -> Option<String> {
        let view = parse::<View>(text, 64).map(|v| v.to_serde().to_string());
        let owned = parse::<Owned>(text, 64).map(|v| v.to_string());
        (view == owned).then_some(view).flatten()
    }

    /// `Some` only with the value `serde_json` builds, and only within the depth bound.
    fn agrees(text: &str) -> bool {
        match parse::<Owned>(text, 64) {
            Some(value) => {
                serde_reads(text) == Some(value.to_string())
                    && reads(text) == Some(value.to_string())
                    && !super::super::bounds::value_exceeds_depth(&value, 64)
            }
            None => parse::<View>(text, 64).is_none(),
        }
    }

    #[test]
    fn first_party_manifests_are_read_here_as_serde_json_reads_them() {
        for capability in crate::embedded::first_party() {
            let ours = reads(capability.manifest);
            let theirs = serde_reads(capability.manifest);
            assert!(ours.is_some(), "{}", capability.folder);
            assert_eq!(ours, theirs, "{}", capability.folder);
        }
    }

    #[test]
    fn reads_what_it_handles_and_defers_the_rest() {
        let read = [
            "0",
            "18446744073709551615",
            "18446744073709551616",
            "-3",
            "1.5e3",
            "-0",
            "0.1",
            "true",
            " null ",
            r#""a\"b\\c\/d\b\f\n\r\t\u00e9\u0000\u20ac""#,
            r#"{"b":1,"a":[true,false,null],"b":2}"#,
            r#"{"a":{"a":{}},"":[[],{}]}"#,
            "\"\u{7f}é\"",
        ];
        for text in read {
            let value = parse::<View>(text, 64);
            assert!(reads(text).is_some(), "{text}");
            assert!(value.is_some(), "{text}");
            assert_eq!(
                value.map(|v| v.to_serde().to_string()),
                serde_reads(text),
                "{text}"
            );
        }
        let deferred = [
            "",
            "01",
            "1-2",
            "-",
            "[1,]",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "[1] x",
            "[1",
            r#""\ud83d\ude00""#,
            r#""\ud800""#,
            r#""\x""#,
            "\"a\u{1}\"",
            "tru",
            "nul",
            "{1:2}",
            "1E400",
        ];
        for text in deferred {
            assert_eq!(parse::<View>(text, 64), None, "{text}");
        }
    }

    #[test]
    fn depth_past_the_bound_defers() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse::<View>(&nested(64), 64).is_some());
        assert_eq!(parse::<View>(&nested(65), 64), None);
        let objects = |n: usize| format!("{}1{}", r#"{"a":"#.repeat(n), "}".repeat(n));
        assert!(parse::<View>(&objects(64), 64).is_some());
        assert_eq!(parse::<View>(&objects(65), 64), None);
        // The bound is on nesting, not on the number of containers.
        let wide = format!("[{}]", vec![nested(63); 50].join(","));
        assert!(parse::<View>(&wide, 64).is_some());
    }

    /// The word-at-a-time search stops where a byte-at-a-time search does.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn plain_run_ends_where_a_byte_search_ends(bytes: Vec<u8>, from: u8) -> bool {
        let from = usize::from(from) % (bytes.len() + 1);
        let naive = bytes[from..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .map_or(bytes.len(), |i| from + i);
        plain_run_end(&bytes, from) == naive
    }

    /// The word-at-a-time skip over spaces stops where a byte-at-a-time skip stops.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn space_runs_end_where_a_byte_search_ends(spaces: Vec<bool>, from: u8) -> bool {
        // Mostly spaces, so runs longer than a word are common.
        let bytes: Vec<u8> = spaces
            .iter()
            .enumerate()
            .map(|(i, &space)| if space || i % 3 == 0 { b' ' } else { b'\t' })
            .collect();
        let from = usize::from(from) % (bytes.len() + 1);
        let naive = bytes[from..]
            .iter()
            .position(|&b| b != b' ')
            .map_or(bytes.len(), |i| from + i);
        space_run_end(&bytes, from) == naive
    }

    #[test]
    fn whitespace_of_every_kind_and_length_is_skipped() {
        for n in 0..20 {
            for ws in [" ", "\n", "\t", "\r", "\n  ", " \t"] {
                let pad = ws.repeat(n);
                let text =
                    format!("{pad}{{{pad}\"a\"{pad}:{pad}[{pad}1{pad},{pad}null{pad}]{pad}}}{pad}");
                assert_eq!(reads(&text), serde_reads(&text), "{text:?}");
                assert!(reads(&text).is_some(), "{text:?}");
            }
        }
        assert_eq!(space_run_end(b"        x", 0), 8);
        assert_eq!(space_run_end(b"         ", 1), 9);
        assert_eq!(space_run_end(b"", 0), 0);
    }

    #[test]
    fn plain_run_end_finds_each_stop_at_each_place() {
        for stop in [b'"', b'\\', 0, 0x1f] {
            for at in 0..20 {
                let mut bytes = vec![b'a'; 21];
                bytes[at] = stop;
                bytes[20] = 0x80;
                assert_eq!(plain_run_end(&bytes, 0), at, "{stop} at {at}");
                assert_eq!(plain_run_end(&bytes, at + 1), 21);
            }
        }
        assert_eq!(
            plain_run_end(&[0x20, 0x7f, 0xff, b'!', b'#', b'[', b']'], 0),
            7
        );
    }

    /// Texts spelled from JSON tokens in random order: mostly invalid, often valid.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn token_soup_is_read_as_serde_json_reads_it(tokens: Vec<u8>) -> bool {
        const TOKENS: [&str; 20] = [
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            r#""a""#,
            r#""[,\"}\u0041""#,
            "1",
            "-2.5e3",
            "null",
            " ",
            "\"",
            "true",
            "0",
            "\\",
            "\n",
            r#""\ud83d""#,
            "e",
            "-",
        ];
        agrees(&super::super::json_gen::token_soup(&tokens, &TOKENS))
    }

    /// Valid values of every kind, duplicate keys included, compact and pretty: each is
    /// read here (none is deferred) and equals what `serde_json` builds.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn valid_values_are_read_as_serde_json_reads_them(shape: Vec<(u8, u8)>, s: String) -> bool {
        fn build(shape: &mut std::slice::Iter<'_, (u8, u8)>, s: &str, depth: usize) -> String {
            let Some(&(kind, n)) = shape.next() else {
                return "0".to_owned();
            };
            let n = usize::from(n % 9);
            match (kind % 6, depth < 5) {
                (0, true) => {
                    let items: Vec<String> = (0..n).map(|_| build(shape, s, depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
                (1, true) => {
                    let members: Vec<String> = (0..n)
                        .map(|i| format!(r#""k{}":{}"#, i % 4, build(shape, s, depth + 1)))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
                (2, _) => serde_json::to_string(s).unwrap_or_default(),
                (3, _) => format!("{}", u64::from(kind) * 1_000_003),
                (4, _) => ["true", "false", "null"][n % 3].to_owned(),
                _ => format!("\"{n}\\n\\u00{kind:02x}\\\"\""),
            }
        }
        super::super::json_gen::compact_and_pretty(build(&mut shape.iter(), &s, 0)).is_some_and(
            |texts| {
                texts
                    .iter()
                    .all(|t| parse::<View>(t, 64).is_some() && agrees(t))
            },
        )
    }
}
