//! Seeded random mutations: a fixed-seed generator picks a shipped manifest, a node in it
//! and an edit (replace with a value from a pool of tricky values, delete, or add a key).
//! Deterministic, so a failure names a reproducible case.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::{Case, Expect};

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(self.0 >> 33).unwrap_or(0)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next() % items.len()]
    }
}

fn pool() -> Vec<Value> {
    let strings = [
        "",
        "x",
        "__proto__",
        "constructor",
        "prototype",
        "undocumented",
        "none",
        "skills",
        "commands",
        "agents",
        "claude",
        "gemini",
        "settings-json",
        "codex-hooks-json",
        "spawn",
        "openai-http",
        "command-exists",
        "command-capability",
        "http-reachable",
        "file-arg",
        "stdout",
        "--flag",
        "1.2.3",
        ">=1",
        "*",
        "../x",
        "/abs",
        "a b",
        "plan:pre",
        "discuss:pre",
        "skip",
        "halt",
        "enum",
        "é",
        "gsd-x",
        "{{id}}",
        "PATH",
        ".claude",
        "dot-home-nested",
        "xdg",
        "BeforeAgent",
        "Stop",
        "flat",
        "nested",
        "global",
        "local",
        "full",
        "core",
        "feature",
        "runtime",
        "reviewer",
        "high",
        "harness-worktree",
    ];
    let mut values: Vec<Value> = strings.iter().map(|s| json!(s)).collect();
    values.extend([
        json!(0),
        json!(1),
        json!(2),
        json!(-1),
        json!(1.5),
        json!(1e21),
        json!(120_001),
        json!(9_007_199_254_740_993_u64),
        json!(true),
        json!(false),
        json!(null),
        json!([]),
        json!(["x"]),
        json!([1]),
        json!([null]),
        json!(["skills", "commands"]),
        json!({}),
        json!({"a": 1}),
        json!({"kind": "xdg"}),
        json!({"path": "x.md"}),
        json!({"inline": ""}),
        json!({"1": "b", "a": [true]}),
    ]);
    values
}

/// Every node path under the root: object keys and array indexes.
fn paths(
    v: &Value,
    prefix: &mut Vec<Result<String, usize>>,
    out: &mut Vec<Vec<Result<String, usize>>>,
) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                prefix.push(Ok(k.clone()));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                prefix.push(Err(i));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

fn node_mut<'a>(v: &'a mut Value, path: &[Result<String, usize>]) -> Option<&'a mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match seg {
            Ok(k) => cur.get_mut(k.as_str())?,
            Err(i) => cur.get_mut(*i)?,
        };
    }
    Some(cur)
}

fn render(path: &[Result<String, usize>]) -> String {
    path.iter()
        .map(|s| match s {
            Ok(k) => format!(".{k}"),
            Err(i) => format!("[{i}]"),
        })
        .collect()
}

/// `count` seeded random single-edit mutations of the shipped manifests.
pub fn random_cases(base: &BTreeMap<String, Value>, count: usize) -> Vec<Case> {
    let mut rng = Lcg(0x5EED_6A7E_C0DE);
    let folders: Vec<&String> = base.keys().collect();
    let values = pool();
    let keys = [
        "extra",
        "__proto__",
        "reviewerCli",
        "7",
        "kind",
        "home",
        "timeoutMs",
        "binary",
        "path",
    ];
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let folder = *rng.pick(&folders);
        let mut v = base[folder].clone();
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        let path = rng.pick(&all).clone();
        let op = rng.next() % 10;
        let value = rng.pick(&values).clone();
        let description = if op < 7 {
            if let Some(node) = node_mut(&mut v, &path) {
                *node = value.clone();
            }
            format!("{}{} = {value}", folder, render(&path))
        } else if op < 9 {
            let (last, parent) = path.split_last().expect("non-empty path");
            if let Some(parent) = node_mut(&mut v, parent) {
                match (parent, last) {
                    (Value::Object(map), Ok(k)) => {
                        map.shift_remove(k);
                    }
                    (Value::Array(items), Err(i)) => {
                        items.remove(*i);
                    }
                    _ => {}
                }
            }
            format!("delete {}{}", folder, render(&path))
        } else {
            let key = *rng.pick(&keys);
            let target = node_mut(&mut v, &path).filter(|n| n.is_object());
            match target {
                Some(Value::Object(map)) => {
                    map.insert(key.to_owned(), value.clone());
                }
                _ => {
                    if let Value::Object(map) = &mut v {
                        map.insert(key.to_owned(), value.clone());
                    }
                }
            }
            format!("{}{} add key {key} = {value}", folder, render(&path))
        };
        out.push(Case {
            name: format!("random #{n}: {description}"),
            folder: folder.clone(),
            text: serde_json::to_string(&v).expect("serialize"),
            expect: Expect::Same,
        });
    }
    out
}
