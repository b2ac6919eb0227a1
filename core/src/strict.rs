//! Objects only: a deserializer wrapper under which a struct reads a JSON object and
//! nothing else.
//!
//! serde's derived structs also accept a JSON array and read it by position, so
//! `["claude","global",{"home":..}]` would decode as a `PlanRequest` and `[]` as an empty
//! `SurfaceFacts`. Every binding documents objects only: [`Strict`] wraps any deserializer
//! (the `serde_json` reader over a text, or a `serde_json::Value`) and, at every depth,
//! asks the inner one for a map where a struct is wanted, so an array there is serde's
//! "invalid type: sequence, expected struct ..." error.
//!
//! It also refuses a member name an object repeats, at every depth and for every reader
//! (a struct, a map such as `host.env`, a `serde_json::Value`): ``duplicate field `HOME` ``.
//! serde's derived structs already refuse a repeated field, but a map, and a `Value`, keep
//! the last one, so `{"runtime":1,"runtime":"claude"}` read as a `Value` and then as a
//! request would pass with its first, mistyped member unseen. Names are compared as text
//! after their escapes are read (`"a"` and `"a"` are one name).
//!
//! Everything else passes through unchanged, so the wrapper composes with a path tracker
//! such as `serde_path_to_error` (the tracker outside, [`Strict`] inside), which the
//! bindings use to name the value at fault; a repeated member is found at the object that
//! holds it.
//!
//! ```
//! use gsd_core::strict;
//! assert!(serde_json::from_str::<gsd_core::SurfaceFacts>("[]").is_ok());
//! let err = strict::from_str::<gsd_core::SurfaceFacts>("[]").unwrap_err();
//! assert!(err.to_string().starts_with("invalid type: sequence, expected struct SurfaceFacts"));
//! let err = strict::from_str::<serde_json::Value>(r#"{"a":1,"a":2}"#).unwrap_err();
//! assert!(err.to_string().starts_with("duplicate field `a`"));
//! ```

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StringDeserializer};
use serde::de::{
    DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

use crate::error::{Error, ErrorCode};

/// A deserializer whose structs must be objects (see the module docs).
#[derive(Debug)]
pub struct Strict<D>(pub D);

/// A visitor whose nested deserializers are [`Strict`].
///
/// With `MEMBERS` (every map and JSON value), an object's member names are tracked
/// ([`Members`]). A struct's visitor is a `Wrap<_, false>`: serde's derived structs already
/// refuse a repeated field (``duplicate field `runtime` ``) and, with `deny_unknown_fields`,
/// an unknown one on first sight, so their names need no second look.
struct Wrap<V, const MEMBERS: bool = true>(V);

/// A seed whose deserializer is [`Strict`].
struct Seed<S>(S);

/// Sequence, map and enum access whose elements are read through [`Strict`].
struct Access<A>(A);

macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, D::Error> {
                self.0.$method($($arg,)* Wrap::<V, true>(visitor))
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward! {
        deserialize_any();
        deserialize_bool();
        deserialize_i8();
        deserialize_i16();
        deserialize_i32();
        deserialize_i64();
        deserialize_i128();
        deserialize_u8();
        deserialize_u16();
        deserialize_u32();
        deserialize_u64();
        deserialize_u128();
        deserialize_f32();
        deserialize_f64();
        deserialize_char();
        deserialize_str();
        deserialize_string();
        deserialize_bytes();
        deserialize_byte_buf();
        deserialize_option();
        deserialize_unit();
        deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str);
        deserialize_seq();
        deserialize_tuple(len: usize);
        deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
        deserialize_ignored_any();
    }

    /// The one change: a struct is read as a map, so only an object is accepted.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(Wrap::<V, false>(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! visit {
    ($($method:ident($ty:ty);)*) => {
        $(
            fn $method<E: serde::de::Error>(self, v: $ty) -> Result<V::Value, E> {
                self.0.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>, const MEMBERS: bool> Visitor<'de> for Wrap<V, MEMBERS> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    visit! {
        visit_bool(bool);
        visit_i8(i8);
        visit_i16(i16);
        visit_i32(i32);
        visit_i64(i64);
        visit_i128(i128);
        visit_u8(u8);
        visit_u16(u16);
        visit_u32(u32);
        visit_u64(u64);
        visit_u128(u128);
        visit_f32(f32);
        visit_f64(f64);
        visit_char(char);
        visit_str(&str);
        visit_borrowed_str(&'de str);
        visit_string(String);
        visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]);
        visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_none()
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<V::Value, E> {
        self.0.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_some(Strict(d))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        self.0.visit_newtype_struct(Strict(d))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        self.0.visit_seq(Access(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        if MEMBERS {
            self.0.visit_map(Members {
                map,
                seen: Seen::default(),
                repeated: None,
            })
        } else {
            self.0.visit_map(Access(map))
        }
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        self.0.visit_enum(Access(data))
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Seed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict(d))
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Access<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Access<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(Seed(seed))
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        self.0.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

/// An object's members, each name read once as text, refused when it repeats an earlier
/// one, then handed to the reader as that text.
struct Members<'de, A> {
    map: A,
    seen: Seen<'de>,
    repeated: Option<Cow<'de, str>>,
}

/// The member names of one object read so far: a list while it is short, with a 256-bit
/// filter of the names' fingerprints (length, first and last eight bytes), so a new name is
/// usually known new without a look at the list, and otherwise compared in full only with
/// names that share its fingerprint; an ordered set past [`FEW_MEMBERS`], so an object of
/// 100,000 members costs no quadratic search (and no choice of names makes its look-ups
/// collide, as they could in a hash table). A claude plan request holds 66 names in one
/// object (`childToRouters`): reading it through [`Strict`] with a hash set, or an ordered
/// set from the 17th name, cost 54,000 instructions more than plain `serde_json` (255,000),
/// and this list, with structs' names left to serde, 17,000.
enum Seen<'de> {
    Few {
        names: Vec<(u64, Cow<'de, str>)>,
        filter: [u64; 4],
    },
    Many(BTreeSet<Cow<'de, str>>),
}

impl Default for Seen<'_> {
    fn default() -> Self {
        Seen::Few {
            names: Vec::new(),
            filter: [0; 4],
        }
    }
}

/// How many names [`Seen`] keeps as a list. Past it, names whose fingerprints are made to
/// agree could cost a full comparison each with every earlier one.
const FEW_MEMBERS: usize = 128;

/// A name's fingerprint: equal names have equal fingerprints.
fn fingerprint(name: &str) -> u64 {
    let bytes = name.as_bytes();
    let word = |part: &[u8]| {
        let mut buf = [0u8; 8];
        buf[..part.len()].copy_from_slice(part);
        u64::from_le_bytes(buf)
    };
    let head = word(&bytes[..bytes.len().min(8)]);
    let tail = word(&bytes[bytes.len().saturating_sub(8)..]);
    (head ^ tail.rotate_left(29) ^ bytes.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<'de> Seen<'de> {
    /// Records `name`; `false` when it was already there.
    fn insert(&mut self, name: Cow<'de, str>) -> bool {
        match self {
            Seen::Few { names, filter } if names.len() < FEW_MEMBERS => {
                let print = fingerprint(&name);
                // The top eight bits pick one of the filter's 256 bits.
                let bit = usize::try_from(print >> 56).unwrap_or(0);
                let (word, mask) = (bit / 64, 1u64 << (bit % 64));
                if filter[word] & mask != 0 && names.iter().any(|(p, n)| *p == print && *n == name)
                {
                    return false;
                }
                filter[word] |= mask;
                names.push((print, name));
                true
            }
            Seen::Few { names, .. } => {
                let mut set: BTreeSet<Cow<'de, str>> = names.drain(..).map(|(_, n)| n).collect();
                let fresh = set.insert(name);
                *self = Seen::Many(set);
                fresh
            }
            Seen::Many(set) => set.insert(name),
        }
    }
}

/// Reads a member name as text, borrowed from the input where it can be.
struct NameText;

impl<'de> DeserializeSeed<'de> for NameText {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NameText {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<'de, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let Some(name) = self.map.next_key_seed(NameText)? else {
            return Ok(None);
        };
        if !self.seen.insert(name.clone()) {
            self.repeated = Some(name.clone());
        }
        match name {
            Cow::Borrowed(name) => seed
                .deserialize(BorrowedStrDeserializer::<A::Error>::new(name))
                .map(Some),
            Cow::Owned(name) => seed
                .deserialize(StringDeserializer::<A::Error>::new(name))
                .map(Some),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        if let Some(name) = self.repeated.take() {
            return Err(serde::de::Error::custom(format_args!(
                "duplicate field `{name}`"
            )));
        }
        self.map.next_value_seed(Seed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for Access<A> {
    type Error = A::Error;
    type Variant = Access<A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(Seed(seed))?;
        Ok((value, Access(variant)))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Access<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(Seed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, Wrap::<V, true>(visitor))
    }

    // serde gives a variant no way to ask for a map; the C requests hold no struct variant.
    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        self.0.struct_variant(fields, Wrap::<V, false>(visitor))
    }
}

/// The field a path names, as every binding spells it: a member by name after a dot
/// (`host.env.HOME`), an item by index (`commands[1]`), and a member whose name is not an
/// identifier (`[A-Za-z_$][A-Za-z0-9_$]*`) as a JSON string in brackets
/// (`facts.homes["/h/.claude"].manifest`, `overlays[0].fragments["docs/a.md"]`), so a name
/// holding `.`, `[`, `/` or a control character reads back as one name. `None` at the top
/// (an empty path, or one through nothing serde can name).
///
/// ```
/// use gsd_core::strict::{Strict, field_path};
/// #[derive(Debug, serde::Deserialize)]
/// struct Facts { homes: std::collections::BTreeMap<String, Home> }
/// #[derive(Debug, serde::Deserialize)]
/// struct Home { manifest: String }
/// let text = r#"{"homes":{"/h/.claude":{"manifest":5}}}"#;
/// let mut reader = serde_json::Deserializer::from_str(text);
/// let err = serde_path_to_error::deserialize::<_, Facts>(Strict(&mut reader)).unwrap_err();
/// assert_eq!(field_path(err.path()).as_deref(), Some(r#"homes["/h/.claude"].manifest"#));
/// ```
#[must_use]
pub fn field_path(path: &serde_path_to_error::Path) -> Option<String> {
    use serde_path_to_error::Segment;
    use std::fmt::Write as _;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => {
                let _ = write!(out, "[{index}]");
            }
            Segment::Map { key } | Segment::Enum { variant: key } => member(&mut out, key),
            Segment::Unknown => {}
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The field a read error is about: [`field_path`] of the value being read, and for a
/// member that is missing there (serde's ``missing field `home` ``) the member itself, so
/// `{"cwd":"/w"}` read as a host names `home`, not the host.
///
/// ```
/// use gsd_core::strict::{Strict, error_field};
/// #[derive(Debug, serde::Deserialize)]
/// struct Request { host: Host }
/// #[derive(Debug, serde::Deserialize)]
/// struct Host { home: String, cwd: String }
/// let mut reader = serde_json::Deserializer::from_str(r#"{"host":{"cwd":"/w"}}"#);
/// let err = serde_path_to_error::deserialize::<_, Request>(Strict(&mut reader)).unwrap_err();
/// assert_eq!(error_field(&err).as_deref(), Some("host.home"));
/// ```
#[must_use]
pub fn error_field<E: std::fmt::Display>(error: &serde_path_to_error::Error<E>) -> Option<String> {
    let mut out = field_path(error.path()).unwrap_or_default();
    let reason = error.inner().to_string();
    if let Some(name) = reason
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(name, _)| name)
    {
        member(&mut out, name);
    }
    (!out.is_empty()).then_some(out)
}

/// Appends member `name` to a field path: `.name`, or `["name"]` when it is not an
/// identifier.
fn member(out: &mut String, name: &str) {
    let mut chars = name.chars();
    let identifier = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    if identifier {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(name);
    } else {
        out.push('[');
        out.push_str(&serde_json::Value::from(name).to_string());
        out.push(']');
    }
}

/// Deepest nesting of arrays and objects a binding accepts in request text before reading it
/// with a path tracker (checked by [`crate::validate::nests_deeper_than`]).
///
/// 32: the deepest valid request nests 4 levels (a shadow request's `facts.homes.<home>`). Reading with
/// `serde_path_to_error` over [`Strict`] takes about 1.1 KiB of stack per level, so text
/// nested to `serde_json`'s own limit (128) needs some 140 KiB and overflows a thread with
/// a small stack (64 KiB, or musl's 128 KiB default); 32 levels stay under 40 KiB.
pub const MAX_REQUEST_DEPTH: usize = 32;

/// Parses `text` as a `T` whose structs are objects at every depth. Trailing characters
/// other than whitespace are an error, as with `serde_json::from_str`.
///
/// # Errors
/// serde's error for text that is not JSON, or not a `T` (an array where a struct is
/// wanted included).
pub fn from_str<'a, T: serde::Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strict(&mut reader))?;
    reader.end()?;
    Ok(value)
}

/// How much of serde's reason, and of the field path, a [`read`] error repeats.
const MAX_REASON_CHARS: usize = 512;

/// Reads `text` as a `T` the way every binding reads a request: objects only, no repeated
/// member, nesting bounded by [`MAX_REQUEST_DEPTH`], and a failure an [`Error`] of code
/// `INVALID_ARGUMENT` whose field is the path of the value at fault ([`error_field`]) and
/// whose message says where and why (`what` names the text: `request is not valid:
/// host.cwd: invalid type: integer `1`, expected a string`), repeated values sanitized.
///
/// # Errors
/// `INVALID_ARGUMENT` for text nested too deep, that is not JSON, or that is not a `T`.
pub fn read<T: serde::de::DeserializeOwned>(text: &str, what: &str) -> Result<T, Error> {
    if crate::validate::nests_deeper_than(text, MAX_REQUEST_DEPTH) {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            format!("{what} nests arrays/objects deeper than {MAX_REQUEST_DEPTH} levels"),
        ));
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let read = serde_path_to_error::deserialize::<_, T>(Strict(&mut reader));
    let error = match read {
        Ok(value) => match reader.end() {
            Ok(()) => return Ok(value),
            Err(e) => return Err(not_valid(what, None, &e)),
        },
        Err(e) => e,
    };
    Err(not_valid(what, error_field(&error), error.inner()))
}

/// The [`read`] error: `<what> is not valid: <field>: <reason>`.
fn not_valid(what: &str, field: Option<String>, reason: &dyn std::fmt::Display) -> Error {
    invalid(&format!("{what} is not valid"), field, reason)
}

/// The `INVALID_ARGUMENT` of text read as the wrong shape: `<subject>: <field>: <reason>`
/// (without the field when the text as a whole is at fault), on that field. serde repeats
/// the caller's keys and values, so the field and the reason are rendered safe to print
/// (escapes, bidi and invisible characters replaced) and bounded to 512 characters each.
#[must_use]
pub fn invalid(subject: &str, field: Option<String>, reason: &dyn std::fmt::Display) -> Error {
    let reason = crate::sanitize::sanitize_text(&reason.to_string(), MAX_REASON_CHARS);
    let field = field.map(|at| crate::sanitize::sanitize_text(&at, MAX_REASON_CHARS));
    let message = match &field {
        Some(at) => format!("{subject}: {at}: {reason}"),
        None => format!("{subject}: {reason}"),
    };
    let error = Error::new(ErrorCode::InvalidArgument, message);
    match field {
        Some(at) => error.with_field(at),
        None => error,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;

    /// What `serde_json::from_str` takes from a derived reading, `read` refuses, naming the
    /// value at fault as the bindings name it.
    #[test]
    fn read_refuses_what_the_derived_reading_takes_and_names_the_field() {
        let host = r#"{"home":"/h","cwd":"/w"}"#;
        let ok = format!(r#"{{"runtime":"claude","scope":"global","host":{host}}}"#);
        assert_eq!(
            crate::PlanRequest::from_json(&ok).unwrap().runtime,
            "claude"
        );
        let by_position = format!(r#"["claude","global",{host}]"#);
        assert!(serde_json::from_str::<crate::PlanRequest>(&by_position).is_ok());
        let cases = [
            (by_position, None, "request is not valid: invalid type: sequence, expected struct PlanRequest at line 1 column 0"),
            (
                r#"{"runtime":"claude","scope":"global","host":{"home":"/h","cwd":"/w","env":{"A":"1","A":"2"}}}"#.to_owned(),
                Some("host.env"),
                "request is not valid: host.env: duplicate field `A` at line 1 column 86",
            ),
            (
                format!(r#"{{"runtime":"claude","scope":"global","host":{host},"comands":[]}}"#),
                Some("comands"),
                "request is not valid: comands: unknown field `comands`, expected one of `runtime`, `scope`, `host`, `explicitDir`, `commands`, `agents`, `routerStems`, `childToRouters`, `profile` at line 1 column 78",
            ),
            (
                r#"{"runtime":"claude","scope":"global","host":{"cwd":"/w"}}"#.to_owned(),
                Some("host.home"),
                "request is not valid: host.home: missing field `home` at line 1 column 56",
            ),
            (format!("{ok} x"), None, "request is not valid: trailing characters at line 1 column 71"),
            (
                format!("{}{}", "[".repeat(40), "]".repeat(40)),
                None,
                "request nests arrays/objects deeper than 32 levels",
            ),
        ];
        for (text, field, message) in cases {
            let err = crate::PlanRequest::from_json(&text).unwrap_err();
            assert_eq!(
                (err.code(), err.field(), err.message()),
                (ErrorCode::InvalidArgument, field, message),
                "{text}"
            );
        }
        let err =
            crate::Host::from_json(r#"{"home":"/h","cwd":"/w","env":{"A":"\u001b[31m"},"env":{}}"#)
                .unwrap_err();
        assert_eq!(err.field(), None);
        assert!(
            err.message()
                .starts_with("host is not valid: duplicate field `env`"),
            "{}",
            err.message()
        );
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Inner {
        a: String,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Outer {
        inner: Inner,
        #[serde(default)]
        list: Vec<Inner>,
        #[serde(default)]
        map: BTreeMap<String, Option<Inner>>,
    }

    #[test]
    fn objects_read_as_before() {
        let text = r#"{"inner":{"a":"x"},"list":[{"a":"y"}],"map":{"k":{"a":"z"},"n":null}}"#;
        let outer: Outer = from_str(text).unwrap();
        assert_eq!(outer.list, [Inner { a: "y".into() }]);
        assert_eq!(outer.map["k"], Some(Inner { a: "z".into() }));
        assert_eq!(outer.map["n"], None);
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(at_path::<Outer>(value).unwrap(), outer);
    }

    /// The composition every binding uses: a path tracker outside, [`Strict`] inside.
    fn at_path<T: serde::de::DeserializeOwned>(
        value: serde_json::Value,
    ) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
        serde_path_to_error::deserialize(Strict(value))
    }

    #[test]
    fn arrays_for_structs_are_refused_at_every_depth() {
        // (text, path of the value at fault, reason)
        let cases = [
            (
                r#"[{"a":"x"}]"#,
                ".",
                "invalid type: sequence, expected struct Outer",
            ),
            (
                r#"{"inner":["x"]}"#,
                "inner",
                "invalid type: sequence, expected struct Inner",
            ),
            (
                r#"{"inner":{"a":"x"},"list":[{"a":"y"},["y"]]}"#,
                "list[1]",
                "invalid type: sequence, expected struct Inner",
            ),
            (
                r#"{"inner":{"a":"x"},"map":{"k":["z"]}}"#,
                "map.k",
                "invalid type: sequence, expected struct Inner",
            ),
        ];
        for (text, path, reason) in cases {
            let error = from_str::<Outer>(text).unwrap_err().to_string();
            assert!(error.starts_with(reason), "{text}: {error}");
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let error = at_path::<Outer>(value).unwrap_err();
            assert_eq!(error.inner().to_string(), reason, "{text}");
            assert_eq!(error.path().to_string(), path, "{text}");
        }
        // Plain serde reads the same text by position: the wrapper is what refuses it.
        assert!(serde_json::from_str::<Outer>(r#"[{"a":"x"}]"#).is_ok());
    }

    /// The path tracker and the wrapper compose: every other error inside a record is
    /// found at its path too (a mistyped, unknown or missing member; an entry of a list or
    /// map).
    #[test]
    fn paths_name_the_value_at_fault() {
        #[derive(Debug, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Closed {
            inner: Inner,
        }
        let cases = [
            (r#"{"inner":{"a":1}}"#, "inner.a"),
            (
                r#"{"inner":{"a":"x"},"list":[{"a":"y"},{"a":2}]}"#,
                "list[1].a",
            ),
            (r#"{"inner":{"a":"x"},"map":{"k":{"b":"z"}}}"#, "map.k"),
        ];
        for (text, path) in cases {
            let value: serde_json::Value = serde_json::from_str(text).unwrap();
            let error = at_path::<Outer>(value).unwrap_err();
            assert_eq!(error.path().to_string(), path, "{text}: {error}");
        }
        let value = serde_json::json!({"inner": {"a": "x"}, "extra": 1});
        let error = at_path::<Closed>(value).unwrap_err();
        assert_eq!(
            error.path().to_string(),
            "extra",
            "the unknown member itself"
        );
        let value = serde_json::json!({"inner": ["x"]});
        let error = at_path::<Closed>(value).unwrap_err();
        assert_eq!(
            error.to_string(),
            "inner: invalid type: sequence, expected struct Inner"
        );
    }

    /// Text read through the path tracker, as the C binding reads a request it refuses.
    fn text_at_path<'a, T: serde::Deserialize<'a>>(
        text: &'a str,
    ) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
        let mut reader = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(Strict(&mut reader))
    }

    #[test]
    fn a_repeated_member_is_refused_at_every_depth() {
        // (text, path of the object holding it, reason)
        let cases = [
            (
                r#"{"inner":{"a":"x"},"inner":{"a":"y"}}"#,
                ".",
                "duplicate field `inner`",
            ),
            (
                r#"{"inner":{"a":"x","a":"y"}}"#,
                "inner",
                "duplicate field `a`",
            ),
            (
                r#"{"inner":{"a":"x"},"map":{"k":null,"k":{"a":"z"}}}"#,
                "map",
                "duplicate field `k`",
            ),
            (
                r#"{"inner":{"a":"x"},"list":[{"a":"y"},{"a":"y","a":"z"}]}"#,
                "list[1]",
                "duplicate field `a`",
            ),
            // The same name spelled with an escape is the same name.
            (
                r#"{"inner":{"a":"x","\u0061":"y"}}"#,
                "inner",
                "duplicate field `a`",
            ),
        ];
        for (text, path, reason) in cases {
            let error = from_str::<Outer>(text).unwrap_err().to_string();
            assert!(error.starts_with(reason), "{text}: {error}");
            let error = text_at_path::<Outer>(text).unwrap_err();
            assert_eq!(
                error.inner().to_string().split(" at line").next(),
                Some(reason),
                "{text}"
            );
            assert_eq!(error.path().to_string(), path, "{text}");
            // Read as any JSON, too: the repeat is refused, not kept last.
            let error = from_str::<serde_json::Value>(text).unwrap_err().to_string();
            assert!(error.starts_with(reason), "{text}: {error}");
        }
        // Plain serde keeps the last of a map's repeated keys: the wrapper is what refuses it.
        let plain: Outer =
            serde_json::from_str(r#"{"inner":{"a":"x"},"map":{"k":null,"k":{"a":"z"}}}"#).unwrap();
        assert_eq!(plain.map["k"], Some(Inner { a: "z".into() }));
    }

    #[test]
    fn many_members_are_read_and_a_late_repeat_found() {
        let names: Vec<String> = (0..100_000).map(|i| format!("\"m{i}\":null")).collect();
        let text = format!(r#"{{"inner":{{"a":"x"}},"map":{{{}}}}}"#, names.join(","));
        let outer: Outer = from_str(&text).unwrap();
        assert_eq!(outer.map.len(), 100_000);
        let text = format!(
            r#"{{"inner":{{"a":"x"}},"map":{{{},"m99998":null}}}}"#,
            names.join(",")
        );
        let error = text_at_path::<Outer>(&text).unwrap_err();
        assert_eq!(error.path().to_string(), "map");
        assert!(
            error
                .inner()
                .to_string()
                .starts_with("duplicate field `m99998`")
        );
        // Short and long objects find a repeat whichever side of the switch it falls.
        for members in [2, FEW_MEMBERS, FEW_MEMBERS + 1, FEW_MEMBERS + 2] {
            let mut names: Vec<String> = (0..members).map(|i| format!("\"m{i}\":null")).collect();
            names.push(format!("\"m{}\":null", members - 1));
            let text = format!(r#"{{"inner":{{"a":"x"}},"map":{{{}}}}}"#, names.join(","));
            assert!(from_str::<Outer>(&text).is_err(), "{members}");
            names.pop();
            names.push("\"m0\":null".into());
            let text = format!(r#"{{"inner":{{"a":"x"}},"map":{{{}}}}}"#, names.join(","));
            assert!(from_str::<Outer>(&text).is_err(), "{members}");
        }
    }

    #[test]
    fn trailing_text_is_an_error() {
        assert!(from_str::<Inner>(r#"{"a":"x"} junk"#).is_err());
        assert!(from_str::<Inner>("{\"a\":\"x\"} \n").is_ok());
    }
}
