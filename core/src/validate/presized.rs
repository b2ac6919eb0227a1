//! Manifest text to [`Value`], every large array and object allocated once at its final size.
//!
//! `serde_json` builds a container by pushing into it, so a container of `n` members is
//! reallocated about `log2 n` times, and while the last reallocation copies, the old and
//! the new buffer are both alive: an object of 800k keys peaks at about three times its
//! final size (its order-preserving map also rehashes its index each time). One byte scan
//! before the parse ([`scan`]) counts the members of every container and measures the
//! nesting depth; the parse ([`parse_presized`]) then reserves each large container's
//! final size up front. The scan also answers the depth bound before anything is built.
//!
//! The hints change capacities only, never values: the result is the value `serde_json`
//! builds for the same text (same numbers, same key order, the last duplicate key's value
//! at its first position), and a parse error is `serde_json`'s own error. For valid text
//! the counts are exact. A member is counted only when it holds a value (an object member
//! only once its `:` is seen), so empty members (`[,,,]`) reserve nothing, and a map whose
//! repeated keys leave most of its reservation unused is shrunk. Invalid text can still
//! reserve what its counted members would take before the parse reaches the error; that
//! is never more than valid text of the same size costs (which `serde_json` alone, growing
//! by doubling, would exceed).

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Text from this size on is scanned before it is parsed. Below it the scan costs more
/// than the growth it saves (first-party manifests are 1–6 KB: scanning first made their
/// validation 22% dearer in instructions), and no container can be large enough for its
/// growth to matter.
pub(crate) const PRESIZE_FROM_BYTES: usize = 64 * 1024;

/// Containers with fewer members than this are left to grow as usual (their growth is
/// cheap, and recording them would only cost scan memory).
const HINTED_MIN_MEMBERS: u32 = 16;

/// Containers are first reserved for at most this many members; a container is given its
/// counted size only once that many members are really in it (distinct keys, for an
/// object). So text that turns out invalid early, or an object of repeated keys, never
/// reserves what its commas announce, and a large container still grows once, not by
/// doubling.
const FIRST_RESERVE: usize = 1024;

/// What one pass over the text found.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The deepest array/object nesting, counted up to `limit + 1`.
    pub depth: usize,
    /// `(pre-order ordinal of the container, member count)` for every container with at
    /// least [`HINTED_MIN_MEMBERS`] members, in ordinal order.
    sizes: Vec<(u32, u32)>,
}

/// One open container while scanning: its ordinal, whether it is an object, the members
/// completed so far, and whether the current member is real yet. A member counts only once
/// it holds something: in an array any value, in an object a `:` (so `[,,,]`, `{,,,}` or
/// `{"a","b"}` count nothing, and no hint is ever larger than the text's real members).
struct Container {
    ordinal: u32,
    object: bool,
    members: u32,
    in_member: bool,
}

impl Container {
    fn close_member(&mut self) {
        self.members = self.members.saturating_add(u32::from(self.in_member));
        self.in_member = false;
    }
}

/// Scans `text` once: nesting depth (stops early once it passes `limit`, with `depth =
/// limit + 1` and no sizes) and the member counts of large containers. Brackets, colons
/// and commas inside strings (escaped quotes included) do not count; malformed text is
/// scanned all the same.
pub(crate) fn scan(text: &str, limit: usize) -> Scan {
    let mut out = Scan::default();
    let mut stack: Vec<Container> = Vec::new();
    let mut ordinal = 0u32;
    let mut in_string = false;
    let mut escaped = false;
    // A value (scalar, string or container) appears in the innermost open container.
    let value_seen = |stack: &mut Vec<Container>| {
        if let Some(top) = stack.last_mut().filter(|top| !top.object) {
            top.in_member = true;
        }
    };
    for &b in text.as_bytes() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'[' | b'{' => {
                value_seen(&mut stack);
                if stack.len() >= limit {
                    return Scan {
                        depth: limit + 1,
                        sizes: Vec::new(),
                    };
                }
                stack.push(Container {
                    ordinal,
                    object: b == b'{',
                    members: 0,
                    in_member: false,
                });
                ordinal = ordinal.saturating_add(1);
                out.depth = out.depth.max(stack.len());
            }
            b']' | b'}' => {
                if let Some(mut done) = stack.pop() {
                    done.close_member();
                    if done.members >= HINTED_MIN_MEMBERS {
                        out.sizes.push((done.ordinal, done.members));
                    }
                }
            }
            b',' => {
                if let Some(top) = stack.last_mut() {
                    top.close_member();
                }
            }
            b':' => {
                if let Some(top) = stack.last_mut().filter(|top| top.object) {
                    top.in_member = true;
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {}
            _ => {
                in_string = b == b'"';
                value_seen(&mut stack);
            }
        }
    }
    // Containers close in post-order; the parse asks in pre-order.
    out.sizes.sort_unstable_by_key(|&(ordinal, _)| ordinal);
    out
}

/// Parses `text` as `serde_json::from_str::<Value>` does, reserving the sizes `scan` found.
pub(crate) fn parse_presized(text: &str, scan: &Scan) -> Result<Value, serde_json::Error> {
    let hints = Hints {
        sizes: &scan.sizes,
        next: Cell::new(0),
        ordinal: Cell::new(0),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = ValueSeed(&hints).deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// The scan's sizes, consumed in the order the parse opens containers (pre-order).
struct Hints<'s> {
    sizes: &'s [(u32, u32)],
    next: Cell<usize>,
    ordinal: Cell<u32>,
}

impl Hints<'_> {
    /// The member count of the container being opened now (0: no hint).
    fn take(&self) -> usize {
        let ordinal = self.ordinal.get();
        self.ordinal.set(ordinal.saturating_add(1));
        let next = self.next.get();
        match self.sizes.get(next) {
            Some(&(at, members)) if at == ordinal => {
                self.next.set(next + 1);
                usize::try_from(members).unwrap_or(0)
            }
            _ => 0,
        }
    }
}

/// Builds one [`Value`], as `serde_json`'s own visitor does, with reserved containers.
#[derive(Clone, Copy)]
struct ValueSeed<'h, 's>(&'h Hints<'s>);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let hint = self.0.take();
        let mut items = Vec::with_capacity(hint.min(FIRST_RESERVE));
        while let Some(item) = seq.next_element_seed(self)? {
            if items.len() == FIRST_RESERVE && hint > FIRST_RESERVE {
                items.reserve_exact(hint - FIRST_RESERVE);
            }
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let hint = self.0.take();
        let mut reserved = hint.min(FIRST_RESERVE);
        let mut map = Map::with_capacity(reserved);
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(self)?;
            if map.len() == FIRST_RESERVE && hint > reserved && !map.contains_key(&key) {
                // The first reservation is full of distinct keys: move them, once, into a
                // map of the final size (`serde_json::Map` has no `reserve`).
                let mut full = Map::with_capacity(hint);
                full.append(&mut map);
                map = full;
                reserved = hint;
            }
            map.insert(key, value);
        }
        // Repeated keys fill one entry each: do not keep a reservation mostly unused
        // (`serde_json::Map` has no `shrink_to_fit`; collecting again sizes it exactly).
        if map.len() < reserved / 2 {
            map = map.into_iter().collect();
        }
        Ok(Value::Object(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(text: &str) -> Vec<(u32, u32)> {
        scan(text, 64).sizes
    }

    #[test]
    fn counts_members_in_pre_order() {
        let big = |n: usize| format!("[{}]", vec!["1"; n].join(","));
        let text = format!(r#"{{"a":{},"b":[{}],"c":{}}}"#, big(16), big(20), big(15));
        // ordinals: 0 the object, 1 big(16), 2 the array around big(20), 3 big(20), 4 big(15)
        assert_eq!(members(&text), vec![(1, 16), (3, 20)]);
    }

    #[test]
    fn strings_and_whitespace_do_not_count() {
        let items = vec![r#" "a,b]\",[" "#; 16].join(",");
        assert_eq!(members(&format!("[ {items} ]")), vec![(0, 16)]);
        assert_eq!(members("[ ]"), vec![]);
        assert_eq!(scan("[[[]]]", 64).depth, 3);
        assert_eq!(scan(r#"{"a":"[[[{{{\"[["}"#, 64).depth, 1);
    }

    /// Empty members and object members without a `:` count nothing, so no hint is
    /// larger than the members a parse could build.
    #[test]
    fn only_real_members_count() {
        let commas = ",".repeat(100);
        assert_eq!(members(&format!("{{{commas}}}")), vec![]);
        assert_eq!(members(&format!("[{commas}]")), vec![]);
        let keys_only = vec![r#""a""#; 40].join(",");
        assert_eq!(members(&format!("{{{keys_only}}}")), vec![]);
        assert_eq!(members(&format!("[{keys_only}]")), vec![(0, 40)]);
        let pairs = vec![r#""a":[1,2]"#; 20].join(",,");
        assert_eq!(members(&format!("{{{pairs}}}")), vec![(0, 20)]);
    }

    #[test]
    fn depth_past_the_limit_stops_the_scan() {
        let s = scan(&"[".repeat(100_000), 64);
        assert_eq!((s.depth, s.sizes.len()), (65, 0));
        assert_eq!(scan(&"[".repeat(64), 64).depth, 64);
    }

    #[test]
    fn parses_to_the_value_serde_json_builds() {
        let many = (0..40)
            .map(|i| format!(r#""k{}":{i}"#, i % 30))
            .collect::<Vec<_>>()
            .join(",");
        for text in [
            "1",
            "-3",
            "1.5e3",
            "18446744073709551615",
            r#""x\u0000""#,
            "null",
            "[]",
            "{}",
            r#"{"b":1,"a":[true,false,null],"b":2}"#,
            &format!("{{{many}}}"),
            &format!("[{many}]"),
        ] {
            let ours = parse_presized(text, &scan(text, 64)).map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{text}");
        }
    }

    /// Each hint lands on its own container: arrays come out at exactly their length.
    #[test]
    fn hints_reserve_the_right_containers() {
        let ones = |n: usize| format!("[{}]", vec!["1"; n].join(","));
        let text = format!(
            r#"[{},{{"k":{},"j":[2]}},{},{}]"#,
            ones(16),
            ones(17),
            ones(3),
            ones(18)
        );
        let value = parse_presized(&text, &scan(&text, 64)).expect("valid");
        let capacity = |v: &Value| match v {
            Value::Array(items) => (items.len(), items.capacity()),
            _ => (0, 0),
        };
        let outer = value.as_array().expect("array");
        assert_eq!(capacity(&outer[0]), (16, 16));
        assert_eq!(capacity(&outer[1]["k"]), (17, 17));
        assert_eq!(capacity(&outer[3]), (18, 18));
    }

    /// Past the first reservation: an array gets its counted size in one step; objects of
    /// distinct keys, of repeated keys, and of both, come out as `serde_json` builds them.
    #[test]
    fn large_containers_grow_once_and_parse_the_same() {
        let n = 3 * FIRST_RESERVE;
        let array = format!("[{}]", vec!["7"; n].join(","));
        let value = parse_presized(&array, &scan(&array, 64)).expect("valid");
        let items = value.as_array().expect("array");
        assert_eq!((items.len(), items.capacity()), (n, n));
        let distinct = (0..n).map(|i| format!(r#""k{i}":{i}"#));
        let repeated = (0..n).map(|i| format!(r#""k{}":{i}"#, i % 5));
        let mixed = (0..n).map(|i| format!(r#""k{}":{i}"#, i % (FIRST_RESERVE + 3)));
        for members in [
            distinct.collect::<Vec<_>>(),
            repeated.collect(),
            mixed.collect(),
        ] {
            let text = format!("{{{}}}", members.join(","));
            assert!(agrees(&text), "{}", &text[..40]);
            let broken = format!("{{{},]", members.join(","));
            assert!(agrees(&broken));
        }
    }

    /// The same outcome as `serde_json::from_str`, value or error message.
    fn agrees(text: &str) -> bool {
        let ours = parse_presized(text, &scan(text, 64)).map_err(|e| e.to_string());
        let theirs = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
        ours == theirs
    }

    /// Texts spelled from JSON tokens in random order: mostly invalid, often valid, with
    /// strings holding brackets, commas and escaped quotes.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn token_soup_parses_as_serde_json_does(tokens: Vec<u8>) -> bool {
        const TOKENS: [&str; 14] = [
            "[",
            "]",
            "{",
            "}",
            ",",
            ":",
            r#""a""#,
            r#""[,\"}""#,
            "1",
            "-2.5e3",
            "null",
            " ",
            "\"",
            "true",
        ];
        agrees(&super::super::json_gen::token_soup(&tokens, &TOKENS))
    }

    /// Valid values with containers of up to 40 members (past the hint threshold),
    /// duplicate keys included, compact and pretty.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn valid_values_parse_as_serde_json_does(shape: Vec<(u8, u8)>) -> bool {
        fn build(shape: &mut std::slice::Iter<'_, (u8, u8)>, depth: usize) -> String {
            let Some(&(kind, n)) = shape.next() else {
                return "0".to_owned();
            };
            let n = usize::from(n % 41);
            match (kind % 4, depth < 4) {
                (0, true) => {
                    let items: Vec<String> = (0..n).map(|_| build(shape, depth + 1)).collect();
                    format!("[{}]", items.join(","))
                }
                (1, true) => {
                    let members: Vec<String> = (0..n)
                        .map(|i| format!(r#""k{}":{}"#, i % 7 + i / 9, build(shape, depth + 1)))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
                (2, _) => format!(r#""s,]{{\"{n}""#),
                _ => format!("{}", i64::from(kind) - 100),
            }
        }
        super::super::json_gen::compact_and_pretty(build(&mut shape.iter(), 0))
            .is_some_and(|texts| texts.iter().all(|t| agrees(t)))
    }

    #[test]
    fn errors_are_serde_jsons_own() {
        for text in ["", "[1,]", "{\"a\" 1}", "[1] x", "[1", "{\"a\":1,}"] {
            let ours = parse_presized(text, &scan(text, 64)).map_err(|e| e.to_string());
            let theirs = serde_json::from_str::<Value>(text).map_err(|e| e.to_string());
            assert_eq!(ours, theirs, "{text}");
        }
    }
}
