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

/// Every `requires` cycle, found by a depth-first walk from each unvisited id in map order:
/// `requires cycle detected: a → b → a` (the walk's path, then the id met again).
#[must_use]
pub fn detect_requires_cycles(entries: &[RequiresEntry]) -> Vec<String> {
    let by_id: HashMap<&str, &RequiresEntry> = entries.iter().map(|e| (e.id.as_str(), e)).collect();
    let mut color: HashMap<&str, Color> = entries
        .iter()
        .map(|e| (e.id.as_str(), Color::White))
        .collect();
    let mut errors = Vec::new();
    for start in entries {
        if color.get(start.id.as_str()) != Some(&Color::White) {
            continue;
        }
        // An explicit stack of (id, next requires index) keeps deep chains off the call stack.
        let mut path: Vec<&str> = vec![start.id.as_str()];
        let mut frames: Vec<(&str, usize)> = vec![(start.id.as_str(), 0)];
        color.insert(start.id.as_str(), Color::Gray);
        while let Some(frame) = frames.last_mut() {
            let reqs = requires_of(&by_id, frame.0);
            let Some(req) = reqs.get(frame.1) else {
                let (done, _) = frames.pop().unwrap_or((start.id.as_str(), 0));
                path.pop();
                color.insert(done, Color::Black);
                continue;
            };
            frame.1 += 1;
            let Some(next) = req.as_str().filter(|r| by_id.contains_key(r)) else {
                continue;
            };
            match color.get(next) {
                Some(Color::Gray) => {
                    let mut cycle = path.clone();
                    cycle.push(next);
                    errors.push(format!("requires cycle detected: {}", cycle.join(" → ")));
                }
                Some(Color::Black) => {}
                _ => {
                    color.insert(next, Color::Gray);
                    path.push(next);
                    frames.push((next, 0));
                }
            }
        }
    }
    errors
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
