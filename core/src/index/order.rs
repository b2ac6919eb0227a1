//! Ordering rules the peer's registry builder uses: JavaScript's default
//! `String.prototype.localeCompare` (ICU root collation) for ASCII text, and the
//! produces/consumes topological sort of hooks at one loop point.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use crate::doc::JsonRef;

/// ASCII code points that are not ignorable, in ICU root collation order. Letters pair
/// up (`a` then `A`): same primary weight, lower case first at the tertiary level.
const ASCII_ORDER: &[u8] = &[
    9, 10, 11, 12, 13, 32, 95, 45, 44, 59, 58, 33, 63, 46, 39, 34, 40, 41, 91, 93, 123, 125, 64,
    42, 47, 92, 38, 35, 37, 96, 94, 43, 60, 61, 62, 124, 126, 36, 48, 49, 50, 51, 52, 53, 54, 55,
    56, 57, 97, 65, 98, 66, 99, 67, 100, 68, 101, 69, 102, 70, 103, 71, 104, 72, 105, 73, 106, 74,
    107, 75, 108, 76, 109, 77, 110, 78, 111, 79, 112, 80, 113, 81, 114, 82, 115, 83, 116, 84, 117,
    85, 118, 86, 119, 87, 120, 88, 121, 89, 122, 90,
];

/// `(primary, tertiary)` weight of one character; `None` when the collator ignores it
/// (ASCII control characters other than tab and line breaks). Non-ASCII characters sort
/// after every ASCII character by code point (an approximation: ids are ASCII).
fn weight(c: char) -> Option<(u32, u8)> {
    if !c.is_ascii() {
        return Some((1000 + u32::from(c), 0));
    }
    let lower = c.to_ascii_lowercase();
    #[allow(clippy::cast_possible_truncation)] // Reason: `c` is ASCII here.
    let pos = ASCII_ORDER.iter().position(|b| *b == lower as u8)?;
    #[allow(clippy::cast_possible_truncation)] // Reason: the table has under 100 entries.
    Some((pos as u32, u8::from(c.is_ascii_uppercase())))
}

/// JavaScript `a.localeCompare(b)` under the default (root) collation, exact for ASCII:
/// `a < A < b < B`, punctuation before digits before letters, `-` before `a`.
#[must_use]
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    let wa: Vec<(u32, u8)> = a.chars().filter_map(weight).collect();
    let wb: Vec<(u32, u8)> = b.chars().filter_map(weight).collect();
    let primary = wa.iter().map(|w| w.0).cmp(wb.iter().map(|w| w.0));
    primary.then_with(|| wa.iter().map(|w| w.1).cmp(wb.iter().map(|w| w.1)))
}

/// JavaScript's default `Array.prototype.sort` order for strings (UTF-16 code units).
#[must_use]
pub fn js_sort_compare(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// One hook (step or contribution) at a loop point, with its capability.
#[derive(Debug, Clone)]
pub(crate) struct HookAt<'a> {
    pub cap_id: &'a str,
    pub hook: JsonRef<'a>,
}

fn artifacts<'v>(hook: JsonRef<'v>, key: &str) -> impl Iterator<Item = JsonRef<'v>> {
    hook.field(key)
        .and_then(JsonRef::as_array)
        .into_iter()
        .flatten()
}

/// Kahn's algorithm with the peer's tie-break: the initial ready set sorted by
/// `capId` (`localeCompare`, stable), then each batch of newly ready hooks sorted the
/// same way and appended. `Err` holds the capability ids (input order) of a cycle.
pub(crate) fn topo_sort<'a>(entries: &[HookAt<'a>]) -> Result<Vec<HookAt<'a>>, Vec<&'a str>> {
    let n = entries.len();
    if n <= 1 {
        return Ok(entries.to_vec());
    }
    let mut in_degree = vec![0usize; n];
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    // An edge i → j when j consumes something i produces (one edge per pair), found
    // through an artifact → producers map; j ascending keeps each edge list in order.
    let mut producers: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        for artifact in artifacts(e.hook, "produces").filter_map(JsonRef::as_str) {
            producers.entry(artifact).or_default().push(i);
        }
    }
    for (j, e) in entries.iter().enumerate() {
        let mut from: HashSet<usize> = HashSet::new();
        for artifact in artifacts(e.hook, "consumes").filter_map(JsonRef::as_str) {
            for &i in producers.get(artifact).into_iter().flatten() {
                if i != j && from.insert(i) {
                    edges[i].push(j);
                    in_degree[j] += 1;
                }
            }
        }
    }
    let by_cap = |x: &usize, y: &usize| locale_compare(entries[*x].cap_id, entries[*y].cap_id);
    let mut queue: std::collections::VecDeque<usize> = {
        let mut ready: Vec<usize> = (0..n).filter(|i| in_degree[*i] == 0).collect();
        ready.sort_by(by_cap);
        ready.into()
    };
    let mut result = Vec::with_capacity(n);
    while let Some(i) = queue.pop_front() {
        result.push(entries[i].clone());
        let mut ready = Vec::new();
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                ready.push(j);
            }
        }
        ready.sort_by(by_cap);
        queue.extend(ready);
    }
    if result.len() < n {
        return Err(entries.iter().map(|e| e.cap_id).collect());
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::doc::JsonDoc;

    use super::*;

    #[test]
    fn locale_compare_matches_javascript_for_ascii() {
        let mut ids = vec!["b", "B", "a", "A", "a-b", "ab", "a1", "a_b", "a.b"];
        ids.sort_by(|a, b| locale_compare(a, b));
        // Expected order printed by Node 20: `[...].sort((a, b) => a.localeCompare(b))`.
        assert_eq!(ids, ["a", "A", "a_b", "a-b", "a.b", "a1", "ab", "b", "B"]);
    }

    #[test]
    fn ready_nodes_are_appended_not_merged() {
        // The spec's example: zeta produces A, beta consumes A, alpha and gamma are free.
        let doc = |v| JsonDoc::from_value(&v).expect("small");
        let zeta = doc(json!({"produces": ["A"]}));
        let beta = doc(json!({"consumes": ["A"]}));
        let free = doc(json!({}));
        let entries = [
            HookAt {
                cap_id: "zeta",
                hook: zeta.root(),
            },
            HookAt {
                cap_id: "beta",
                hook: beta.root(),
            },
            HookAt {
                cap_id: "alpha",
                hook: free.root(),
            },
            HookAt {
                cap_id: "gamma",
                hook: free.root(),
            },
        ];
        let sorted = topo_sort(&entries).expect("acyclic");
        let ids: Vec<_> = sorted.iter().map(|e| e.cap_id).collect();
        assert_eq!(ids, ["alpha", "gamma", "zeta", "beta"]);
    }

    #[test]
    fn a_cycle_is_an_error_naming_the_input_order() {
        let a = JsonDoc::from_value(&json!({"produces": ["A"], "consumes": ["B"]})).expect("small");
        let b = JsonDoc::from_value(&json!({"produces": ["B"], "consumes": ["A"]})).expect("small");
        let entries = [
            HookAt {
                cap_id: "b",
                hook: b.root(),
            },
            HookAt {
                cap_id: "a",
                hook: a.root(),
            },
        ];
        assert_eq!(topo_sort(&entries).err(), Some(vec!["b", "a"]));
    }
}
