//! The mutation corpus for `peer_validate.rs`: broken manifests made deterministically by
//! applying one mutation each to the shipped manifests in `capabilities/`.

mod bodies;
mod random;
mod runtime;
mod semantics;

pub use random::random_cases;

use std::collections::BTreeMap;
use std::fs;

use gsd_core::parse_manifest;
use serde_json::{Value, json};

use crate::util;

/// What a case expects from the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Messages and warnings equal the peer's.
    Same,
    /// Deliberate difference: the peer accepts; we add errors with this code (and
    /// otherwise agree with the peer).
    OursAdds(&'static str),
    /// Deliberate difference: the peer throws; we report errors with this code.
    PeerThrows(&'static str),
}

pub struct Case {
    pub name: String,
    pub folder: String,
    pub text: String,
    pub expect: Expect,
}

/// The shipped manifests, by folder.
pub fn shipped() -> BTreeMap<String, Value> {
    let root = util::repo_root().join("capabilities");
    let mut out = BTreeMap::new();
    for entry in fs::read_dir(&root).expect("read capabilities/") {
        let path = entry.expect("dir entry").path().join("capability.json");
        if path.is_file() {
            let folder = path
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str())
                .expect("folder")
                .to_owned();
            let text = fs::read_to_string(&path).expect("read manifest");
            out.insert(
                folder,
                parse_manifest(&text).expect("shipped manifest parses"),
            );
        }
    }
    assert_eq!(out.len(), 46, "46 shipped capabilities");
    out
}

/// Splits `a.b[2].c` into keys and indexes.
fn segments(path: &str) -> Vec<Result<String, usize>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            out.push(Ok(key.to_owned()));
        }
        for index in rest.split('[').filter(|s| !s.is_empty()) {
            out.push(Err(index.trim_end_matches(']').parse().expect("index")));
        }
    }
    out
}

fn parent_mut<'a>(v: &'a mut Value, path: &str) -> (&'a mut Value, Result<String, usize>) {
    let mut segs = segments(path);
    let last = segs.pop().expect("non-empty path");
    let mut cur = v;
    for seg in segs {
        cur = match seg {
            Ok(key) => cur
                .get_mut(&key)
                .unwrap_or_else(|| panic!("no key {key} in {path}")),
            Err(i) => cur
                .get_mut(i)
                .unwrap_or_else(|| panic!("no index {i} in {path}")),
        };
    }
    (cur, last)
}

/// Sets `path` to `value` (the last key is created when absent).
pub fn set(v: &mut Value, path: &str, value: Value) {
    match parent_mut(v, path) {
        (Value::Object(map), Ok(key)) => {
            map.insert(key, value);
        }
        (Value::Array(items), Err(i)) => items[i] = value,
        _ => panic!("cannot set {path}"),
    }
}

/// Removes `path`.
pub fn del(v: &mut Value, path: &str) {
    match parent_mut(v, path) {
        (Value::Object(map), Ok(key)) => {
            map.shift_remove(&key);
        }
        (Value::Array(items), Err(i)) => {
            items.remove(i);
        }
        _ => panic!("cannot delete {path}"),
    }
}

pub struct Corpus<'a> {
    base: &'a BTreeMap<String, Value>,
    cases: Vec<Case>,
}

impl Corpus<'_> {
    pub fn push_value(&mut self, name: String, folder: &str, value: &Value, expect: Expect) {
        let text = serde_json::to_string(value).expect("serialize");
        self.cases.push(Case {
            name,
            folder: folder.to_owned(),
            text,
            expect,
        });
    }

    pub fn mutate(&mut self, folder: &str, name: &str, expect: Expect, f: impl FnOnce(&mut Value)) {
        let mut v = self
            .base
            .get(folder)
            .unwrap_or_else(|| panic!("no capability {folder}"))
            .clone();
        f(&mut v);
        self.push_value(format!("{folder}: {name}"), folder, &v, expect);
    }

    /// One case: `path` set to `value`.
    pub fn set(&mut self, folder: &str, path: &str, value: Value) {
        let name = format!("{path} = {value}");
        self.mutate(folder, &name, Expect::Same, |v| set(v, path, value));
    }

    /// One case: `path` removed.
    pub fn del(&mut self, folder: &str, path: &str) {
        self.mutate(folder, &format!("delete {path}"), Expect::Same, |v| {
            del(v, path);
        });
    }

    /// One case per value.
    pub fn each(&mut self, folder: &str, path: &str, values: &[Value]) {
        for value in values {
            self.set(folder, path, value.clone());
        }
    }

    pub fn ours(&mut self, folder: &str, path: &str, value: Value, code: &'static str) {
        let name = format!("ours: {path} = {value}");
        self.mutate(folder, &name, Expect::OursAdds(code), |v| {
            set(v, path, value);
        });
    }
}

pub const RUNTIME_REQUIRED: &[&str] = &[
    "configHome",
    "configFormat",
    "artifactLayout",
    "commandStyle",
    "hooksSurface",
    "sandboxTier",
    "supportTier",
    "installSurface",
    "writesSharedSettings",
    "permissionWriter",
    "localConfigDir",
    "extendedHookEvents",
    "hostIntegration",
];

#[allow(clippy::too_many_lines)] // Reason: a data table of mutations, one line per case.
fn envelope_cases(c: &mut Corpus<'_>) {
    let folders: Vec<String> = c.base.keys().cloned().collect();
    for folder in &folders {
        c.del(folder, "id");
        c.set(folder, "role", json!("plugin"));
        c.set(folder, "tier", json!(["full"]));
        c.del(folder, "version");
    }
    c.each(
        "claude",
        "id",
        &[
            json!("Claude"),
            json!("other"),
            json!(5),
            json!(""),
            json!("a_b"),
        ],
    );
    c.each(
        "claude",
        "role",
        &[
            json!(null),
            json!({}),
            json!(["a", "b", null]),
            json!(1.0),
            json!(true),
        ],
    );
    c.del("claude", "role");
    c.each("claude", "title", &[json!(""), json!(7)]);
    c.del("claude", "description");
    c.each(
        "claude",
        "tier",
        &[json!("gold"), json!(1e21), json!(-0.0), json!(0.000_000_15)],
    );
    c.del("claude", "tier");
    c.each(
        "claude",
        "requires",
        &[json!("x"), json!([1, "a", null, {"k": [true]}])],
    );
    c.del("claude", "requires");
    c.each(
        "claude",
        "version",
        &[
            json!("1.0"),
            json!("v1.0.0"),
            json!("01.2.3"),
            json!("1.2.3-01"),
            json!(1.5),
        ],
    );
    c.each(
        "claude",
        "engines",
        &[
            json!("x"),
            json!([]),
            json!({"gsd": "abc"}),
            json!({"gsd": 5}),
            json!({"gsd": "  "}),
        ],
    );
    c.each(
        "claude",
        "compatVersions",
        &[
            json!([]),
            json!({"1.0": ">=1", "1.0.0": "zz", "2": 3, "1.2.3": "*", "0": "x"}),
        ],
    );
    c.each("claude", "integrity", &[json!("sha512-abc"), json!(5)]);
    c.each(
        "claude",
        "provenance",
        &[
            json!(null),
            json!({}),
            json!({"sourceRepo": "", "commit": 5}),
        ],
    );
    for (i, value) in [json!([]), json!(null), json!("capability"), json!(5)]
        .iter()
        .enumerate()
    {
        c.push_value(
            format!("non-object manifest #{i}"),
            "claude",
            value,
            Expect::Same,
        );
    }
}

/// Deliberate differences of `configHome`: its name, parent, probe candidates and marker.
fn config_home_cases(c: &mut Corpus<'_>) {
    use gsd_core::validate::code;
    for name in [
        "../x",
        "a/b",
        ".",
        "C:\\x",
        ".ac\u{202E}me",
        ".cla\u{AD}ude",
    ] {
        c.ours(
            "claude",
            "runtime.configHome.name",
            json!(name),
            code::UNSAFE_CONFIG_HOME_NAME,
        );
    }
    for parent in ["..", "/root", "a\\b"] {
        c.ours(
            "antigravity",
            "runtime.configHome.parent",
            json!(parent),
            code::UNSAFE_CONFIG_HOME_PARENT,
        );
    }
    for probe in ["..", "a/b", "/etc", ".gem\u{202E}ini"] {
        c.ours(
            "antigravity",
            "runtime.configHome.probe",
            json!([probe]),
            code::UNSAFE_CONFIG_HOME_PROBE,
        );
    }
    for probe in [
        "/etc",
        "rel",
        "~/../../etc",
        "~/",
        "~/./",
        "~/.a\u{202E}gents",
        "~//x",
    ] {
        c.ours(
            "kimi",
            "runtime.configHome.probe",
            json!(["~/.agents", probe]),
            code::UNSAFE_CONFIG_HOME_PROBE,
        );
    }
    for marker in ["../VERSION", "/etc/passwd"] {
        c.ours(
            "antigravity",
            "runtime.configHome.probeExists",
            json!(marker),
            code::UNSAFE_CONFIG_HOME_PROBE,
        );
    }
}

/// Deliberate differences: the peer accepts or throws, we report our own code.
fn difference_cases(c: &mut Corpus<'_>) {
    use gsd_core::validate::code;
    for dest in [
        "../escape",
        "/etc",
        "C:\\Users\\x",
        "skills/../../x",
        "a\u{0}b",
        "sk\u{202E}ills",
        "skills\u{200B}",
        ".",
        "././/",
    ] {
        c.ours(
            "claude",
            "runtime.artifactLayout.global[0].destSubpath",
            json!(dest),
            code::UNSAFE_DEST_SUBPATH,
        );
    }
    config_home_cases(c);
    c.ours(
        "claude",
        "runtime.artifactLayout.global[0].converter",
        Value::Null,
        code::SKILLS_WITHOUT_CONVERTER,
    );
    for dir in ["..", "../x", ".claude/../../x", ".a\u{7}"] {
        c.ours(
            "claude",
            "runtime.localConfigDir",
            json!(dir),
            code::UNSAFE_LOCAL_CONFIG_DIR,
        );
    }
    for home in [
        json!("../x"),
        json!("/etc"),
        json!(""),
        json!(5),
        json!("C:x"),
    ] {
        c.ours(
            "antigravity",
            "runtime.artifactLayout.global[0].home",
            home,
            code::UNSAFE_LAYOUT_HOME,
        );
    }
    joined_name_cases(c);
    for path in ["C:\\x.md", "\\\\server\\x.md", "a\u{0}b.md", "frag\n.md"] {
        c.ours(
            "security",
            "steps[0].fragment",
            json!({"path": path}),
            code::UNSAFE_FRAGMENT_PATH,
        );
    }
    for key in ["steps", "contributions", "gates"] {
        let name = format!("{key}: [null]");
        c.mutate(
            "security",
            &name,
            Expect::PeerThrows(code::NULL_ELEMENT),
            |v| set(v, key, json!([null])),
        );
    }
    c.mutate(
        "drift",
        "gates: [ok, null]",
        Expect::PeerThrows(code::NULL_ELEMENT),
        |v| {
            let first = v["gates"][0].clone();
            set(v, "gates", json!([first, null, {"point": "bogus"}]));
        },
    );
}

/// Deliberate differences in values joined into names: a layout prefix (joined to each
/// stem), a settings file (joined onto the config directory) and an agent file suffix
/// (joined to each agent stem).
fn joined_name_cases(c: &mut Corpus<'_>) {
    use gsd_core::validate::code;
    for prefix in [
        "a/b",
        "..\\",
        "gsd\u{1b}[2J-",
        "gsd\u{202e}-",
        "gsd\u{200b}-",
        "p".repeat(33).leak(),
    ] {
        c.ours(
            "claude",
            "runtime.artifactLayout.global[0].prefix",
            json!(prefix),
            code::UNSAFE_LAYOUT_PREFIX,
        );
    }
    for (scope, file) in [
        ("global", json!("../../../etc/x")),
        ("global", json!("/abs/settings.json")),
        ("local", json!("C:\\settings.json")),
        ("local", json!("")),
        ("global", json!(5)),
        ("local", json!("settings\u{0}.json")),
        ("global", json!(".")),
        ("local", json!("config/")),
        ("global", json!("config\\.")),
        ("global", json!("settings\u{202E}nosj.json")),
        ("local", json!("settings\u{200B}.json")),
    ] {
        c.ours(
            "claude",
            &format!("runtime.hostBehaviors.settingsFileByScope.{scope}"),
            file,
            code::UNSAFE_SETTINGS_FILE,
        );
    }
    for ext in [
        json!("agent.md"),
        json!("."),
        json!(".agent."),
        json!(".x/../../y"),
        json!(".a\\b"),
        json!(".agent\u{202E}dm"),
        json!(".agent\u{7}"),
        json!(format!(".{}", "x".repeat(16))),
        json!(""),
        json!(5),
        json!([".agent.md"]),
    ] {
        c.ours(
            "copilot",
            "runtime.hostBehaviors.agentFileExtension",
            ext.clone(),
            code::UNSAFE_AGENT_FILE_EXTENSION,
        );
        c.ours(
            "claude",
            "runtime.hostBehaviors.agentFileExtension",
            ext,
            code::UNSAFE_AGENT_FILE_EXTENSION,
        );
    }
}

/// Every case: the shipped manifests as they are, then one mutation each.
pub fn build(base: &BTreeMap<String, Value>) -> Vec<Case> {
    let mut corpus = Corpus {
        base,
        cases: Vec::new(),
    };
    for (folder, value) in base {
        corpus.push_value(format!("{folder}: shipped"), folder, value, Expect::Same);
    }
    envelope_cases(&mut corpus);
    runtime::runtime_cases(&mut corpus);
    runtime::warning_cases(&mut corpus);
    bodies::reviewer_cases(&mut corpus);
    bodies::feature_cases(&mut corpus);
    semantics::semantics_cases(&mut corpus);
    difference_cases(&mut corpus);
    corpus.cases
}
