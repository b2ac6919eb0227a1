//! The `requires` graph of a caller-supplied capability map (the peer validator's
//! `detectRequiresCycles` / `computeRequiresClosure` over a `Map<id, capability>`), for
//! callers that hold their own map rather than a built [`crate::Registry`].
//!
//! The map is given as its entries in insertion order, each with the capability's
//! `requires` value (only an array counts). Traversal order, and so the reported cycles and
//! the closure's order, follow the map's order and each `requires` list's order.

use std::collections::{HashMap, HashSet, VecDeque};

use serde_json::{Map, Value};

/// One entry of a capability map: the id and its `requires` value (`None`: absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiresEntry {
    /// The capability id (the map key).
    pub id: String,
    /// The capability's `requires` value, as held (only an array is followed).
    pub requires: Option<Value>,
}

fn requires_of<'a>(by_id: &HashMap<&str, &'a RequiresEntry>, id: &str) -> &'a [Value] {
    match by_id.get(id).and_then(|e| e.requires.as_ref()) {
        Some(Value::Array(items)) => items,
        _ => &[],
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Color {
    White,
    Gray,
    Black,
}

/// Every cycle of a graph of `edges.len()` nodes (`edges[node]`: the nodes it requires, in
/// order), found by a depth-first walk from each unvisited node in index order: for every
/// edge that meets a node still on the walk, `(start, path)` — the node the walk started
/// from, and the walk's path followed by the node met again. Iterative (one frame of node
/// and next edge per level), so deep chains stay off the call stack. Shared by this
/// module and the registry's cross-capability check.
pub(crate) fn cycles(edges: &[Vec<usize>]) -> Vec<(usize, Vec<usize>)> {
    let mut color = vec![Color::White; edges.len()];
    let mut found = Vec::new();
    for start in 0..edges.len() {
        if color[start] != Color::White {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        color[start] = Color::Gray;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let Some(&target) = edges[node].get(*next) else {
                color[node] = Color::Black;
                stack.pop();
                continue;
            };
            *next += 1;
            match color[target] {
                Color::Gray => {
                    let mut path: Vec<usize> = stack.iter().map(|&(n, _)| n).collect();
                    path.push(target);
                    found.push((start, path));
                }
                Color::White => {
                    color[target] = Color::Gray;
                    stack.push((target, 0));
                }
                Color::Black => {}
            }
        }
    }
    found
}

/// Every `requires` cycle, found by a depth-first walk from each unvisited id in map order:
/// `requires cycle detected: a → b → a` (the walk's path, then the id met again).
#[must_use]
pub fn detect_requires_cycles(entries: &[RequiresEntry]) -> Vec<String> {
    // Nodes are the distinct ids in first-seen order; an id given twice takes the
    // `requires` of its last entry, as a map keyed by id would hold it.
    let mut ids: Vec<&str> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for e in entries {
        index.entry(e.id.as_str()).or_insert_with(|| {
            ids.push(e.id.as_str());
            ids.len() - 1
        });
    }
    let by_id: HashMap<&str, &RequiresEntry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let edges: Vec<Vec<usize>> = ids
        .iter()
        .map(|id| {
            requires_of(&by_id, id)
                .iter()
                .filter_map(|r| r.as_str().and_then(|r| index.get(r)).copied())
                .collect()
        })
        .collect();
    cycles(&edges)
        .into_iter()
        .map(|(_, path)| {
            let names: Vec<&str> = path.into_iter().map(|n| ids[n]).collect();
            format!("requires cycle detected: {}", names.join(" → "))
        })
        .collect()
}

/// Every value reachable from `id` through `requires` arrays, breadth first, in the order
/// first met (the start id only when a cycle leads back to it). Values that are not ids of
/// the map are kept and not followed; values are told apart by their `JSON.stringify`.
///
/// Caller-built values may nest to any depth: they are compared and copied without
/// recursing.
#[must_use]
pub fn requires_closure_of(id: &Value, entries: &[RequiresEntry]) -> Vec<Value> {
    let by_id: HashMap<&str, &RequiresEntry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut out: Vec<Value> = Vec::new();
    // Only string ids lead anywhere, so the walk holds ids, never values.
    let mut queue: VecDeque<&str> = id.as_str().into_iter().collect();
    while let Some(current) = queue.pop_front() {
        for req in requires_of(&by_id, current) {
            if seen.insert(crate::js::stringify(Some(req))) {
                out.push(clone_iteratively(req));
                if let Some(next) = req.as_str() {
                    queue.push_back(next);
                }
            }
        }
    }
    out
}

/// A copy of `value` built with an explicit stack (`Value::clone` recurses once per level).
fn clone_iteratively(value: &Value) -> Value {
    /// A container being copied: the source members left, and the copy so far.
    enum Open<'a> {
        Array(std::slice::Iter<'a, Value>, Vec<Value>),
        Object(serde_json::map::Iter<'a>, Map<String, Value>, String),
    }
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut next = Some(value);
    loop {
        let mut built = match next.take() {
            Some(Value::Array(items)) => {
                open.push(Open::Array(items.iter(), Vec::with_capacity(items.len())));
                None
            }
            Some(Value::Object(map)) => {
                open.push(Open::Object(map.iter(), Map::new(), String::new()));
                None
            }
            scalar => scalar.cloned(),
        };
        // Hand each finished copy to its parent, closing every container it completes,
        // until a member is left to descend into.
        loop {
            let Some(top) = open.last_mut() else {
                return built.unwrap_or(Value::Null);
            };
            if let Some(done) = built.take() {
                match top {
                    Open::Array(_, copy) => copy.push(done),
                    Open::Object(_, copy, key) => {
                        copy.insert(std::mem::take(key), done);
                    }
                }
            }
            let member = match top {
                Open::Array(items, _) => items.next(),
                Open::Object(members, _, key) => members.next().map(|(k, v)| {
                    k.clone_into(key);
                    v
                }),
            };
            if member.is_some() {
                next = member;
                break;
            }
            built = open.pop().map(|finished| match finished {
                Open::Array(_, copy) => Value::Array(copy),
                Open::Object(_, copy, _) => Value::Object(copy),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deep_test::{DEPTH, dismantle, nested, on_small_stack};
    use serde_json::json;

    fn map(pairs: &[(&str, Value)]) -> Vec<RequiresEntry> {
        pairs
            .iter()
            .map(|(id, r)| RequiresEntry {
                id: (*id).to_owned(),
                requires: Some(r.clone()),
            })
            .collect()
    }

    #[test]
    fn cycles_and_closures() {
        let m = map(&[
            ("a", json!(["b"])),
            ("b", json!(["c", "zz"])),
            ("c", json!(["a"])),
        ]);
        assert_eq!(
            detect_requires_cycles(&m),
            vec!["requires cycle detected: a → b → c → a"]
        );
        assert_eq!(
            requires_closure_of(&json!("a"), &m),
            vec![json!("b"), json!("c"), json!("zz"), json!("a")]
        );
        assert!(detect_requires_cycles(&map(&[("a", json!("b"))])).is_empty());
    }

    /// Was a recursion per level (`to_string`, `clone`): a `requires` entry nested 50 000
    /// deep overflowed the stack. Run in a thread with a 2 MiB stack.
    #[test]
    fn deep_requires_entries_are_kept_without_recursing() {
        let depths = on_small_stack(|| {
            let deep = || nested(DEPTH, json!({"k": ["leaf"]}));
            // Built in place: `map` clones, which recurses.
            let mut m = vec![RequiresEntry {
                id: "a".into(),
                requires: Some(Value::Array(vec![deep(), json!("b"), deep()])),
            }];
            m.push(RequiresEntry {
                id: "b".into(),
                requires: Some(json!(["a", 1, 1.0])),
            });
            let closure = requires_closure_of(&json!("a"), &m);
            let deep_id = deep();
            assert!(requires_closure_of(&deep_id, &m).is_empty());
            let depth_of = |mut v: Value| {
                let mut depth = 0;
                while let Value::Array(items) = &mut v {
                    let Some(inner) = items.pop() else { break };
                    v = inner;
                    depth += 1;
                }
                (depth, v)
            };
            m.into_iter().filter_map(|e| e.requires).for_each(dismantle);
            dismantle(deep_id);
            closure.into_iter().map(depth_of).collect::<Vec<_>>()
        });
        // The two deep entries are equal (kept once); 1 and 1.0 are one number, as in JS.
        assert_eq!(
            depths,
            vec![
                (DEPTH, json!({"k": ["leaf"]})),
                (0, json!("b")),
                (0, json!("a")),
                (0, json!(1)),
            ]
        );
    }

    #[test]
    fn copies_equal_their_source() {
        for v in [
            json!(null),
            json!("s"),
            json!([]),
            json!({}),
            json!([1, [2, {"b": [true, null], "a": {}}], {"z": 1, "y": [[]]}]),
        ] {
            assert_eq!(clone_iteratively(&v), v);
        }
        let copied = clone_iteratively(&json!({"z": 1, "a": 2}));
        assert_eq!(
            copied
                .as_object()
                .map(|m| m.keys().cloned().collect::<Vec<_>>()),
            Some(vec!["z".to_owned(), "a".to_owned()])
        );
    }
}
