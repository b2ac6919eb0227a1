//! Hash tables of borrowed names that keep each name's hash beside it.
//!
//! Admitting thousands of overlays fills tables keyed by names that live in the
//! overlays' manifests. A table that grows hashes every key it holds again; with the
//! names only borrowed, that means reading each name back from the manifest it lives
//! in, cold by then. [`Names`] hashes a name once, when it is inserted or looked up,
//! and keeps that hash in the table, so growing reads the table alone and no table has
//! to be sized in advance.

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, BuildHasherDefault, Hash, Hasher};

/// A name and its hash.
#[derive(Debug, Clone, Copy)]
struct Name<'a> {
    hash: u64,
    text: &'a str,
}

impl Hash for Name<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl PartialEq for Name<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

impl Eq for Name<'_> {}

/// Hands the table the hash a [`Name`] already carries.
#[derive(Debug, Clone, Copy, Default)]
struct Kept(u64);

impl Hasher for Kept {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by `Name`; any other input is still mixed in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map from borrowed names to `V` (a set when `V` is `()`), each name hashed once
/// with a randomly keyed hasher, as `std`'s maps are.
#[derive(Debug, Clone)]
pub(crate) struct Names<'a, V> {
    hashing: RandomState,
    table: HashMap<Name<'a>, V, BuildHasherDefault<Kept>>,
}

impl<V> Default for Names<'_, V> {
    fn default() -> Self {
        Names {
            hashing: RandomState::new(),
            table: HashMap::default(),
        }
    }
}

impl<'a, V> Names<'a, V> {
    fn name<'t>(&self, text: &'t str) -> Name<'t> {
        Name {
            hash: self.hashing.hash_one(text),
            text,
        }
    }

    /// A copy of the value of `text`, if it is in the table. (A copy, so that `text` may
    /// live shorter than the table's names.)
    pub(crate) fn get(&self, text: &str) -> Option<V>
    where
        V: Clone,
    {
        let name = self.name(text);
        let table: &HashMap<Name<'_>, V, BuildHasherDefault<Kept>> = &self.table;
        table.get(&name).cloned()
    }

    /// Whether `text` is in the table.
    pub(crate) fn contains(&self, text: &str) -> bool {
        let name = self.name(text);
        let table: &HashMap<Name<'_>, V, BuildHasherDefault<Kept>> = &self.table;
        table.contains_key(&name)
    }

    /// The value of `text`, made from `make` if it was not in the table.
    pub(crate) fn entry(&mut self, text: &'a str, make: impl FnOnce() -> V) -> &mut V {
        let name = self.name(text);
        self.table.entry(name).or_insert_with(make)
    }

    /// Sets the value of `text` (a later value replaces an earlier one).
    pub(crate) fn set(&mut self, text: &'a str, value: V) {
        let name = self.name(text);
        self.table.insert(name, value);
    }

    /// Adds `text` with `value` unless it is already in the table (the first one stays).
    pub(crate) fn keep_first(&mut self, text: &'a str, value: V) {
        self.entry(text, || value);
    }

    /// How many names the table holds.
    pub(crate) fn len(&self) -> usize {
        self.table.len()
    }
}

impl<'a> Names<'a, ()> {
    /// Adds `text` to the set.
    pub(crate) fn insert(&mut self, text: &'a str) {
        self.keep_first(text, ());
    }
}

impl<'a> FromIterator<&'a str> for Names<'a, ()> {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut set = Names::default();
        for text in iter {
            set.insert(text);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use quickcheck_macros::quickcheck;

    use super::*;

    /// Any sequence of `set`, `keep_first` and lookups answers as a `HashMap` of owned
    /// strings does. Names are drawn from a small pool so that repeats are common, and
    /// the table grows several times on the long sequences.
    #[quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn a_table_answers_as_a_map_of_owned_strings(ops: Vec<(u8, u16, u32)>) -> bool {
        let pool: Vec<String> = (0..300).map(|i| format!("n{i}")).collect();
        let mut table: Names<'_, u32> = Names::default();
        let mut model: HashMap<String, u32> = HashMap::new();
        for (op, name, value) in ops {
            let text = pool[usize::from(name) % pool.len()].as_str();
            match op % 4 {
                0 => {
                    table.set(text, value);
                    model.insert(text.to_owned(), value);
                }
                1 => {
                    table.keep_first(text, value);
                    model.entry(text.to_owned()).or_insert(value);
                }
                2 => {
                    let kept = table.entry(text, || 0);
                    *kept = kept.wrapping_add(value % 7);
                    let want = model.entry(text.to_owned()).or_insert(0);
                    *want = want.wrapping_add(value % 7);
                }
                _ => {
                    let probe = text.to_owned();
                    if table.get(&probe) != model.get(text).copied()
                        || table.contains(&probe) != model.contains_key(text)
                    {
                        return false;
                    }
                }
            }
        }
        table.len() == model.len() && pool.iter().all(|t| table.get(t) == model.get(t).copied())
    }

    #[test]
    fn the_first_value_of_a_name_stays() {
        let mut owners: Names<'_, &str> = Names::default();
        owners.keep_first("skill-a", "ext-1");
        owners.keep_first("skill-a", "ext-2");
        owners.keep_first("skill-b", "ext-2");
        assert_eq!(owners.get("skill-a"), Some("ext-1"));
        assert_eq!(owners.get("skill-b"), Some("ext-2"));
        assert_eq!(owners.get("skill-c"), None);
        assert_eq!(owners.len(), 2);
        owners.set("skill-a", "ext-3");
        assert_eq!(owners.get("skill-a"), Some("ext-3"));
        assert_eq!(owners.len(), 2);
    }

    #[test]
    fn a_table_that_grows_still_finds_every_name() {
        let texts: Vec<String> = (0..5_000).map(|i| format!("name-{i}")).collect();
        let set: Names<'_, ()> = texts.iter().map(String::as_str).collect();
        assert_eq!(set.len(), 5_000);
        assert!(texts.iter().all(|t| set.contains(t)));
        // Looked up by a name of a shorter life than the table's.
        assert!(set.contains(&String::from("name-4999")));
        assert!(!set.contains("name-5000"));
        assert!(!set.contains(""));
    }

    #[test]
    fn entry_builds_a_value_once() {
        let mut lists: Names<'_, Vec<u32>> = Names::default();
        lists.entry("a", Vec::new).push(1);
        lists.entry("a", Vec::new).push(2);
        assert_eq!(lists.get("a"), Some(vec![1, 2]));
    }
}
