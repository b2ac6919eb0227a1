//! A JSON value that borrows its strings from the text it was read from, for validation.
//!
//! Validating a manifest only reads it: it never needs the value to own its strings or to
//! answer lookups through a hash index. `serde_json::Value` does both (every string is an
//! allocation, every object an order-preserving map that hashes each key with `SipHash`),
//! and building and dropping that value cost most of a validation. [`Value`] holds a
//! string as a slice of the text unless an escape forced a decoded copy, and an object as
//! its members in document order: small objects are searched key by key, and objects
//! past [`LINEAR_LOOKUP_MAX`] members carry a sorted index for binary search, so a hostile
//! object of many keys stays logarithmic per lookup.
//!
//! The semantics are `serde_json`'s (`preserve_order`), which are `JSON.parse`'s: members
//! in document order, a repeated key's last value at its first position.
//! [`Value::to_serde`] builds the `serde_json::Value` with the same content.
//!
//! [`Json`] and [`JsonObject`] are what the validators and the JavaScript-semantics
//! helpers (`js`) read, so they answer the same over both value types, and a
//! `serde_json::Value` is checked where it is, never copied into a [`Value`].

use std::borrow::Cow;

use serde_json::Number;

/// Objects of at most this many members are searched key by key (comparing a few short
/// keys costs less than any index); larger ones get a sorted index.
pub(crate) const LINEAR_LOOKUP_MAX: usize = 24;

/// A JSON value whose strings borrow from `'a` where they can.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Map<'a>),
}

/// A JSON object: members in document order, keys unique.
#[derive(Debug, Clone, Default)]
pub(crate) struct Map<'a> {
    members: Vec<(Cow<'a, str>, Value<'a>)>,
    /// Member positions sorted by key; empty when the object is small enough to scan.
    sorted: Box<[u32]>,
}

impl PartialEq for Map<'_> {
    fn eq(&self, other: &Self) -> bool {
        // The index is derived from the members.
        self.members == other.members
    }
}

impl<'a> Map<'a> {
    /// The object of `members` in document order; a repeated key keeps its first position
    /// and its last value (what `JSON.parse` and `serde_json` build).
    pub(crate) fn from_members(members: Vec<(Cow<'a, str>, Value<'a>)>) -> Self {
        if members.len() <= LINEAR_LOOKUP_MAX && !has_repeated_key(&members) {
            return Self::from_unique_members(members);
        }
        let order = sorted_positions(&members);
        if order
            .windows(2)
            .any(|w| members[w[0] as usize].0 == members[w[1] as usize].0)
        {
            Self::from_unique_members(merge_repeated(members, &order))
        } else {
            Map {
                members,
                sorted: order.into_boxed_slice(),
            }
        }
    }

    /// The object of `members` whose keys are known to be unique (a `serde_json` map's).
    fn from_unique_members(members: Vec<(Cow<'a, str>, Value<'a>)>) -> Self {
        let sorted = if members.len() <= LINEAR_LOOKUP_MAX {
            Box::default()
        } else {
            sorted_positions(&members).into_boxed_slice()
        };
        Map { members, sorted }
    }

    pub(crate) fn len(&self) -> usize {
        self.members.len()
    }

    /// The value under `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&Value<'a>> {
        if self.sorted.is_empty() {
            return self.members.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        }
        let at = self
            .sorted
            .binary_search_by(|&i| self.members[i as usize].0.as_ref().cmp(key))
            .ok()?;
        Some(&self.members[self.sorted[at] as usize].1)
    }

    /// Members in document order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value<'a>)> + Clone {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

impl<'m, 'a> IntoIterator for &'m Map<'a> {
    type Item = (&'m str, &'m Value<'a>);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'m, (Cow<'a, str>, Value<'a>)>,
        fn(&'m (Cow<'a, str>, Value<'a>)) -> (&'m str, &'m Value<'a>),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|(k, v)| (k.as_ref(), v))
    }
}

/// Whether two members of a small object share a key (lengths compared first: most
/// pairs of keys differ in length).
fn has_repeated_key(members: &[(Cow<'_, str>, Value<'_>)]) -> bool {
    members.iter().enumerate().any(|(i, (key, _))| {
        members[..i]
            .iter()
            .any(|(other, _)| other.len() == key.len() && other == key)
    })
}

/// Positions of `members` sorted by key, ties in document order.
fn sorted_positions(members: &[(Cow<'_, str>, Value<'_>)]) -> Vec<u32> {
    // Objects come from text of at most a few MiB: their member count fits in `u32`.
    let mut order: Vec<u32> = (0..members.len())
        .map(|i| u32::try_from(i).unwrap_or(u32::MAX))
        .collect();
    order.sort_by(|&a, &b| {
        members[a as usize]
            .0
            .cmp(&members[b as usize].0)
            .then(a.cmp(&b))
    });
    order
}

/// Each repeated key's last value moved to its first position, the later members dropped,
/// found through the sorted positions (each run of equal keys is in document order).
fn merge_repeated<'a>(
    members: Vec<(Cow<'a, str>, Value<'a>)>,
    order: &[u32],
) -> Vec<(Cow<'a, str>, Value<'a>)> {
    let mut dropped = vec![false; members.len()];
    let mut moves: Vec<(usize, usize)> = Vec::new();
    for run in order.chunk_by(|&a, &b| members[a as usize].0 == members[b as usize].0) {
        if let [first, .., last] = run {
            moves.push((*first as usize, *last as usize));
            for &later in &run[1..] {
                dropped[later as usize] = true;
            }
        }
    }
    let mut slots: Vec<Option<(Cow<'a, str>, Value<'a>)>> = members.into_iter().map(Some).collect();
    for (first, last) in moves {
        let last_value = slots[last].take().map(|(_, v)| v);
        if let (Some((_, slot)), Some(value)) = (slots[first].as_mut(), last_value) {
            *slot = value;
        }
    }
    slots
        .into_iter()
        .zip(dropped)
        .filter_map(|(slot, gone)| if gone { None } else { slot })
        .collect()
}

impl Value<'_> {
    /// The `serde_json` value with the same content.
    pub(crate) fn to_serde(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(s.clone().into_owned()),
            Value::Array(items) => {
                serde_json::Value::Array(items.iter().map(Value::to_serde).collect())
            }
            Value::Object(map) => {
                let mut out = serde_json::Map::with_capacity(map.len());
                for (k, v) in map {
                    out.insert(k.to_owned(), v.to_serde());
                }
                serde_json::Value::Object(out)
            }
        }
    }
}

#[cfg(test)]
impl<'a> Value<'a> {
    /// A view of a `serde_json` value, its strings borrowed (tests compare the two forms).
    pub(crate) fn of(value: &'a serde_json::Value) -> Self {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(Cow::Borrowed(s)),
            serde_json::Value::Array(items) => Value::Array(items.iter().map(Value::of).collect()),
            serde_json::Value::Object(map) => Value::Object(Map::from_unique_members(
                map.iter()
                    .map(|(k, v)| (Cow::Borrowed(k.as_str()), Value::of(v)))
                    .collect(),
            )),
        }
    }

    /// The same value owning its strings (a `serde_json` value already has unique keys;
    /// tests compare the two forms).
    pub(crate) fn owned(value: serde_json::Value) -> Value<'static> {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n),
            serde_json::Value::String(s) => Value::String(Cow::Owned(s)),
            serde_json::Value::Array(items) => {
                Value::Array(items.into_iter().map(Value::owned).collect())
            }
            serde_json::Value::Object(map) => Value::Object(Map::from_unique_members(
                map.into_iter()
                    .map(|(k, v)| (Cow::Owned(k), Value::owned(v)))
                    .collect(),
            )),
        }
    }
}

/// One JSON value as the JavaScript-semantics helpers read it, whichever type holds it.
#[derive(Debug)]
pub(crate) enum Kind<'v, J: Json> {
    Null,
    Bool(bool),
    Number(&'v Number),
    String(&'v str),
    Array(&'v [J]),
    Object(&'v J::Object),
}

/// A JSON value type: `serde_json::Value` or [`Value`].
pub(crate) trait Json: Sized {
    /// Its object type.
    type Object: JsonObject<Value = Self>;

    /// The value's kind, with its content borrowed.
    fn kind(&self) -> Kind<'_, Self>;

    /// The string, when this is one.
    fn as_str(&self) -> Option<&str> {
        match self.kind() {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The object, when this is one.
    fn as_object(&self) -> Option<&Self::Object> {
        match self.kind() {
            Kind::Object(map) => Some(map),
            _ => None,
        }
    }

    /// The items, when this is an array.
    fn as_array(&self) -> Option<&[Self]> {
        match self.kind() {
            Kind::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The value under `key`, when this is an object that has it (a property read as
    /// JavaScript does it: `undefined` otherwise).
    fn field(&self, key: &str) -> Option<&Self> {
        self.as_object().and_then(|o| o.member(key))
    }

    /// Whether this is `null`.
    fn is_null(&self) -> bool {
        matches!(self.kind(), Kind::Null)
    }

    /// Whether this is a string.
    fn is_string(&self) -> bool {
        matches!(self.kind(), Kind::String(_))
    }

    /// Whether this is `true` or `false`.
    fn is_boolean(&self) -> bool {
        matches!(self.kind(), Kind::Bool(_))
    }
}

/// A JSON object type, keys unique, members in document order.
pub(crate) trait JsonObject {
    /// Its value type.
    type Value: Json<Object = Self>;

    fn member_count(&self) -> usize;

    /// The value under `key`.
    fn member(&self, key: &str) -> Option<&Self::Value>;

    /// Members in document order.
    fn members(&self) -> impl Iterator<Item = (&str, &Self::Value)>;

    /// An object without members.
    fn empty() -> Self;
}

impl Json for serde_json::Value {
    type Object = serde_json::Map<String, serde_json::Value>;

    fn kind(&self) -> Kind<'_, Self> {
        match self {
            serde_json::Value::Null => Kind::Null,
            serde_json::Value::Bool(b) => Kind::Bool(*b),
            serde_json::Value::Number(n) => Kind::Number(n),
            serde_json::Value::String(s) => Kind::String(s),
            serde_json::Value::Array(items) => Kind::Array(items),
            serde_json::Value::Object(map) => Kind::Object(map),
        }
    }
}

impl JsonObject for serde_json::Map<String, serde_json::Value> {
    type Value = serde_json::Value;

    fn member_count(&self) -> usize {
        self.len()
    }

    fn member(&self, key: &str) -> Option<&serde_json::Value> {
        // Comparing a few short keys costs less than hashing the one looked up (the map
        // hashes with `SipHash`); keys are unique, so the first equal key is the one.
        if self.len() <= LINEAR_LOOKUP_MAX {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }

    fn members(&self) -> impl Iterator<Item = (&str, &serde_json::Value)> {
        self.iter().map(|(k, v)| (k.as_str(), v))
    }

    fn empty() -> Self {
        serde_json::Map::new()
    }
}

impl<'a> Json for Value<'a> {
    type Object = Map<'a>;

    fn kind(&self) -> Kind<'_, Self> {
        match self {
            Value::Null => Kind::Null,
            Value::Bool(b) => Kind::Bool(*b),
            Value::Number(n) => Kind::Number(n),
            Value::String(s) => Kind::String(s),
            Value::Array(items) => Kind::Array(items),
            Value::Object(map) => Kind::Object(map),
        }
    }
}

impl<'a> JsonObject for Map<'a> {
    type Value = Value<'a>;

    fn member_count(&self) -> usize {
        self.len()
    }

    fn member(&self, key: &str) -> Option<&Value<'a>> {
        self.get(key)
    }

    fn members(&self) -> impl Iterator<Item = (&str, &Value<'a>)> {
        self.iter()
    }

    fn empty() -> Self {
        Map::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text read by `serde_json` and viewed: the view owns the same content, and finds
    /// every key of every object where `serde_json`'s map finds it.
    fn same_as_serde(text: &str) {
        let serde: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
        let view = Value::of(&serde);
        assert_eq!(view.to_serde().to_string(), serde.to_string(), "{text}");
        assert_eq!(Value::owned(serde.clone()), view, "{text}");
        if let (Some(map), Some(theirs)) = (view.as_object(), serde.as_object()) {
            for key in theirs.keys() {
                assert_eq!(
                    map.get(key).map(Value::to_serde).as_ref(),
                    theirs.get(key),
                    "{key}"
                );
            }
            assert_eq!(map.get("absent"), None);
        }
    }

    #[test]
    fn views_keep_serde_content_small_and_large() {
        same_as_serde(r#"{"b":1,"a":[true,null,"x"],"c":{"d":2.5}}"#);
        let large: Vec<String> = (0..40).rev().map(|i| format!("\"k{i}\":{i}")).collect();
        same_as_serde(&format!("{{{}}}", large.join(",")));
    }

    /// Repeated keys: first position, last value, whatever the object's size.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn repeated_keys_merge_as_serde_json_merges(keys: Vec<u8>) -> bool {
        let text = format!(
            "{{{}}}",
            keys.iter()
                .enumerate()
                .map(|(i, k)| format!("\"k{}\":{i}", k % 48))
                .collect::<Vec<_>>()
                .join(",")
        );
        let serde: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let members = keys
            .iter()
            .enumerate()
            .map(|(i, k)| {
                (
                    Cow::Owned(format!("k{}", k % 48)),
                    Value::Number(Number::from(i)),
                )
            })
            .collect();
        let map = Map::from_members(members);
        let theirs = serde.as_object().expect("object");
        // Spelled, so member order counts (`serde_json`'s map equality ignores it).
        let spelled = [Value::Object(map.clone()).to_serde(), serde.clone()].map(|v| v.to_string());
        spelled[0] == spelled[1]
            && theirs
                .iter()
                .all(|(k, v)| map.get(k).map(Value::to_serde).as_ref() == Some(v))
            && map.get("k48").is_none()
    }
}
