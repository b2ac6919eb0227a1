//! JSON text straight into a [`JsonDoc`], for a manifest too large to hold twice.
//!
//! [`JsonDoc::of`] copies a value that exists already; for a manifest of many MiB (800k
//! keys) that value and the document together would double the peak. Here `serde_json`
//! reads the text and each value is written into the document's buffers as it ends: the
//! items or members of an open container wait on a stack, and move into place, contiguous,
//! when it closes. Repeated keys resolve as `serde_json::Value` (and `JSON.parse`) resolve
//! them: the last value, at the first key's position.

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::Number;

use super::{JsonDoc, LINEAR_LOOKUP_MAX, Slot, Span, sort_by_key};

/// The buffers being filled, and the items of the containers still open.
#[derive(Default)]
struct Stream {
    values: Vec<Slot>,
    keys: Vec<Span>,
    numbers: Vec<Number>,
    text: String,
    /// Items (and member values) of open containers, innermost last.
    open_values: Vec<Slot>,
    /// Member keys of open objects, innermost last.
    open_keys: Vec<Span>,
    /// `(first key, member count)` of each object past [`LINEAR_LOOKUP_MAX`] members.
    large: Vec<(u32, u32)>,
}

type Error = serde_json::Error;

fn position(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| {
        serde::de::Error::custom("a kept manifest holds at most 2^32 values and bytes of text")
    })
}

impl Stream {
    fn text(&mut self, s: &str) -> Result<Span, Error> {
        let start = position(self.text.len())?;
        self.text.push_str(s);
        position(self.text.len())?;
        Ok(Span {
            start,
            len: position(s.len())?,
        })
    }

    fn key(&self, span: Span) -> &[u8] {
        &self.text.as_bytes()[span.range()]
    }

    /// Closes the object whose members start at `mark` on the open stacks (keys, values).
    fn close_object(&mut self, mark: (usize, usize)) -> Result<Slot, Error> {
        self.merge_repeated(mark);
        let n = self.open_keys.len() - mark.0;
        let first = position(self.values.len())?;
        let keys = position(self.keys.len())?;
        self.values.extend(self.open_values.drain(mark.1..));
        self.keys.extend(self.open_keys.drain(mark.0..));
        let len = position(n)?;
        if n > LINEAR_LOOKUP_MAX {
            self.large.push((keys, len));
        }
        Ok(Slot::Object { first, len, keys })
    }

    /// Resolves repeated keys among the open members from `mark`: the last value moves to
    /// the first position and the later members go.
    fn merge_repeated(&mut self, (mark, value_mark): (usize, usize)) {
        let keys = &self.open_keys[mark..];
        let mut order: Vec<usize> = (0..keys.len()).collect();
        if keys.len() <= LINEAR_LOOKUP_MAX {
            let repeated = (1..keys.len())
                .any(|i| keys[..i].iter().any(|k| self.key(*k) == self.key(keys[i])));
            if !repeated {
                return;
            }
        }
        // Stable: a run of equal keys stays in document order.
        order.sort_by(|&a, &b| self.key(keys[a]).cmp(self.key(keys[b])));
        let mut keep = vec![true; keys.len()];
        let mut moves = Vec::new();
        for run in order.chunk_by(|&a, &b| self.key(keys[a]) == self.key(keys[b])) {
            if let [first, .., last] = run {
                moves.push((*first, *last));
                for &later in &run[1..] {
                    keep[later] = false;
                }
            }
        }
        if moves.is_empty() {
            return;
        }
        for (first, last) in moves {
            self.open_values[value_mark + first] = self.open_values[value_mark + last];
        }
        let mut i = 0;
        self.open_keys.retain(|_| {
            i += 1;
            i <= mark || keep[i - 1 - mark]
        });
        let mut i = 0;
        self.open_values.retain(|_| {
            i += 1;
            i <= value_mark || keep[i - 1 - value_mark]
        });
    }

    fn finish(mut self, root: Slot) -> JsonDoc {
        self.values[0] = root;
        let mut sorted = Vec::new();
        if !self.large.is_empty() {
            sorted = vec![0; self.keys.len()];
            for &(at, len) in &self.large {
                let (at, len) = (at as usize, len as usize);
                sort_by_key(
                    &mut sorted[at..at + len],
                    &self.keys[at..at + len],
                    self.text.as_bytes(),
                );
            }
        }
        JsonDoc {
            values: self.values.into_boxed_slice(),
            keys: self.keys.into_boxed_slice(),
            sorted: sorted.into_boxed_slice(),
            numbers: self.numbers.into_boxed_slice(),
            text: self.text.into_boxed_str(),
        }
    }
}

/// One value: read it, write it, return its slot.
struct Node<'s>(&'s mut Stream);

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Slot;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Slot, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Slot;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Slot, E> {
        Ok(Slot::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Slot, E> {
        Ok(Slot::Bool(b))
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Slot, E> {
        self.number(Number::from(n))
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Slot, E> {
        self.number(Number::from(n))
    }

    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Slot, E> {
        match Number::from_f64(n) {
            Some(n) => self.number(n),
            // What `serde_json::Value` makes of a float it cannot hold.
            None => Ok(Slot::Null),
        }
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Slot, E> {
        self.0.text(s).map(Slot::String).map_err(E::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Slot, A::Error> {
        let stream = self.0;
        let mark = stream.open_values.len();
        while let Some(slot) = seq.next_element_seed(Node(stream))? {
            stream.open_values.push(slot);
        }
        let first = position(stream.values.len()).map_err(serde::de::Error::custom)?;
        let len = position(stream.open_values.len() - mark).map_err(serde::de::Error::custom)?;
        stream.values.extend(stream.open_values.drain(mark..));
        Ok(Slot::Array { first, len })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Slot, A::Error> {
        let stream = self.0;
        let mark = (stream.open_keys.len(), stream.open_values.len());
        while let Some(key) = map.next_key_seed(Key(stream))? {
            let slot = map.next_value_seed(Node(stream))?;
            stream.open_keys.push(key);
            stream.open_values.push(slot);
        }
        stream.close_object(mark).map_err(serde::de::Error::custom)
    }
}

impl Node<'_> {
    fn number<E: serde::de::Error>(self, n: Number) -> Result<Slot, E> {
        self.0.numbers.push(n);
        position(self.0.numbers.len() - 1)
            .map(Slot::Number)
            .map_err(E::custom)
    }
}

/// One member key, written into the text.
struct Key<'s>(&'s mut Stream);

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = Span;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Span, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Key<'_> {
    type Value = Span;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Span, E> {
        self.0.text(s).map_err(E::custom)
    }
}

impl JsonDoc {
    /// The document of JSON `text`, with the content `serde_json::from_str::<Value>` gives
    /// it, built without that value.
    pub(crate) fn parse(text: &str) -> Result<JsonDoc, Error> {
        let mut stream = Stream::default();
        stream.values.push(Slot::Null);
        let mut reader = serde_json::Deserializer::from_str(text);
        let root = Node(&mut stream).deserialize(&mut reader)?;
        reader.end()?;
        Ok(stream.finish(root))
    }
}

#[cfg(test)]
mod tests {
    use quickcheck_macros::quickcheck;
    use serde_json::{Value, json};

    use super::*;
    use crate::doc::JsonRef;

    fn same(text: &str) {
        let value: Value = serde_json::from_str(text).expect("valid JSON");
        let doc = JsonDoc::parse(text).expect("valid JSON");
        assert_eq!(doc.to_value(), value, "{text}");
        assert_eq!(doc.to_string(), value.to_string(), "{text}");
        assert!(doc == JsonDoc::from_value(&value).expect("small"), "{text}");
    }

    #[test]
    fn parses_as_serde_json_does() {
        same(r#"{"a": [1, -2, 3.5, 1e300, true, null, "x\u00e9\n"], "b": {"c": {}}, "d": []}"#);
        same(r#"[[[]], {"": ""}, 18446744073709551615, -9223372036854775808]"#);
        same(r#""just a string""#);
        same("0");
    }

    #[test]
    fn repeated_keys_keep_the_first_position_and_the_last_value() {
        same(r#"{"a": 1, "b": 2, "a": 3}"#);
        same(r#"{"a": 1, "a": {"x": [1]}, "b": 2, "a": 4, "c": {"d": 1, "d": 2}}"#);
        let many: Vec<String> = (0..60).map(|i| format!("\"k{}\": {i}", i % 40)).collect();
        same(&format!("{{{}}}", many.join(",")));
        let doc = JsonDoc::parse(&format!("{{{}}}", many.join(","))).expect("valid");
        let root = doc.root().as_object().expect("object");
        assert_eq!(root.len(), 40);
        assert_eq!(
            root.get("k5")
                .and_then(JsonRef::as_number)
                .and_then(Number::as_u64),
            Some(45)
        );
        assert_eq!(root.keys().nth(5), Some("k5"));
    }

    #[test]
    fn large_objects_are_searchable() {
        let members: Vec<String> = (0..500)
            .rev()
            .map(|i| format!("\"key{i}\": [{i}]"))
            .collect();
        let text = format!("{{\"outer\": {{{}}}, \"z\": 1}}", members.join(","));
        same(&text);
        let doc = JsonDoc::parse(&text).expect("valid");
        let outer = doc
            .field("outer")
            .and_then(JsonRef::as_object)
            .expect("object");
        for i in 0..500 {
            assert!(
                outer
                    .get(&format!("key{i}"))
                    .is_some_and(|v| v == json!([i]))
            );
        }
    }

    #[test]
    fn errors_are_serde_jsons() {
        let err = JsonDoc::parse("{\"a\": }").expect_err("invalid");
        assert_eq!(
            err.to_string(),
            serde_json::from_str::<Value>("{\"a\": }")
                .expect_err("invalid")
                .to_string()
        );
        assert!(JsonDoc::parse("[1] 2").is_err());
    }

    #[quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn every_value_parses_back_to_itself(seed: Vec<u8>) -> bool {
        let v = super::super::tests::arbitrary_value(&seed);
        let text = v.to_string();
        let doc = JsonDoc::parse(&text).expect("printed JSON");
        doc.to_value() == v && doc == JsonDoc::from_value(&v).expect("small")
    }
}
