//! Building case inputs: base manifests, JSON-pointer patches and generated big values.
//!
//! Big inputs are described in the corpus (`{"generate": ...}`) and built here, so the
//! repository never stores them: `objectKeys` (n distinct keys), `array` (n items, each a
//! template with `{i}`), `string` (n copies of a unit) and `text` (concatenated parts).

use std::path::PathBuf;

use serde_json::{Map, Value};

/// The repository root (the corpus and the shipped capabilities live there).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core/ has a parent")
        .to_path_buf()
}

/// Reads a corpus file under `tests/hostile/`.
pub fn corpus_file(name: &str) -> Value {
    let path = repo_root().join("tests/hostile").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("corpus file {} unreadable: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("corpus file {name} is not JSON: {e}"))
}

/// Base 36 spelling of `i` (short distinct keys for the big generated objects).
pub fn base36(mut i: usize) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[i % 36]);
        i /= 36;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

fn count(spec: &Value, key: &str) -> usize {
    usize::try_from(
        spec[key]
            .as_u64()
            .unwrap_or_else(|| panic!("generate.{key} must be a count")),
    )
    .expect("count fits")
}

fn template(spec: &Value, i: usize) -> String {
    spec["template"]
        .as_str()
        .unwrap_or("{i}")
        .replace("{i}", &base36(i))
}

/// Builds a generated value (see the module docs).
pub fn generate(spec: &Value) -> Value {
    if spec.get("objectKeys").is_some() {
        let n = count(spec, "objectKeys");
        let value = spec.get("value").cloned().unwrap_or(Value::Bool(true));
        let mut map = Map::with_capacity(n);
        for i in 0..n {
            map.insert(template(spec, i), value.clone());
        }
        return Value::Object(map);
    }
    if spec.get("array").is_some() {
        let n = count(spec, "array");
        return Value::Array((0..n).map(|i| Value::String(template(spec, i))).collect());
    }
    if spec.get("string").is_some() {
        return Value::String(generate_text(spec));
    }
    panic!("unknown generate spec {spec}");
}

/// Builds generated text: `{"string": n, "unit": u}` or `{"parts": [{"text", "repeat"}]}`.
pub fn generate_text(spec: &Value) -> String {
    if let Some(parts) = spec.get("parts").and_then(Value::as_array) {
        let mut out = String::new();
        for part in parts {
            let text = part["text"].as_str().expect("part.text");
            let times = part.get("repeat").map_or(1, |_| count(part, "repeat"));
            out.push_str(&text.repeat(times));
        }
        return out;
    }
    let unit = spec.get("unit").and_then(Value::as_str).unwrap_or("a");
    unit.repeat(count(spec, "string"))
}

/// Resolves a value that may be `{"generate": spec}`.
pub fn materialize(value: &Value) -> Value {
    match value.get("generate") {
        Some(spec) if value.as_object().is_some_and(|o| o.len() == 1) => generate(spec),
        _ => value.clone(),
    }
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Sets `pointer` in `root` to `value`, creating objects on the way (arrays by index).
pub fn set_pointer(root: &mut Value, pointer: &str, value: Value) {
    let tokens: Vec<String> = pointer.split('/').skip(1).map(unescape).collect();
    let (last, parents) = tokens.split_last().expect("pointer names a field");
    let mut node = root;
    for token in parents {
        node = match node {
            Value::Array(items) => {
                let index: usize = token.parse().expect("array index");
                &mut items[index]
            }
            Value::Object(map) => map
                .entry(token.clone())
                .or_insert_with(|| Value::Object(Map::new())),
            other => panic!("pointer {pointer} goes through a non-container {other}"),
        };
    }
    match node {
        Value::Array(items) => {
            let index: usize = last.parse().expect("array index");
            if index == items.len() {
                items.push(value);
            } else {
                items[index] = value;
            }
        }
        Value::Object(map) => {
            map.insert(last.clone(), value);
        }
        other => panic!("pointer {pointer} ends in a non-container {other}"),
    }
}

/// Removes `pointer` from `root` (a missing field is a corpus error).
pub fn remove_pointer(root: &mut Value, pointer: &str) {
    let (parent, last) = pointer.rsplit_once('/').expect("pointer");
    let last = unescape(last);
    let node = root
        .pointer_mut(parent)
        .unwrap_or_else(|| panic!("no parent for {pointer}"));
    let removed = match node {
        Value::Object(map) => map.remove(&last).is_some(),
        Value::Array(items) => {
            let index: usize = last.parse().expect("array index");
            index < items.len() && {
                items.remove(index);
                true
            }
        }
        _ => false,
    };
    assert!(removed, "corpus removes {pointer}, which is absent");
}

/// The manifest of a case: `manifest` (a value), or `base` (a name in `bases.json` or
/// `capabilities/<name>`) patched with `set` (pointer → value) and `remove` (pointers).
pub fn manifest_value(input: &Value, bases: &Value) -> Value {
    if let Some(manifest) = input.get("manifest") {
        return materialize(manifest);
    }
    let base = input["base"]
        .as_str()
        .expect("case needs manifest, text or base");
    let mut value = if let Some(v) = bases.get(base) {
        v.clone()
    } else {
        let path = repo_root()
            .join("capabilities")
            .join(base)
            .join("capability.json");
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("unknown base {base}: {e}"));
        serde_json::from_str(&text).expect("shipped manifest is JSON")
    };
    if let Some(removals) = input.get("remove").and_then(Value::as_array) {
        for pointer in removals {
            remove_pointer(&mut value, pointer.as_str().expect("pointer"));
        }
    }
    if let Some(sets) = input.get("set").and_then(Value::as_object) {
        for (pointer, v) in sets {
            set_pointer(&mut value, pointer, materialize(v));
        }
    }
    value
}

/// The manifest *text* of a case: `text`, `generateText`, or the serialized manifest value.
pub fn manifest_text(input: &Value, bases: &Value) -> String {
    if let Some(text) = input.get("text").and_then(Value::as_str) {
        return text.to_owned();
    }
    if let Some(spec) = input.get("generateText") {
        return generate_text(spec);
    }
    serde_json::to_string(&manifest_value(input, bases)).expect("serializable")
}
