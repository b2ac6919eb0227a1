//! A kept manifest: one JSON document in a few flat buffers.
//!
//! A registry keeps every capability's manifest for the rest of its life: cross-validation
//! of later overlays, the index views and the bindings' compat output read it. Kept as a
//! `serde_json::Value`, a feature manifest is about 40 heap blocks (one per key and per
//! string, two per object), and a registry of 10,000 overlays is 400,000 blocks in 30 MB
//! that every later reader and the final drop walk cold, block by block. [`JsonDoc`] holds
//! the same content in at most five buffers, whatever its size: the values ([`JsonRef`]
//! reads them by position), the object keys, all the string bytes, the numbers, and a
//! sorted key order for the rare object too large to search key by key.
//!
//! Layout: the children of each array or object are consecutive values, so an array is a
//! range and an object a range of values beside a range of keys. The content and its
//! semantics are the value it was built from: members in document order, keys unique, and
//! numbers kept as `serde_json` parsed them (so a document prints as its value printed).

mod parse;

use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, MapDeserializer, SeqDeserializer};
use serde::de::{IntoDeserializer, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Number;

use crate::error::{Error, ErrorCode};
use crate::json::{Json, JsonObject, Kind, LINEAR_LOOKUP_MAX};

/// A position range in one of the document's buffers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.start as usize + self.len as usize
    }
}

/// One value of the document (16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Null,
    Bool(bool),
    /// Position in `numbers`.
    Number(u32),
    /// Bytes of `text`.
    String(Span),
    /// Items at `values[first..first + len]`.
    Array {
        first: u32,
        len: u32,
    },
    /// Members' values at `values[first..first + len]`, their keys at
    /// `keys[keys..keys + len]`.
    Object {
        first: u32,
        len: u32,
        keys: u32,
    },
}

/// An immutable JSON document in flat buffers (see the module docs).
///
/// ```
/// use gsd_core::doc::JsonDoc;
/// use serde_json::json;
///
/// let value = json!({"id": "notes", "skills": ["notes-add", "notes-list"], "n": 2});
/// let doc = JsonDoc::from_value(&value)?;
/// let root = doc.root();
/// assert_eq!(root.field("id").and_then(|v| v.as_str()), Some("notes"));
/// let skills: Vec<&str> = root.field("skills").and_then(|v| v.as_array()).into_iter()
///     .flatten().filter_map(|s| s.as_str()).collect();
/// assert_eq!(skills, ["notes-add", "notes-list"]);
/// assert_eq!(doc.to_value(), value);
/// assert_eq!(doc.to_string(), value.to_string());
/// # Ok::<(), gsd_core::Error>(())
/// ```
#[derive(Clone)]
pub struct JsonDoc {
    /// Every value; the root is the first.
    values: Box<[Slot]>,
    /// Every object's keys, each object's in document order.
    keys: Box<[Span]>,
    /// Empty unless some object has more than [`LINEAR_LOOKUP_MAX`] members; then parallel
    /// to `keys`, holding for each such object its member positions sorted by key.
    sorted: Box<[u32]>,
    numbers: Box<[Number]>,
    /// The bytes of every key and string, decoded.
    text: Box<str>,
}

/// What a document is built from: a value of either JSON type, or part of another
/// document. One builder serves both, reading each value's shape and then its children.
trait Source<'s>: Copy {
    fn shape(self) -> Shape<'s>;
    /// Each item of an array (with `""` for its key), or each member of an object, in order.
    fn each_child(self, f: impl FnMut(&'s str, Self));
}

/// One value's kind, with its scalar content and, for a container, its child count.
enum Shape<'s> {
    Null,
    Bool(bool),
    Number(&'s Number),
    String(&'s str),
    Array(usize),
    Object(usize),
}

impl<'s, J: Json> Source<'s> for &'s J {
    fn shape(self) -> Shape<'s> {
        match self.kind() {
            Kind::Null => Shape::Null,
            Kind::Bool(b) => Shape::Bool(b),
            Kind::Number(n) => Shape::Number(n),
            Kind::String(s) => Shape::String(s),
            Kind::Array(items) => Shape::Array(items.len()),
            Kind::Object(map) => Shape::Object(map.member_count()),
        }
    }

    fn each_child(self, mut f: impl FnMut(&'s str, Self)) {
        match self.kind() {
            Kind::Array(items) => items.iter().for_each(|item| f("", item)),
            Kind::Object(map) => map.members().for_each(|(key, value)| f(key, value)),
            _ => {}
        }
    }
}

impl<'a> Source<'a> for JsonRef<'a> {
    fn shape(self) -> Shape<'a> {
        match self.slot() {
            Slot::Null => Shape::Null,
            Slot::Bool(b) => Shape::Bool(b),
            Slot::Number(i) => Shape::Number(&self.doc.numbers[i as usize]),
            Slot::String(span) => Shape::String(self.doc.str(span)),
            Slot::Array { len, .. } => Shape::Array(len as usize),
            Slot::Object { len, .. } => Shape::Object(len as usize),
        }
    }

    fn each_child(self, mut f: impl FnMut(&'a str, Self)) {
        if let Some(items) = self.as_array() {
            items.for_each(|item| f("", item));
        } else if let Some(object) = self.as_object() {
            object.iter().for_each(|(key, value)| f(key, value));
        }
    }
}

/// Sizes of every buffer, measured before any is allocated.
#[derive(Default)]
struct Sizes {
    values: usize,
    keys: usize,
    numbers: usize,
    text: usize,
    large_object: bool,
}

impl Sizes {
    /// Counts every buffer of the document of `root` (a walk without recursion: a value
    /// built by hand may be deeper than any parsed one).
    fn of<'s, S: Source<'s>>(root: S) -> Sizes {
        let mut sizes = Sizes {
            values: 1,
            ..Sizes::default()
        };
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            match v.shape() {
                Shape::Null | Shape::Bool(_) => {}
                Shape::Number(_) => sizes.numbers += 1,
                Shape::String(s) => sizes.text += s.len(),
                Shape::Array(n) | Shape::Object(n) => {
                    let object = matches!(v.shape(), Shape::Object(_));
                    sizes.values += n;
                    if object {
                        sizes.keys += n;
                        sizes.large_object |= n > LINEAR_LOOKUP_MAX;
                    }
                    v.each_child(|key, child| {
                        sizes.text += key.len();
                        stack.push(child);
                    });
                }
            }
        }
        sizes
    }

    /// `MANIFEST_TOO_LARGE` unless every position of the document fits `u32` (keys and
    /// numbers are fewer than values).
    fn check(&self) -> Result<(), Error> {
        for (n, what) in [(self.text, "bytes of text"), (self.values, "values")] {
            if u32::try_from(n).is_err() {
                return Err(Error::new(
                    ErrorCode::ManifestTooLarge,
                    format!("a kept manifest holds at most {} {what}, not {n}", u32::MAX),
                ));
            }
        }
        Ok(())
    }
}

/// A position in a document whose sizes passed [`Sizes::check`], so it fits `u32`.
fn pos(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Sorts `order` (member positions `0..n` of one object) by key bytes: the lookup order of
/// an object past [`LINEAR_LOOKUP_MAX`] members.
fn sort_by_key(order: &mut [u32], keys: &[Span], text: &[u8]) {
    for (i, slot) in order.iter_mut().enumerate() {
        *slot = pos(i);
    }
    order.sort_unstable_by(|&x, &y| {
        text[keys[x as usize].range()].cmp(&text[keys[y as usize].range()])
    });
}

impl JsonDoc {
    /// The document of a `serde_json` value, with the same content. Building it takes any
    /// depth; printing it (`Display`, `Debug`, `Serialize`, [`Self::to_value`]) recurses
    /// once per level, as `serde_json` does for a `Value`. Every document the crate builds
    /// is a manifest, at most [`crate::validate::MAX_MANIFEST_DEPTH`] levels deep; a caller's value nested
    /// thousands of levels deep can exhaust a thread's stack when printed, so check its
    /// depth first.
    ///
    /// # Errors
    ///
    /// `MANIFEST_TOO_LARGE` when the value holds more than 4 GiB of text or more than
    /// 2³² values (positions are kept as `u32`; a manifest is at most a few MiB).
    pub fn from_value(value: &serde_json::Value) -> Result<JsonDoc, Error> {
        JsonDoc::of(value)
    }

    /// The document of either JSON value type, with the same content.
    pub(crate) fn of<J: Json>(root: &J) -> Result<JsonDoc, Error> {
        let sizes = Sizes::of(root);
        sizes.check()?;
        Ok(JsonDoc::build(root, &sizes))
    }

    /// Fills each buffer, allocated once at its measured size that passed the check.
    fn build<'s, S: Source<'s>>(root: S, sizes: &Sizes) -> JsonDoc {
        let mut values = Vec::with_capacity(sizes.values);
        let mut keys: Vec<Span> = Vec::with_capacity(sizes.keys);
        let mut sorted = if sizes.large_object {
            vec![0; sizes.keys]
        } else {
            Vec::new()
        };
        let mut numbers = Vec::with_capacity(sizes.numbers);
        let mut text = String::with_capacity(sizes.text);
        values.push(Slot::Null);
        // (position, value) pairs still to fill; children are reserved by their parent.
        let mut stack: Vec<(usize, S)> = vec![(0, root)];
        while let Some((at, v)) = stack.pop() {
            let slot = match v.shape() {
                Shape::Null => Slot::Null,
                Shape::Bool(x) => Slot::Bool(x),
                Shape::Number(n) => {
                    numbers.push(n.clone());
                    Slot::Number(pos(numbers.len() - 1))
                }
                Shape::String(s) => {
                    let start = pos(text.len());
                    text.push_str(s);
                    Slot::String(Span {
                        start,
                        len: pos(s.len()),
                    })
                }
                Shape::Array(n) | Shape::Object(n) => {
                    let object = matches!(v.shape(), Shape::Object(_));
                    let first = values.len();
                    let first_key = keys.len();
                    values.resize(first + n, Slot::Null);
                    let mut i = first;
                    v.each_child(|key, child| {
                        if object {
                            let start = pos(text.len());
                            text.push_str(key);
                            keys.push(Span {
                                start,
                                len: pos(key.len()),
                            });
                        }
                        stack.push((i, child));
                        i += 1;
                    });
                    if object {
                        if n > LINEAR_LOOKUP_MAX {
                            let order = &mut sorted[first_key..first_key + n];
                            sort_by_key(order, &keys[first_key..], text.as_bytes());
                        }
                        Slot::Object {
                            first: pos(first),
                            len: pos(n),
                            keys: pos(first_key),
                        }
                    } else {
                        Slot::Array {
                            first: pos(first),
                            len: pos(n),
                        }
                    }
                }
            };
            values[at] = slot;
        }
        JsonDoc {
            values: values.into_boxed_slice(),
            keys: keys.into_boxed_slice(),
            sorted: sorted.into_boxed_slice(),
            numbers: numbers.into_boxed_slice(),
            text: text.into_boxed_str(),
        }
    }

    /// The root value.
    #[must_use]
    pub fn root(&self) -> JsonRef<'_> {
        JsonRef { doc: self, at: 0 }
    }

    /// The value under `key` of the root object (see [`JsonRef::field`]).
    #[must_use]
    pub fn field(&self, key: &str) -> Option<JsonRef<'_>> {
        self.root().field(key)
    }

    /// The `serde_json` value with the same content.
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        self.root().to_value()
    }

    fn str(&self, span: Span) -> &str {
        &self.text[span.range()]
    }
}

/// One value of a [`JsonDoc`], read in place (a position; copying it copies nothing else).
#[derive(Clone, Copy)]
pub struct JsonRef<'a> {
    doc: &'a JsonDoc,
    at: u32,
}

impl<'a> JsonRef<'a> {
    fn slot(self) -> Slot {
        self.doc.values[self.at as usize]
    }

    fn at(self, at: u32) -> JsonRef<'a> {
        JsonRef { doc: self.doc, at }
    }

    /// Whether this is `null`.
    #[must_use]
    pub fn is_null(self) -> bool {
        self.slot() == Slot::Null
    }

    /// The boolean, when this is one.
    #[must_use]
    pub fn as_bool(self) -> Option<bool> {
        match self.slot() {
            Slot::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number, when this is one.
    #[must_use]
    pub fn as_number(self) -> Option<&'a Number> {
        match self.slot() {
            Slot::Number(i) => Some(&self.doc.numbers[i as usize]),
            _ => None,
        }
    }

    /// The string, when this is one.
    #[must_use]
    pub fn as_str(self) -> Option<&'a str> {
        match self.slot() {
            Slot::String(span) => Some(self.doc.str(span)),
            _ => None,
        }
    }

    /// Whether this is a string.
    #[must_use]
    pub fn is_string(self) -> bool {
        matches!(self.slot(), Slot::String(_))
    }

    /// The items, when this is an array.
    #[must_use]
    pub fn as_array(self) -> Option<Items<'a>> {
        match self.slot() {
            Slot::Array { first, len } => Some(Items {
                doc: self.doc,
                next: first,
                end: first + len,
            }),
            _ => None,
        }
    }

    /// Whether this is an array.
    #[must_use]
    pub fn is_array(self) -> bool {
        matches!(self.slot(), Slot::Array { .. })
    }

    /// The members, when this is an object.
    #[must_use]
    pub fn as_object(self) -> Option<Object<'a>> {
        match self.slot() {
            Slot::Object { first, len, keys } => Some(Object {
                doc: self.doc,
                first,
                len,
                keys,
            }),
            _ => None,
        }
    }

    /// Whether this is an object.
    #[must_use]
    pub fn is_object(self) -> bool {
        matches!(self.slot(), Slot::Object { .. })
    }

    /// The value under `key`, when this is an object that has it.
    #[must_use]
    pub fn field(self, key: &str) -> Option<JsonRef<'a>> {
        self.as_object()?.get(key)
    }

    /// A document of its own holding this value (a copy: the result owns its buffers).
    #[must_use]
    pub fn to_doc(self) -> JsonDoc {
        // A part of a document is no larger than the document, which passed the check.
        JsonDoc::build(self, &Sizes::of(self))
    }

    /// The `serde_json` value with the same content.
    #[must_use]
    pub fn to_value(self) -> serde_json::Value {
        use serde_json::Value;
        // Plain loops, one frame per level of nesting: the iterator adaptors of a
        // `collect` add several, and tools that walk the stack (valgrind keeps 64 callers
        // to match its suppressions) lose the caller of a deep value.
        match self.slot() {
            Slot::Null => Value::Null,
            Slot::Bool(b) => Value::Bool(b),
            Slot::Number(i) => Value::Number(self.doc.numbers[i as usize].clone()),
            Slot::String(span) => Value::String(self.doc.str(span).to_owned()),
            Slot::Array { first, len } => {
                let mut items = Vec::with_capacity(len as usize);
                for i in first..first + len {
                    items.push(self.at(i).to_value());
                }
                Value::Array(items)
            }
            Slot::Object { len, .. } => {
                let mut map = serde_json::Map::with_capacity(len as usize);
                if let Some(object) = self.as_object() {
                    for i in 0..len {
                        map.insert(object.key(i).to_owned(), object.value(i).to_value());
                    }
                }
                Value::Object(map)
            }
        }
    }
}

/// The items of an array, in order.
#[derive(Debug, Clone)]
pub struct Items<'a> {
    doc: &'a JsonDoc,
    next: u32,
    end: u32,
}

impl<'a> Iterator for Items<'a> {
    type Item = JsonRef<'a>;

    fn next(&mut self) -> Option<JsonRef<'a>> {
        (self.next < self.end).then(|| {
            self.next += 1;
            JsonRef {
                doc: self.doc,
                at: self.next - 1,
            }
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.end - self.next) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Items<'_> {}

impl DoubleEndedIterator for Items<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.next < self.end).then(|| {
            self.end -= 1;
            JsonRef {
                doc: self.doc,
                at: self.end,
            }
        })
    }
}

/// The members of an object, in document order.
#[derive(Debug, Clone, Copy)]
pub struct Object<'a> {
    doc: &'a JsonDoc,
    first: u32,
    len: u32,
    keys: u32,
}

impl<'a> Object<'a> {
    /// Number of members.
    #[must_use]
    pub fn len(self) -> usize {
        self.len as usize
    }

    /// Whether the object has no members.
    #[must_use]
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    fn key(self, i: u32) -> &'a str {
        self.doc.str(self.doc.keys[(self.keys + i) as usize])
    }

    fn value(self, i: u32) -> JsonRef<'a> {
        JsonRef {
            doc: self.doc,
            at: self.first + i,
        }
    }

    /// The value under `key`: small objects are searched key by key, large ones through
    /// their sorted key order.
    #[must_use]
    pub fn get(self, key: &str) -> Option<JsonRef<'a>> {
        let keys = &self.doc.keys[self.keys as usize..(self.keys + self.len) as usize];
        let text = self.doc.text.as_bytes();
        let found = if keys.len() <= LINEAR_LOOKUP_MAX {
            // Lengths first: most keys of an object differ in length from the one sought.
            keys.iter()
                .position(|k| k.len as usize == key.len() && text[k.range()] == *key.as_bytes())?
        } else {
            let order = &self.doc.sorted[self.keys as usize..(self.keys + self.len) as usize];
            let at = order
                .binary_search_by(|&i| text[keys[i as usize].range()].cmp(key.as_bytes()))
                .ok()?;
            order[at] as usize
        };
        Some(self.value(u32::try_from(found).ok()?))
    }

    /// Whether the object has `key`.
    #[must_use]
    pub fn contains_key(self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `(key, value)` in document order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = (&'a str, JsonRef<'a>)> + Clone {
        (0..self.len).map(move |i| (self.key(i), self.value(i)))
    }

    /// The keys in document order.
    pub fn keys(self) -> impl ExactSizeIterator<Item = &'a str> + Clone {
        (0..self.len).map(move |i| self.key(i))
    }
}

impl Serialize for JsonRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.slot() {
            Slot::Null => serializer.serialize_unit(),
            Slot::Bool(b) => serializer.serialize_bool(b),
            Slot::Number(i) => self.doc.numbers[i as usize].serialize(serializer),
            Slot::String(span) => serializer.serialize_str(self.doc.str(span)),
            Slot::Array { first, len } => {
                let mut seq = serializer.serialize_seq(Some(len as usize))?;
                for i in first..first + len {
                    seq.serialize_element(&self.at(i))?;
                }
                seq.end()
            }
            Slot::Object { .. } => {
                let object = self.as_object().into_iter().flat_map(Object::iter);
                let mut map =
                    serializer.serialize_map(Some(self.as_object().map_or(0, Object::len)))?;
                for (k, v) in object {
                    map.serialize_entry(k, &v)?;
                }
                map.end()
            }
        }
    }
}

impl Serialize for JsonDoc {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.root().serialize(serializer)
    }
}

/// Compact JSON text, as `serde_json::Value` prints.
impl fmt::Display for JsonRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl fmt::Display for JsonDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.root().fmt(f)
    }
}

impl fmt::Debug for JsonRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Debug for JsonDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "JsonDoc({self})")
    }
}

/// A value of the document read by `serde` in place, as a `&serde_json::Value` is: strings
/// and keys are lent, not copied, so a typed view (a runtime descriptor) is built from a
/// kept document without a `serde_json::Value` in between.
impl<'de> serde::Deserializer<'de> for JsonRef<'de> {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.slot() {
            Slot::Null => visitor.visit_unit(),
            Slot::Bool(b) => visitor.visit_bool(b),
            Slot::Number(i) => self.doc.numbers[i as usize]
                .clone()
                .deserialize_any(visitor),
            Slot::String(span) => visitor.visit_borrowed_str(self.doc.str(span)),
            Slot::Array { first, len } => {
                let mut items = SeqDeserializer::new((first..first + len).map(|i| self.at(i)));
                let value = visitor.visit_seq(&mut items)?;
                items.end()?;
                Ok(value)
            }
            Slot::Object { .. } => {
                let members = self.as_object().into_iter().flat_map(Object::iter);
                let mut map = MapDeserializer::new(
                    members.map(|(k, v)| (BorrowedStrDeserializer::<Self::Error>::new(k), v)),
                );
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        if self.is_null() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.slot() {
            // A unit variant by name; the descriptor's enums are all spelled as strings.
            Slot::String(span) => visitor.visit_enum(BorrowedStrDeserializer::<Self::Error>::new(
                self.doc.str(span),
            )),
            _ => self.deserialize_any(visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, serde_json::Error> for JsonRef<'de> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// Equal content: the same values, members in the same order (however the buffers were
/// laid out). Compared without recursion.
impl PartialEq for JsonRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        let mut stack = vec![(*self, *other)];
        while let Some((a, b)) = stack.pop() {
            match (a.slot(), b.slot()) {
                (Slot::Null, Slot::Null) => {}
                (Slot::Bool(x), Slot::Bool(y)) if x == y => {}
                (Slot::Number(_), Slot::Number(_)) if a.as_number() == b.as_number() => {}
                (Slot::String(_), Slot::String(_)) if a.as_str() == b.as_str() => {}
                (Slot::Array { len: m, .. }, Slot::Array { len: n, .. }) if m == n => {
                    stack.extend(
                        a.as_array()
                            .into_iter()
                            .flatten()
                            .zip(b.as_array().into_iter().flatten()),
                    );
                }
                (Slot::Object { len: m, .. }, Slot::Object { len: n, .. }) if m == n => {
                    let (x, y) = (
                        a.as_object().into_iter().flat_map(Object::iter),
                        b.as_object().into_iter().flat_map(Object::iter),
                    );
                    for ((kx, vx), (ky, vy)) in x.zip(y) {
                        if kx != ky {
                            return false;
                        }
                        stack.push((vx, vy));
                    }
                }
                _ => return false,
            }
        }
        true
    }
}

impl PartialEq for JsonDoc {
    fn eq(&self, other: &Self) -> bool {
        self.root() == other.root()
    }
}

impl PartialEq<serde_json::Value> for JsonRef<'_> {
    fn eq(&self, other: &serde_json::Value) -> bool {
        self.to_value() == *other
    }
}

#[cfg(test)]
mod tests {
    use quickcheck::TestResult;
    use quickcheck_macros::quickcheck;
    use serde::Deserialize as _;
    use serde_json::{Value, json};

    use super::*;

    fn doc(v: &Value) -> JsonDoc {
        JsonDoc::from_value(v).expect("small value")
    }

    #[test]
    fn reads_what_the_value_holds() {
        let v = json!({
            "id": "notes", "n": -3, "f": 1.5, "big": 18_446_744_073_709_551_615_u64, "t": true,
            "z": null, "list": ["a", {"deep": ["x", []]}, 2], "esc": "q\"\\\n\u{e9}", "": "empty key"
        });
        let d = doc(&v);
        let root = d.root();
        assert_eq!(root.field("id").and_then(JsonRef::as_str), Some("notes"));
        assert_eq!(
            root.field("n").and_then(JsonRef::as_number),
            Some(&Number::from(-3))
        );
        assert_eq!(
            root.field("big")
                .and_then(JsonRef::as_number)
                .and_then(Number::as_u64),
            Some(u64::MAX)
        );
        assert_eq!(
            root.field("f")
                .and_then(JsonRef::as_number)
                .and_then(Number::as_f64),
            Some(1.5)
        );
        assert_eq!(root.field("t").and_then(JsonRef::as_bool), Some(true));
        assert!(root.field("z").is_some_and(JsonRef::is_null));
        assert!(root.field("missing").is_none());
        assert_eq!(root.field("").and_then(JsonRef::as_str), Some("empty key"));
        assert_eq!(
            root.field("esc").and_then(JsonRef::as_str),
            Some("q\"\\\n\u{e9}")
        );
        let list: Vec<JsonRef<'_>> = root
            .field("list")
            .and_then(JsonRef::as_array)
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(list.len(), 3);
        assert_eq!(list[0].as_str(), Some("a"));
        assert!(list[1].field("deep").is_some_and(|d| d == json!(["x", []])));
        assert!(list[2].as_str().is_none() && list[2].field("x").is_none());
        assert_eq!(root.as_object().map(Object::len), Some(9));
        assert_eq!(d.to_value(), v);
        assert_eq!(d.to_string(), v.to_string());
        assert_eq!(
            serde_json::to_string_pretty(&d).unwrap(),
            serde_json::to_string_pretty(&v).unwrap()
        );
    }

    #[test]
    fn scalars_and_empty_containers_are_documents_too() {
        for v in [
            json!(null),
            json!(false),
            json!(7),
            json!("s"),
            json!([]),
            json!({}),
        ] {
            let d = doc(&v);
            assert_eq!(d.to_value(), v);
            assert_eq!(d.to_string(), v.to_string());
        }
        assert!(
            doc(&json!([]))
                .root()
                .as_array()
                .is_some_and(|a| a.len() == 0)
        );
        assert!(
            doc(&json!({}))
                .root()
                .as_object()
                .is_some_and(Object::is_empty)
        );
    }

    #[test]
    fn a_typical_manifest_is_five_blocks_at_most() {
        let v = json!({"id": "x", "skills": ["a", "b"], "config": {"k": {"type": "string"}}, "version": 1});
        let d = doc(&v);
        // values, keys, numbers, text: the sorted order is empty (no large object).
        assert!(d.sorted.is_empty());
        assert_eq!(d.values.len(), 1 + 4 + 2 + 1 + 1);
        assert_eq!(d.keys.len(), 4 + 1 + 1);
        assert_eq!(d.numbers.len(), 1);
        assert_eq!(d.text.len(), "idskillsconfigversionxabktypestring".len());
    }

    #[test]
    fn large_objects_are_found_through_their_sorted_keys() {
        let map: serde_json::Map<String, Value> = (0..1000)
            .rev()
            .map(|i| (format!("k{i}"), json!(i)))
            .collect();
        let v = json!({"small": {"a": 1}, "large": map});
        let d = doc(&v);
        assert_eq!(d.sorted.len(), d.keys.len());
        let large = d.field("large").and_then(JsonRef::as_object).unwrap();
        for i in 0..1000 {
            let key = format!("k{i}");
            assert_eq!(
                large
                    .get(&key)
                    .and_then(JsonRef::as_number)
                    .and_then(Number::as_u64),
                Some(i),
                "{key}"
            );
        }
        assert!(large.get("k1000").is_none() && large.get("").is_none());
        // Document order is kept for iteration.
        assert_eq!(large.keys().next(), Some("k999"));
        assert_eq!(
            d.field("small")
                .and_then(|s| s.field("a"))
                .and_then(JsonRef::as_number),
            Some(&Number::from(1))
        );
        assert_eq!(d.to_value(), v);
    }

    #[test]
    fn typed_values_deserialize_from_the_document_as_from_the_value() {
        #[derive(Debug, PartialEq, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Typed<'a> {
            name: String,
            #[serde(borrow)]
            lent: std::borrow::Cow<'a, str>,
            count: u32,
            ratio: f64,
            maybe: Option<bool>,
            absent: Option<bool>,
            list: Vec<i64>,
            kind: crate::vocab::Scope,
            nested: std::collections::BTreeMap<String, serde_json::Value>,
        }
        let v = json!({"name": "n", "lent": "borrowed", "count": 3, "ratio": 0.5, "maybe": null,
            "list": [-1, 2], "kind": "local", "nested": {"a": [1, {"b": null}]}, "extra": true});
        let d = doc(&v);
        let from_doc = Typed::deserialize(d.root()).expect("doc");
        let from_value: Typed<'_> = serde::Deserialize::deserialize(&v).expect("value");
        assert_eq!(from_doc, from_value);
        assert!(
            matches!(from_doc.lent, std::borrow::Cow::Borrowed(_)),
            "a string is lent"
        );
        // Errors are serde's, as from a value.
        let bad = doc(&json!({"name": 1}));
        let err = Typed::deserialize(bad.root()).expect_err("wrong type");
        assert_eq!(
            err.to_string(),
            "invalid type: integer `1`, expected a string"
        );
    }

    #[test]
    fn deep_values_are_built_without_recursion() {
        let mut v = json!("leaf");
        for _ in 0..100_000 {
            v = Value::Array(vec![v]);
        }
        let d = doc(&v);
        let mut at = d.root();
        for _ in 0..100_000 {
            at = at.as_array().and_then(|mut a| a.next()).expect("nested");
        }
        assert_eq!(at.as_str(), Some("leaf"));
        // serde_json's own drop of so deep a value recurses; take it apart by hand.
        let mut v = v;
        while let Value::Array(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn the_borrowed_value_builds_the_same_document() {
        let text = r#"{"a": "x\ny", "b": [1, 2.5, {"c": null}], "a2": {}}"#;
        let serde: Value = serde_json::from_str(text).unwrap();
        let borrowed = crate::json::Value::of(&serde);
        assert!(JsonDoc::of(&borrowed).unwrap() == doc(&serde));
    }

    pub(super) fn arbitrary_value(seed: &[u8]) -> Value {
        // A small tree from bytes: each byte picks a shape, so shrinking keeps it valid.
        fn build(bytes: &mut std::slice::Iter<'_, u8>, depth: u8) -> Value {
            match bytes.next().map(|b| (b % 7, *b)) {
                None | Some((0, _)) => Value::Null,
                Some((1, b)) => Value::Bool(b % 2 == 0),
                Some((2, b)) => json!(i64::from(b) - 100),
                Some((3, b)) => json!(f64::from(b) / 8.0),
                Some((4, b)) => Value::String(format!("s{b}\u{e9}")),
                Some((5, b)) if depth < 6 => {
                    Value::Array((0..b % 4).map(|_| build(bytes, depth + 1)).collect())
                }
                Some((_, b)) if depth < 6 => Value::Object(
                    (0..b % 30)
                        .map(|i| (format!("k{}", (b / 3 + i) % 40), build(bytes, depth + 1)))
                        .collect(),
                ),
                Some(_) => Value::Null,
            }
        }
        build(&mut seed.iter(), 0)
    }

    #[quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn every_value_round_trips(seed: Vec<u8>) -> TestResult {
        let v = arbitrary_value(&seed);
        let d = doc(&v);
        let (printed, want) = (d.to_string(), v.to_string());
        TestResult::from_bool(d.root() == v && printed == want)
    }

    #[quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn every_subtree_copies_into_a_document_of_its_own(seed: Vec<u8>, path: Vec<u8>) -> bool {
        let v = arbitrary_value(&seed);
        let d = doc(&v);
        // Walk down by `path` (each byte picks a child), comparing at every level.
        let (mut at, mut want) = (d.root(), &v);
        for step in path {
            let copy = at.to_doc();
            if copy.root() != *want || copy != doc(want) {
                return false;
            }
            let next = match want {
                Value::Array(items) if !items.is_empty() => {
                    let i = usize::from(step) % items.len();
                    at.as_array()
                        .and_then(|mut a| a.nth(i))
                        .map(|r| (r, &items[i]))
                }
                Value::Object(map) if !map.is_empty() => {
                    let i = usize::from(step) % map.len();
                    let (key, value) = map.iter().nth(i).expect("in range");
                    at.field(key).map(|r| (r, value))
                }
                _ => break,
            };
            let Some(next) = next else { return false };
            (at, want) = next;
        }
        true
    }

    #[quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn every_member_is_found_by_its_key(seed: Vec<u8>, probes: Vec<u8>) -> bool {
        let v = arbitrary_value(&seed);
        let d = doc(&v);
        let Some(map) = v.as_object() else {
            return true;
        };
        let object = d.root().as_object().expect("object");
        probes.iter().all(|p| {
            let key = format!("k{}", p % 45);
            match (map.get(&key), object.get(&key)) {
                (Some(want), Some(got)) => got == *want,
                (None, None) => true,
                _ => false,
            }
        })
    }
}
