//! The `requires` graph of a caller-supplied capability map (the peer validator's
//! `detectRequiresCycles` / `computeRequiresClosure` over a `Map<id, capability>`), for
//! callers that hold their own map rather than a built [`crate::Registry`].
//!
//! The map is given as its entries in insertion order, each with the capability's
//! `requires` value (only an array counts). Traversal order, and so the reported cycles and
//! the closure's order, follow the map's order and each `requires` list's order.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

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
/// the map are kept and not followed.
#[must_use]
pub fn requires_closure_of(id: &Value, entries: &[RequiresEntry]) -> Vec<Value> {
    let by_id: HashMap<&str, &RequiresEntry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut out: Vec<Value> = Vec::new();
    let mut queue: std::collections::VecDeque<Value> =
        std::collections::VecDeque::from([id.clone()]);
    while let Some(current) = queue.pop_front() {
        let Some(current) = current.as_str() else {
            continue;
        };
        for req in requires_of(&by_id, current) {
            if seen.insert(req.to_string()) {
                out.push(req.clone());
                queue.push_back(req.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
