//! The order hook entries run in at one loop point (the peer validator's
//! `topoSortSteps` / `topoSortContributions`): an entry that produces an artifact another
//! consumes runs first; ties, and entries with no ordering between them, run by capability
//! id. A cycle has no order and is an error.
//!
//! Ids are compared by code unit, which equals the peer's locale comparison for the
//! lower-case kebab-case ids a valid capability has.

use serde_json::Value;

use crate::error::{Error, ErrorCode};
use crate::js::to_js_string;
use crate::sanitize::sanitize_value;

/// One hook entry: its capability id and the artifact names it produces and consumes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookEntry {
    /// The capability id.
    pub cap_id: String,
    /// Artifacts produced.
    pub produces: Vec<String>,
    /// Artifacts consumed.
    pub consumes: Vec<String>,
}

/// The run order of `entries` as indices into it.
///
/// `hook_kind` (`steps`, `contributions`) and `point` (the first entry's point, `None`:
/// unknown) only name the failure. The point is rendered as `String(point)` without
/// recursing (any depth), and it and the ids pass through [`sanitize_value`].
///
/// # Errors
/// [`ErrorCode::InvalidDescriptor`] when produces/consumes form a cycle.
pub fn order_hook_entries(
    entries: &[HookEntry],
    hook_kind: &str,
    point: Option<&Value>,
) -> Result<Vec<usize>, Error> {
    let n = entries.len();
    if n <= 1 {
        return Ok((0..n).collect());
    }
    let mut in_degree = vec![0usize; n];
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in 0..n {
            if i != j
                && entries[j]
                    .consumes
                    .iter()
                    .any(|a| entries[i].produces.contains(a))
            {
                adj[i].push(j);
                in_degree[j] += 1;
            }
        }
    }
    let by_id =
        |list: &mut Vec<usize>| list.sort_by(|a, b| entries[*a].cap_id.cmp(&entries[*b].cap_id));
    let mut queue: std::collections::VecDeque<usize> = {
        let mut ready: Vec<usize> = (0..n).filter(|i| in_degree[*i] == 0).collect();
        by_id(&mut ready);
        ready.into()
    };
    let mut order = Vec::with_capacity(n);
    while let Some(idx) = queue.pop_front() {
        order.push(idx);
        let mut ready = Vec::new();
        for &next in &adj[idx] {
            in_degree[next] -= 1;
            if in_degree[next] == 0 {
                ready.push(next);
            }
        }
        by_id(&mut ready);
        queue.extend(ready);
    }
    if order.len() < n {
        let ids: Vec<String> = entries.iter().map(|e| sanitize_value(&e.cap_id)).collect();
        let point = point.map_or_else(
            || "?".to_owned(),
            |p| sanitize_value(&to_js_string(Some(p))),
        );
        // The kind is the caller's text too; an empty one still names a field.
        let kind = if hook_kind.is_empty() {
            "hooks".to_owned()
        } else {
            sanitize_value(hook_kind)
        };
        return Err(Error::new(
            ErrorCode::InvalidDescriptor,
            format!(
                "produces/consumes cycle detected in {kind} at point \"{point}\" among capabilities [{}]: a cycle in hook produces/consumes prevents deterministic ordering",
                ids.join(", ")
            ),
        )
        .with_field(kind));
    }
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deep_test::{DEPTH, dismantle, nested, on_small_stack};

    /// The kind names the field: sanitized like every caller text, and never empty.
    #[test]
    fn the_kind_names_the_field_safely() {
        let cycle = [e("a", &["x"], &["y"]), e("b", &["y"], &["x"])];
        let err = order_hook_entries(&cycle, "", None).expect_err("a cycle");
        assert_eq!(err.field(), Some("hooks"));
        assert!(
            err.message()
                .starts_with("produces/consumes cycle detected in hooks at point \"?\"")
        );
        let err = order_hook_entries(&cycle, "steps\u{1b}[2J", None).expect_err("a cycle");
        assert_eq!(err.field(), Some("steps\u{FFFD}"));
        let err = order_hook_entries(&cycle, "steps", None).expect_err("a cycle");
        assert_eq!(err.field(), Some("steps"));
    }

    fn e(id: &str, produces: &[&str], consumes: &[&str]) -> HookEntry {
        HookEntry {
            cap_id: id.into(),
            produces: produces.iter().map(|s| (*s).to_owned()).collect(),
            consumes: consumes.iter().map(|s| (*s).to_owned()).collect(),
        }
    }

    #[test]
    fn producers_first_then_by_id() {
        let entries = [e("b", &[], &["x"]), e("c", &["x"], &[]), e("a", &[], &[])];
        assert_eq!(
            order_hook_entries(&entries, "steps", None).unwrap(),
            vec![2, 1, 0]
        );
        let cyc = [e("a", &["x"], &["y"]), e("b", &["y"], &["x"])];
        assert!(
            order_hook_entries(&cyc, "steps", None)
                .unwrap_err()
                .message()
                .contains("[a, b]")
        );
    }

    /// Was a recursion per level in the point's rendering: a caller-built point 50 000
    /// deep overflowed the stack. Run in a thread with a 2 MiB stack.
    #[test]
    fn a_deep_point_names_the_cycle_without_recursing() {
        let message = on_small_stack(|| {
            let point = nested(DEPTH, Value::from("plan:pre"));
            let cyc = [e("a", &["x"], &["y"]), e("b", &["y"], &["x"])];
            let message = order_hook_entries(&cyc, "steps", Some(&point))
                .map(|_| ())
                .unwrap_err()
                .message()
                .to_owned();
            dismantle(point);
            message
        });
        assert!(
            message.contains("at point \"plan:pre\" among capabilities [a, b]"),
            "{message}"
        );
    }

    #[test]
    fn the_point_and_ids_are_sanitized() {
        let cyc = [e("a\u{202E}", &["x"], &["y"]), e("b", &["y"], &["x"])];
        let point = Value::from(format!("p\u{1b}[2J{}", "q".repeat(200)));
        let message = order_hook_entries(&cyc, "steps", Some(&point))
            .unwrap_err()
            .message()
            .to_owned();
        let shown = format!("p\u{FFFD}{}…", "q".repeat(78));
        assert!(
            message.contains(&format!(
                "at point \"{shown}\" among capabilities [a\u{FFFD}, b]"
            )),
            "{message}"
        );
    }
}
