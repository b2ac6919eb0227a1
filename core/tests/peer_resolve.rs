//! Parity of install resolution with the live peer: scopes, config homes, layouts, trigger
//! surfaces, install intents and slash spellings, each asked of the peer in one batch.

mod util;

use std::collections::{BTreeMap, BTreeSet};

use gsd_core::{
    ErrorCode, Host, PlanRequest, Registry, Scope, TriggerInput, Triggers, format_gsd_slash,
    install_intent, parse_scope, resolve_config_home, resolve_install_plan, resolve_layout,
    resolve_scope, resolve_trigger_surface, resolve_trigger_surface_lenient, scope_probe_paths,
};
use serde_json::{Value, json};

fn registry() -> &'static Registry {
    Registry::first_party()
}

fn runtime_ids() -> Vec<String> {
    registry().runtime_ids().map(str::to_owned).collect()
}

/// Asks the peer for one area; returns one result per case.
fn ask(area: &str, cases: &[Value]) -> Vec<Value> {
    let out = util::peer_eval("resolve.cjs", &json!({ "area": area, "cases": cases }));
    let list = out.as_array().cloned().unwrap_or_default();
    assert_eq!(
        list.len(),
        cases.len(),
        "peer answered {} of {} {area} cases",
        list.len(),
        cases.len()
    );
    list
}

/// The error code our core must give for a peer error message (its message family).
fn family(message: &str) -> ErrorCode {
    let families = [
        ("id must be one of", ErrorCode::InvalidScope),
        ("unknown runtime", ErrorCode::UnknownRuntime),
        ("Unknown runtime", ErrorCode::UnknownRuntime),
        (
            "has no installable config directory",
            ErrorCode::NoConfigHome,
        ),
        ("has no config-home directory", ErrorCode::NoConfigHome),
        (
            "configDir must be a non-empty string",
            ErrorCode::InvalidArgument,
        ),
        (
            "converter is required for skills",
            ErrorCode::InvalidDescriptor,
        ),
    ];
    families
        .iter()
        .find(|(needle, _)| message.contains(needle))
        .map_or_else(
            || panic!("unmapped peer error message: {message}"),
            |(_, code)| *code,
        )
}

fn host_of(case: &Value) -> Host {
    let mut host = Host::new(
        case["home"].as_str().unwrap_or_default(),
        case["cwd"].as_str().unwrap_or_default(),
    );
    if let Some(env) = case["env"].as_object() {
        host.env = env
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
            .collect();
    }
    if let Some(existing) = case["existing"].as_array() {
        host.existing_paths = existing
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
    }
    host
}

/// Environment scenarios for a runtime: none, each var with tricky values, all vars, XDG.
fn env_scenarios(vars: &[String]) -> Vec<BTreeMap<String, String>> {
    let values = [
        "/custom/dir",
        "   ",
        "",
        "~",
        "~/x",
        "~user/x",
        "rel/dir",
        " /pad ",
        "~\\x",
        "/a/b/../c/",
        "/f/file.json",
    ];
    let mut out = vec![BTreeMap::new()];
    for var in vars {
        for value in values {
            out.push(BTreeMap::from([(var.clone(), value.to_owned())]));
        }
    }
    let all: BTreeMap<String, String> = vars
        .iter()
        .enumerate()
        .map(|(i, v)| (v.clone(), format!("/all/{i}")))
        .collect();
    out.push(all);
    for xdg in ["/xdg", "~/xdg", "   "] {
        out.push(BTreeMap::from([(
            "XDG_CONFIG_HOME".to_owned(),
            xdg.to_owned(),
        )]));
        let mut blanked: BTreeMap<String, String> =
            vars.iter().map(|v| (v.clone(), "   ".to_owned())).collect();
        blanked.insert("XDG_CONFIG_HOME".to_owned(), xdg.to_owned());
        out.push(blanked);
    }
    out
}

/// Probe sets built from the descriptor (not from our probe list): nothing, each candidate
/// directory, each marked candidate, every directory-plus-other-marker pair, everything.
fn probe_scenarios(runtime: &str, home: &str) -> Vec<Vec<String>> {
    let Some(descriptor) = registry().runtime(runtime) else {
        return vec![Vec::new()];
    };
    let config_home = &descriptor.config_home;
    let Some(probe) = config_home.probe.as_ref() else {
        return vec![Vec::new()];
    };
    let base = config_home
        .parent
        .as_ref()
        .map_or_else(String::new, |p| format!("{home}/{p}"));
    let dir = |c: &str| {
        if let Some(rest) = c.strip_prefix("~/") {
            format!("{home}/{rest}")
        } else if base.is_empty() {
            c.to_owned()
        } else {
            format!("{base}/{c}")
        }
    };
    let marker = config_home.probe_exists.clone().unwrap_or_default();
    let dirs: Vec<String> = probe.iter().map(|c| dir(c)).collect();
    let marks: Vec<String> = dirs.iter().map(|d| format!("{d}/{marker}")).collect();
    let mut out = vec![Vec::new()];
    out.extend(dirs.iter().map(|d| vec![d.clone()]));
    out.extend(marks.iter().map(|m| vec![m.clone()]));
    for (i, d) in dirs.iter().enumerate() {
        for (j, m) in marks.iter().enumerate() {
            if i != j {
                out.push(vec![d.clone(), m.clone()]);
            }
        }
    }
    out.push(dirs.iter().chain(&marks).cloned().collect());
    out
}

fn host_cases(runtime: &str) -> Vec<Value> {
    let vars: Vec<String> = registry()
        .runtime(runtime)
        .map(|d| d.config_home.env.clone())
        .unwrap_or_default();
    let mut out = Vec::new();
    for env in env_scenarios(&vars) {
        out.push(json!({ "runtime": runtime, "home": "/home/u", "cwd": "/work/p", "env": env, "existing": [] }));
    }
    for (home, cwd) in [
        ("/home/a b", "/work/a b"),
        ("C:\\Users\\x", "C:\\proj"),
        ("/home/u/", "/work/p/"),
        ("/", "/"),
        ("/home/u", "rel/p"),
        ("", ""),
    ] {
        out.push(
            json!({ "runtime": runtime, "home": home, "cwd": cwd, "env": {}, "existing": [] }),
        );
        out.push(json!({ "runtime": runtime, "home": home, "cwd": cwd, "env": { vars.first().cloned().unwrap_or_default(): "~/v" }, "existing": [] }));
    }
    for existing in probe_scenarios(runtime, "/home/u") {
        out.push(json!({ "runtime": runtime, "home": "/home/u", "cwd": "/work/p", "env": {}, "existing": existing }));
    }
    out
}

/// Scope cases: every runtime (and some non-runtimes) × host scenarios × both scopes, the
/// explicit-directory variants, and invalid scope ids.
fn scope_cases() -> Vec<Value> {
    let explicit = [
        "~",
        "~/x",
        "/abs/dir",
        "rel/dir",
        "   ",
        "",
        " ~/x",
        "~\\x",
        "C:\\cfg",
        "/a/b/../c/",
        "~/",
    ];
    let mut cases = Vec::new();
    let mut runtimes = runtime_ids();
    runtimes.extend(
        [
            "__proto__",
            "constructor",
            "toString",
            "../claude",
            " claude",
            "CLAUDE",
            "gemini",
            "",
        ]
        .map(String::from),
    );
    for runtime in &runtimes {
        for base in host_cases(runtime) {
            for id in ["global", "local"] {
                let mut case = base.clone();
                case["id"] = json!(id);
                case["explicitDir"] = Value::Null;
                cases.push(case);
            }
        }
        for dir in explicit {
            for id in ["global", "local"] {
                cases.push(json!({ "runtime": runtime, "id": id, "home": "/home/u", "cwd": "/work/p", "env": {}, "existing": [], "explicitDir": dir }));
            }
        }
        for id in ["GLOBAL", "", "project", " local", "Local"] {
            cases.push(json!({ "runtime": runtime, "id": id, "home": "/home/u", "cwd": "/work/p", "env": {}, "existing": [], "explicitDir": null }));
        }
    }
    cases
}

#[test]
fn scopes_equal_the_peer() {
    let cases = scope_cases();
    let answers = ask("scope", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let host = host_of(case);
        let runtime = case["runtime"].as_str().unwrap_or_default();
        let explicit = case["explicitDir"].as_str();
        let ours = parse_scope(case["id"].as_str().unwrap_or_default())
            .and_then(|scope| resolve_scope(registry(), runtime, scope, &host, explicit));
        match (&answer["ok"], ours) {
            (Value::Object(peer), Ok(ours)) => {
                let ours_json = serde_json::to_value(&ours).expect("serialize");
                for key in [
                    "id",
                    "configHome",
                    "settingsFile",
                    "consentRequired",
                    "hostPrecedenceRank",
                ] {
                    assert_eq!(
                        peer.get(key),
                        ours_json.get(key),
                        "{key} differs for {case}"
                    );
                }
                assert_eq!(peer.len(), 5, "peer grew a field: {peer:?}");
                let probes = scope_probe_paths(registry(), runtime, ours.id, &host, explicit)
                    .expect("probe list");
                let peer_probes: Vec<String> =
                    serde_json::from_value(answer["probes"].clone()).expect("probes");
                assert!(
                    probes.starts_with(&peer_probes),
                    "peer probed {peer_probes:?}, we list {probes:?} for {case}"
                );
                if host.existing_paths.is_empty() {
                    assert_eq!(probes, peer_probes, "probe list differs for {case}");
                }
            }
            (_, Err(err)) if answer["err"].is_object() => {
                let message = answer["err"]["message"].as_str().unwrap_or_default();
                assert_eq!(
                    err.code(),
                    family(message),
                    "error family differs for {case}: {message}"
                );
                assert_eq!(answer["err"]["class"], "TypeError", "{case}");
                assert_eq!(
                    message,
                    format!("resolveScope: {}", err.message()),
                    "message differs for {case}"
                );
            }
            (peer, ours) => {
                panic!("outcome differs for {case}: peer {peer} / {answer}, ours {ours:?}")
            }
        }
    }
    println!("scope cases compared: {}", cases.len());
}

#[test]
fn config_homes_equal_the_peer() {
    let mut cases = Vec::new();
    for runtime in runtime_ids() {
        cases.extend(host_cases(&runtime));
    }
    let answers = ask("configHome", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let host = host_of(case);
        let descriptor = registry()
            .runtime(case["runtime"].as_str().unwrap_or_default())
            .expect("runtime");
        let ours = resolve_config_home(&descriptor.config_home, &host);
        match (&answer["ok"], ours) {
            (Value::String(peer), Ok((dir, _))) => assert_eq!(peer, &dir, "{case}"),
            (_, Err(err)) if answer["err"].is_object() => {
                let message = answer["err"]["message"].as_str().unwrap_or_default();
                assert_eq!(answer["err"]["class"], "Error", "{case}");
                assert_eq!(err.code(), family(message), "{case}");
                let lowered = format!("{}{}", &message[..1].to_lowercase(), &message[1..]);
                assert_eq!(lowered, err.message(), "{case}");
            }
            (peer, ours) => panic!("outcome differs for {case}: peer {peer}, ours {ours:?}"),
        }
        let peer_probes: Vec<String> =
            serde_json::from_value(answer["probes"].clone()).expect("probes");
        let probes = gsd_core::probe_paths(&descriptor.config_home, &host);
        assert!(
            probes.starts_with(&peer_probes),
            "peer probed {peer_probes:?}, we list {probes:?} for {case}"
        );
    }
    println!("config-home cases compared: {}", cases.len());
}

#[test]
fn layouts_equal_the_peer() {
    let mut cases = Vec::new();
    for runtime in runtime_ids()
        .into_iter()
        .chain(["__proto__".into(), "nope".into()])
    {
        for scope in ["global", "local"] {
            for home in ["/home/u", "/home/a b", "C:\\Users\\x"] {
                for config_dir in ["/cfg/x", "/home/u/.claude", "rel/cfg", ""] {
                    cases.push(json!({ "runtime": runtime, "scope": scope, "home": home, "configDir": config_dir }));
                }
            }
        }
    }
    let answers = ask("layout", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let host = Host::new(case["home"].as_str().unwrap_or_default(), "/work/p");
        let scope = parse_scope(case["scope"].as_str().unwrap_or_default()).expect("scope");
        let ours = resolve_layout(
            registry(),
            case["runtime"].as_str().unwrap_or_default(),
            case["configDir"].as_str().unwrap_or_default(),
            scope,
            &host,
        );
        match (&answer["ok"], ours) {
            (Value::Object(peer), Ok(ours)) => {
                let ours_json = serde_json::to_value(&ours).expect("serialize");
                for key in ["runtime", "configDir", "scope"] {
                    assert_eq!(peer.get(key), ours_json.get(key), "{key} for {case}");
                }
                let peer_kinds = peer["kinds"].as_array().expect("kinds");
                let our_kinds = ours_json["kinds"].as_array().expect("kinds");
                assert_eq!(peer_kinds.len(), our_kinds.len(), "{case}");
                for (p, o) in peer_kinds.iter().zip(our_kinds) {
                    for (key, value) in p.as_object().expect("kind") {
                        assert!(
                            ["kind", "destSubpath", "prefix", "converter", "home"]
                                .contains(&key.as_str()),
                            "new field {key}"
                        );
                        assert_eq!(Some(value), o.get(key), "{key} for {case}");
                    }
                    if p.get("home").is_none() {
                        assert!(
                            o.get("home").is_none(),
                            "we set a home the peer does not: {case}"
                        );
                    }
                }
            }
            (_, Err(err)) if answer["err"].is_object() => {
                let message = answer["err"]["message"].as_str().unwrap_or_default();
                assert_eq!(err.code(), family(message), "{case}: {message}");
            }
            (peer, ours) => {
                panic!("outcome differs for {case}: peer {peer} / {answer}, ours {ours:?}")
            }
        }
    }
    println!("layout cases compared: {}", cases.len());
}

/// The 72 real command stems, read from the peer's `commands/gsd/*.md`.
fn real_stems() -> Vec<String> {
    let dir = util::peer_dir().join("commands/gsd");
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .expect("peer commands dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".md").map(str::to_owned))
        .collect();
    stems.sort();
    assert_eq!(stems.len(), 72, "the peer ships 72 commands");
    stems
}

/// A router inventory over the real stems: `ns-*` are routers; every other stem gets owners
/// by index, some with a non-router first owner (which must leave them direct).
fn router_input(stems: &[String]) -> (Vec<String>, BTreeMap<String, Vec<String>>) {
    let routers: Vec<String> = stems
        .iter()
        .filter(|s| s.starts_with("ns-"))
        .cloned()
        .collect();
    let mut children = BTreeMap::new();
    for (index, stem) in stems.iter().filter(|s| !s.starts_with("ns-")).enumerate() {
        let first = routers[index % routers.len()].clone();
        let second = routers[(index + 1) % routers.len()].clone();
        let owners = match index % 4 {
            0 => vec![first, second],
            1 => vec!["ns-missing".to_owned(), first],
            2 => Vec::new(),
            _ => vec![first],
        };
        if index % 5 != 4 {
            children.insert(stem.clone(), owners);
        }
    }
    (routers, children)
}

#[test]
fn trigger_surfaces_equal_the_peer() {
    let stems = real_stems();
    let (routers, children) = router_input(&stems);
    let scope_sets: [&[&str]; 5] = [
        &["global"],
        &["local"],
        &["global", "local"],
        &["local", "global", "local"],
        &[],
    ];
    let mut cases = Vec::new();
    for runtime in runtime_ids() {
        for scopes in scope_sets {
            cases.push(json!({ "runtime": runtime, "scopes": scopes, "stems": stems, "routerStems": [], "childToRouters": {} }));
            cases.push(json!({ "runtime": runtime, "scopes": scopes, "stems": stems, "routerStems": routers, "childToRouters": children }));
        }
    }
    for runtime in ["__proto__", "nope"] {
        cases.push(json!({ "runtime": runtime, "scopes": ["global"], "stems": stems, "routerStems": [], "childToRouters": {} }));
    }
    // Odd inventories the peer takes as given: duplicates, empty and path-like stems,
    // prototype names, a router that is also a child, owners that are not routers.
    let odd_stems = [
        "help",
        "help",
        "",
        "a/b",
        "..",
        "ns-x",
        "child",
        "constructor",
        "__proto__",
        "toString",
        "ns-y",
    ];
    let odd_children = json!({
        "child": ["ns-x"], "help": ["ns-x", "nope"], "": ["ns-x"], "ns-y": ["ns-x"], "__proto__": ["ns-x"], "a/b": [],
    });
    for runtime in runtime_ids() {
        for scopes in [&["global", "local"][..], &["local"][..]] {
            cases.push(json!({ "runtime": runtime, "scopes": scopes, "stems": odd_stems, "routerStems": ["ns-x", "ns-y", "child"], "childToRouters": odd_children }));
        }
    }
    let answers = ask("trigger", &cases);
    let mut compared = 0usize;
    let mut refused = 0usize;
    for (case, answer) in cases.iter().zip(&answers) {
        let scopes: Vec<Scope> = case["scopes"]
            .as_array()
            .expect("scopes")
            .iter()
            .filter_map(|s| Scope::parse(s.as_str()?))
            .collect();
        let input: TriggerInput = serde_json::from_value(json!({
            "stems": case["stems"], "routerStems": case["routerStems"], "childToRouters": case["childToRouters"],
        }))
        .expect("input");
        let runtime = case["runtime"].as_str().unwrap_or_default();
        let ours = resolve_trigger_surface_lenient(registry(), runtime, &scopes, &input);
        refused += usize::from(checked_refuses(runtime, &scopes, &input, &ours));
        match (&answer["ok"], ours) {
            (Value::Array(peer), Ok(ours)) => {
                compared += peer.len();
                assert_eq!(
                    &serde_json::to_value(&ours).expect("serialize"),
                    &answer["ok"],
                    "{}",
                    case["runtime"]
                );
            }
            (_, Err(err)) if answer["err"].is_object() => {
                assert_eq!(
                    err.code(),
                    family(answer["err"]["message"].as_str().unwrap_or_default())
                );
            }
            (peer, ours) => panic!(
                "outcome differs for {}: peer {peer}, ours {ours:?}",
                case["runtime"]
            ),
        }
    }
    println!(
        "trigger-surface cases compared: {} ({compared} candidates, {refused} refused by the checked resolver)",
        cases.len()
    );
    assert!(refused > 0, "no case had a stem a plan refuses");
}

/// Whether the checked resolver refuses `input` where the lenient one (the peer's rule)
/// answered `lenient`. Either way it agrees: it answers the same, or it refuses a stem
/// that a plan refuses too.
fn checked_refuses(
    runtime: &str,
    scopes: &[Scope],
    input: &TriggerInput,
    lenient: &Result<Triggers, gsd_core::Error>,
) -> bool {
    match (
        resolve_trigger_surface(registry(), runtime, scopes, input),
        lenient,
    ) {
        (Ok(checked), Ok(lenient)) => {
            assert_eq!(&checked, lenient, "{runtime}");
            false
        }
        (Err(err), Ok(_)) => {
            assert_eq!(err.code(), ErrorCode::InvalidArgument, "{err:?}");
            let stem = named_stem(input, err.field().unwrap_or_default());
            assert!(
                !plan_takes(&stem),
                "a plan takes {stem:?}, the checked trigger resolver refused it"
            );
            true
        }
        (checked, Err(lenient)) => {
            assert_eq!(
                checked.err().map(|e| e.code()),
                Some(lenient.code()),
                "{runtime}"
            );
            false
        }
    }
}

/// Whether a claude plan takes `stem` as a command stem (or refuses it as
/// `INVALID_ARGUMENT`: the one rule every stem is checked by).
fn plan_takes(stem: &str) -> bool {
    let request = PlanRequest {
        runtime: "claude".into(),
        scope: Scope::Global,
        host: Host::new("/home/u", "/work/p"),
        explicit_dir: None,
        commands: vec![stem.to_owned()],
        agents: Vec::new(),
        router_stems: Vec::new(),
        child_to_routers: BTreeMap::new(),
        profile: None,
    };
    match resolve_install_plan(registry(), &request) {
        Ok(_) => true,
        Err(err) if err.code() == ErrorCode::InvalidArgument => false,
        Err(err) => panic!("a plan of one stem failed otherwise: {err:?}"),
    }
}

/// The stem of `input` that a checked resolver's error names (`stems[2]`, `routerStems[0]`,
/// `childToRouters` for a child: the first child that is not plain, `childToRouters.<child>`
/// for an owner: its first owner that is not plain).
fn named_stem(input: &TriggerInput, field: &str) -> String {
    let indexed = |name: &str, list: &[String]| {
        let index = field
            .strip_prefix(name)?
            .strip_prefix('[')?
            .strip_suffix(']')?;
        list.get(index.parse::<usize>().ok()?).cloned()
    };
    indexed("stems", &input.stems)
        .or_else(|| indexed("routerStems", &input.router_stems))
        .or_else(|| {
            let child = field.strip_prefix("childToRouters.")?;
            input
                .child_to_routers
                .get(child)?
                .iter()
                .find(|s| !plan_takes(s))
                .cloned()
        })
        .or_else(|| {
            (field == "childToRouters")
                .then(|| {
                    input
                        .child_to_routers
                        .keys()
                        .find(|s| !plan_takes(s))
                        .cloned()
                })
                .flatten()
        })
        .unwrap_or_else(|| panic!("the error names no stem of the input: {field}"))
}

#[test]
fn install_intents_equal_the_peer() {
    let mut runtimes = runtime_ids();
    runtimes.extend(["__proto__".into(), "nope".into()]);
    let cases: Vec<Value> = runtimes.iter().map(|r| json!({ "runtime": r })).collect();
    let answers = ask("intent", &cases);
    let mut known = BTreeSet::new();
    for (runtime, answer) in runtimes.iter().zip(&answers) {
        match (&answer["ok"], install_intent(registry(), runtime)) {
            (Value::Object(_), Ok(ours)) => {
                known.insert(runtime.clone());
                assert_eq!(
                    serde_json::to_value(&ours).expect("serialize"),
                    answer["ok"],
                    "{runtime}"
                );
            }
            (_, Err(err)) if answer["err"].is_object() => {
                let message = answer["err"]["message"].as_str().unwrap_or_default();
                assert_eq!(err.code(), family(message), "{runtime}");
                assert_eq!(message, format!("U{}", &err.message()[1..]), "{runtime}");
            }
            (peer, ours) => panic!("outcome differs for {runtime}: peer {peer}, ours {ours:?}"),
        }
    }
    assert_eq!(known.len(), 19);
    println!("install-intent cases compared: {}", cases.len());
}

#[test]
fn slash_spellings_equal_the_peer() {
    let names = [
        "",
        " ",
        "help",
        "/gsd:Plan-Phase 1",
        "/gsd-plan-phase 3",
        "$gsd-Help",
        "gsd:gsd:x",
        "GSD:Help",
        "/GSD-x",
        "/gsd:",
        "gsd-",
        "/gsd:   ",
        "/gsd:  x y",
        "x\ty",
        "x\u{a0}y",
        "Plan-Phase --path C:\\Users\\Me",
        "/gsdx",
        "/gsd_x",
        "$gsd:Ünïcode Tail",
        "/gsd:x\n--flag",
        "\u{feff}x",
        "x\u{85}y",
        "/",
        "$",
        "ns-review now",
    ];
    let mut runtimes: Vec<Value> = runtime_ids().into_iter().map(Value::String).collect();
    runtimes.extend(
        [
            "Codex",
            "codex-cli",
            "CODEX_DESKTOP",
            " codex",
            "claude-code",
            "nope",
            "",
            "__proto__",
        ]
        .map(|s| json!(s)),
    );
    runtimes.push(Value::Null);
    let mut cases = Vec::new();
    for name in names {
        for runtime in &runtimes {
            cases.push(json!({ "name": name, "runtime": runtime }));
        }
    }
    let answers = ask("slash", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let ours = format_gsd_slash(
            registry(),
            case["name"].as_str().unwrap_or_default(),
            case["runtime"].as_str(),
        );
        assert_eq!(answer["ok"], json!(ours), "{case}");
    }
    println!("slash cases compared: {}", cases.len());
}

/// The worked example of `docs/plan.md` (claude, global + local): its trigger surface and
/// resolved scopes are the peer's.
#[test]
fn docs_example_agrees_with_the_peer() {
    let text =
        std::fs::read_to_string(util::repo_root().join("docs/plan.md")).expect("docs/plan.md");
    let start = text
        .find("<!-- example:begin -->\n```json\n")
        .expect("begin marker")
        + "<!-- example:begin -->\n```json\n".len();
    let end = text[start..]
        .find("\n```\n<!-- example:end -->")
        .expect("end marker")
        + start;
    let example: Value = serde_json::from_str(&text[start..end]).expect("example JSON");
    let surface = ask(
        "trigger",
        &[
            json!({ "runtime": "claude", "scopes": ["global", "local"], "stems": ["help", "plan-phase"], "routerStems": [], "childToRouters": {} }),
        ],
    );
    assert_eq!(
        example["triggers"], surface[0]["ok"],
        "documented trigger surface"
    );
    let shadowed = example["triggers"]
        .as_array()
        .expect("triggers")
        .iter()
        .filter(|t| !t["shadowedBy"].is_null())
        .count();
    assert_eq!(
        shadowed, 2,
        "the local commands are shadowed by the global skills (#2218)"
    );
    let scope_cases: Vec<Value> = ["global", "local"]
        .iter()
        .map(|id| json!({ "runtime": "claude", "id": id, "home": "/home/u", "cwd": "/work/p", "env": {}, "existing": [], "explicitDir": null }))
        .collect();
    let scopes = ask("scope", &scope_cases);
    for (plan, peer) in example["plans"]
        .as_array()
        .expect("plans")
        .iter()
        .zip(&scopes)
    {
        for (key, value) in peer["ok"].as_object().expect("peer scope") {
            assert_eq!(&plan["scope"][key], value, "documented scope {key}");
        }
    }
}

#[test]
fn runtime_names_equal_the_peer() {
    let mut inputs: Vec<String> = runtime_ids();
    for (_, aliases) in gsd_core::slash::RUNTIME_ALIASES {
        inputs.extend(aliases.iter().map(|a| (*a).to_owned()));
    }
    let odd = [
        "",
        "   ",
        "Claude Code",
        "  CODEX__cli ",
        "Future_Thing",
        "kimi\tcode",
        "\u{feff}kimi",
        "x\u{85}y",
        "GEMINI",
    ];
    inputs.extend(odd.map(String::from));
    let cases: Vec<Value> = inputs.iter().map(|n| json!({ "name": n })).collect();
    let answers = ask("names", &cases);
    for (name, answer) in inputs.iter().zip(&answers) {
        let ours = json!({
            "canonical": gsd_core::canonicalize_runtime_name(name),
            "resolved": gsd_core::slash::resolve_runtime_name_from_candidates(&[name]),
        });
        assert_eq!(answer["ok"], ours, "{name:?}");
    }
    println!("runtime-name cases compared: {}", cases.len());
}

#[test]
fn destination_confinement_equals_the_peer() {
    let roots = [
        "/c",
        "/c/",
        "/",
        "",
        "rel",
        "/home/a b/.claude",
        "C:\\Users\\x",
        "/c/../d",
    ];
    let subs = [
        "skills",
        "../c/x",
        "/c/x",
        "./skills/",
        "x/..",
        ".",
        "..",
        "/etc",
        "",
        "C:\\x",
        "a\0b",
        "skills/gsd",
        "..\\x",
        "../d/x",
        "a/../../c/y",
        "//c/z",
    ];
    let mut cases = Vec::new();
    for root in roots {
        for sub in subs {
            cases.push(json!({ "configDir": root, "destSubpath": sub }));
        }
    }
    let answers = ask("confine", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let cwd = answer["cwd"].as_str().expect("peer cwd");
        let root = case["configDir"].as_str().unwrap_or_default();
        let ours = gsd_core::layout::dest_within_root(
            cwd,
            root,
            case["destSubpath"].as_str().unwrap_or_default(),
        );
        match (&answer["ok"], ours) {
            (Value::String(peer), Ok(ours)) => assert_eq!(peer, &ours, "{case}"),
            (_, Err(err)) if answer["err"].is_object() => {
                assert_eq!(
                    err.code(),
                    ErrorCode::DestinationOutsideConfigHome,
                    "{case}"
                );
                // The peer's message, with each control, bidi or invisible character
                // replaced by U+FFFD, as ours shows the caller's paths.
                let expected: Option<String> = answer["err"]["message"].as_str().map(|m| {
                    m.chars()
                        .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
                        .collect()
                });
                assert_eq!(expected.as_deref(), Some(err.message()), "{case}");
            }
            (peer, ours) => panic!("outcome differs for {case}: peer {peer}, ours {ours:?}"),
        }
    }
    println!("confinement cases compared: {}", cases.len());
}

#[test]
fn plan_uninstall_items_equal_the_peer() {
    let mut cases = Vec::new();
    for runtime in runtime_ids().into_iter().filter(|r| r != "vscode") {
        for id in ["global", "local"] {
            for (home, cwd) in [("/home/u", "/work/p"), ("/home/a b", "/work/a b")] {
                cases.push(
                    json!({ "runtime": runtime, "id": id, "home": home, "cwd": cwd, "env": {} }),
                );
            }
            let var = registry()
                .runtime(&runtime)
                .and_then(|d| d.config_home.env.first().cloned())
                .unwrap_or_default();
            cases.push(json!({ "runtime": runtime, "id": id, "home": "/home/u", "cwd": "/work/p", "env": { var: "/over/ride" } }));
        }
    }
    let answers = ask("uninstall", &cases);
    for (case, answer) in cases.iter().zip(&answers) {
        let request: gsd_core::PlanRequest = serde_json::from_value(json!({
            "runtime": case["runtime"], "scope": case["id"],
            "host": { "home": case["home"], "cwd": case["cwd"], "env": case["env"] },
        }))
        .expect("request");
        let plan = gsd_core::resolve_install_plan(registry(), &request).expect("plan");
        let ours = json!({ "items": plan.uninstall });
        assert_eq!(answer["ok"], ours, "{case}");
    }
    println!("uninstall-plan cases compared: {}", cases.len());
}
