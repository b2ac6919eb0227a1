//! Parity of manifest validation with the peer's `capability-validator.cjs`.
//!
//! A corpus of broken manifests is generated deterministically by applying one mutation
//! each to the shipped manifests in `capabilities/`. All of them go to the peer in one
//! batch (`peer/validate.cjs`); for every case our error messages must equal the peer's,
//! in order, and our warning records must equal the peer's records field for field. The
//! deliberate differences (see `docs/validation.md`) are checked separately: the peer
//! throws or accepts, we report our own code, and everything else still matches.

mod util;
mod validate_corpus;

use gsd_core::validate::{
    CapabilityCheck, Origin, ParsedManifest, check_capability, validate_capability, warning_records,
};
use gsd_core::{Diagnostic, parse_manifest};
use serde_json::{Map, Value, json};

use validate_corpus::{Case, Expect};

fn messages(ds: &[Diagnostic]) -> Vec<String> {
    ds.iter().map(|d| d.message.clone()).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string").to_owned())
        .collect()
}

/// Our warning as the peer's record shape.
fn as_record(d: &Diagnostic) -> Value {
    let mut rec = Map::new();
    rec.insert("code".into(), json!(d.code));
    rec.insert("capId".into(), json!(d.capability_id));
    rec.insert("field".into(), json!(d.field));
    rec.insert("message".into(), json!(d.message));
    if let Some(Value::Object(detail)) = d.detail_value() {
        for (k, v) in detail {
            rec.insert(k, v);
        }
    }
    Value::Object(rec)
}

/// Peer record with keys sorted (field order is not part of the contract).
fn sorted(v: &Value) -> Value {
    let mut entries: Vec<(String, Value)> =
        v.as_object().expect("record").clone().into_iter().collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Value::Object(entries.into_iter().collect())
}

/// Counts and failures of one comparison run.
#[derive(Default)]
struct Tally {
    compared: usize,
    messages: usize,
    differences: usize,
    failures: Vec<String>,
}

/// A case expected to equal the peer: errors, then (for a valid manifest) the loader's
/// contract step.
fn compare_same(
    case: &Case,
    peer: &Value,
    manifest: &Value,
    ours: &[Diagnostic],
    tally: &mut Tally,
) {
    if !peer["threw"].is_null() {
        tally
            .failures
            .push(format!("{}: the peer threw {}", case.name, peer["threw"]));
        return;
    }
    let peer_errors = strings(&peer["errors"]);
    tally.messages += peer_errors.len();
    tally.compared += 1;
    if messages(ours) != peer_errors {
        tally.failures.push(format!(
            "{}:\n  ours: {:#?}\n  peer: {peer_errors:#?}",
            case.name,
            messages(ours)
        ));
    }
    if peer_errors.is_empty() {
        let check = check_capability(manifest, &case.folder, Origin::FirstParty);
        let peer_contract = strings(&peer["contract"]);
        if messages(&check.errors) != peer_contract {
            tally.failures.push(format!(
                "{} (contract):\n  ours: {:#?}\n  peer: {peer_contract:#?}",
                case.name,
                messages(&check.errors)
            ));
        }
    }
}

/// A deliberate difference: the peer accepts (`OursAdds`) or throws (`PeerThrows`).
fn compare_difference(case: &Case, peer: &Value, ours: &[Diagnostic], tally: &mut Tally) {
    tally.differences += 1;
    match case.expect {
        Expect::OursAdds(code) => {
            // Without our extra errors, we agree with the peer exactly.
            let peer_errors = strings(&peer["errors"]);
            let (extra, rest): (Vec<&Diagnostic>, Vec<&Diagnostic>) =
                ours.iter().partition(|d| d.code == code);
            let rest: Vec<String> = rest.iter().map(|d| d.message.clone()).collect();
            if extra.is_empty() || rest != peer_errors {
                tally.failures.push(format!(
                    "{} (ours adds {code}):\n  ours: {:#?}\n  peer: {peer_errors:#?}",
                    case.name,
                    messages(ours)
                ));
            }
        }
        Expect::PeerThrows(code) => {
            if peer["threw"].is_null() || !ours.iter().any(|d| d.code == code) {
                tally.failures.push(format!(
                    "{} (peer throws, ours {code}): peer {peer}, ours {:#?}",
                    case.name,
                    messages(ours)
                ));
            }
        }
        Expect::Same => unreachable!("not a difference"),
    }
}

fn compare_warnings(case: &Case, peer: &Value, manifest: &Value, tally: &mut Tally) {
    let ours: Vec<Value> = warning_records(manifest)
        .iter()
        .map(|d| sorted(&as_record(d)))
        .collect();
    let theirs: Vec<Value> = peer["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .map(sorted)
        .collect();
    if ours != theirs {
        tally.failures.push(format!(
            "{} (warnings):\n  ours: {ours:#?}\n  peer: {theirs:#?}",
            case.name
        ));
    }
}

/// The text path (`ParsedManifest`: strings borrowed from the text, what the bindings
/// validate with) answers what the `serde_json::Value` path answers, so it matches the
/// peer wherever the value path does.
fn text_path_agrees(case: &Case, manifest: &Value, ours: &[Diagnostic], tally: &mut Tally) {
    let parsed = ParsedManifest::parse(&case.text).expect("corpus manifest parses");
    let check = |origin| {
        parsed.check(&case.folder, origin) == check_capability(manifest, &case.folder, origin)
    };
    if parsed.validate(&case.folder) != ours
        || parsed.warning_records() != warning_records(manifest)
        || !check(Origin::FirstParty)
        || !check(Origin::ThirdParty)
    {
        tally.failures.push(format!(
            "{}: the text path differs from the value path",
            case.name
        ));
    }
}

#[test]
fn validation_matches_the_peer_on_a_mutation_corpus() {
    let base = validate_corpus::shipped();
    let cases = validate_corpus::build(&base);
    let input = json!({"cases": cases.iter().map(|c| json!({"folder": c.folder, "text": c.text})).collect::<Vec<_>>()});
    let output = util::peer_eval("validate.cjs", &input);
    let results = output["results"].as_array().expect("results");
    assert_eq!(results.len(), cases.len());

    let mut tally = Tally::default();
    for (case, peer) in cases.iter().zip(results) {
        let manifest = parse_manifest(&case.text).expect("corpus manifest parses");
        let ours = validate_capability(&manifest, &case.folder);
        assert!(
            ours.iter().all(|d| !d.code.is_empty() && d.field.is_some()),
            "{}: every error has a code and field",
            case.name
        );
        if case.expect == Expect::Same {
            compare_same(case, peer, &manifest, &ours, &mut tally);
        } else {
            compare_difference(case, peer, &ours, &mut tally);
        }
        compare_warnings(case, peer, &manifest, &mut tally);
        text_path_agrees(case, &manifest, &ours, &mut tally);
    }
    println!(
        "compared {} cases with the peer ({} error messages, plus warning records); {} deliberate differences checked",
        tally.compared, tally.messages, tally.differences
    );
    let n = tally.failures.len();
    assert!(
        n == 0,
        "{n} of {} cases differ:\n{}",
        cases.len(),
        tally.failures.join("\n")
    );
    assert!(
        tally.compared >= 250,
        "corpus too small: {}",
        tally.compared
    );
    assert!(
        tally.messages >= 1000,
        "corpus produces too few errors: {}",
        tally.messages
    );
}

/// Our own codes (docs/validation.md): removed before comparing random cases.
const OUR_CODES: &[&str] = &[
    "null_element",
    "too_deep",
    "too_many_errors",
    "unsafe_dest_subpath",
    "unsafe_config_home_name",
    "unsafe_config_home_parent",
    "unsafe_config_home_probe",
    "skills_without_converter",
    "unsafe_local_config_dir",
    "unsafe_layout_home",
    "unsafe_fragment_path",
    "unsafe_layout_prefix",
    "unsafe_settings_file",
    "unsafe_agent_file_extension",
];

/// Equal, or equal once our 80-character clipping is accounted for: every piece of ours
/// around a `…` appears in the peer's message, in order, anchored at both ends.
fn equal_modulo_clipping(ours: &str, peer: &str) -> bool {
    if ours == peer {
        return true;
    }
    let pieces: Vec<&str> = ours.split('…').collect();
    if pieces.len() < 2 || !peer.starts_with(pieces[0]) || !peer.ends_with(pieces[pieces.len() - 1])
    {
        return false;
    }
    let mut rest = &peer[pieces[0].len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= pieces[pieces.len() - 1].len()
}

#[test]
fn seeded_random_mutations_match_the_peer() {
    let base = validate_corpus::shipped();
    let cases = validate_corpus::random_cases(&base, 3000);
    let input = json!({"cases": cases.iter().map(|c| json!({"folder": c.folder, "text": c.text})).collect::<Vec<_>>()});
    let output = util::peer_eval("validate.cjs", &input);
    let results = output["results"].as_array().expect("results");
    let mut tally = Tally::default();
    for (case, peer) in cases.iter().zip(results) {
        let manifest = parse_manifest(&case.text).expect("corpus manifest parses");
        let ours = validate_capability(&manifest, &case.folder);
        text_path_agrees(case, &manifest, &ours, &mut tally);
        if !peer["threw"].is_null() {
            tally.differences += 1;
            if !ours.iter().any(|d| d.code == "null_element") {
                tally.failures.push(format!(
                    "{}: the peer threw {}, ours {:#?}",
                    case.name,
                    peer["threw"],
                    messages(&ours)
                ));
            }
            continue;
        }
        let kept: Vec<String> = ours
            .iter()
            .filter(|d| !OUR_CODES.contains(&d.code.as_str()))
            .map(|d| d.message.clone())
            .collect();
        if kept.len() != ours.len() {
            tally.differences += 1;
        }
        let peer_errors = strings(&peer["errors"]);
        tally.compared += 1;
        tally.messages += peer_errors.len();
        let same = kept.len() == peer_errors.len()
            && kept
                .iter()
                .zip(&peer_errors)
                .all(|(o, p)| equal_modulo_clipping(o, p));
        if !same {
            tally.failures.push(format!(
                "{}:\n  ours: {kept:#?}\n  peer: {peer_errors:#?}",
                case.name
            ));
        }
        if ours.is_empty() {
            let check = check_capability(&manifest, &case.folder, Origin::FirstParty);
            if messages(&check.errors) != strings(&peer["contract"]) {
                tally.failures.push(format!(
                    "{} (contract): ours {:#?}, peer {}",
                    case.name,
                    messages(&check.errors),
                    peer["contract"]
                ));
            }
        }
        compare_warnings(case, peer, &manifest, &mut tally);
    }
    println!(
        "compared {} seeded random mutations with the peer ({} error messages); {} hit a deliberate difference",
        tally.compared, tally.messages, tally.differences
    );
    let n = tally.failures.len();
    assert!(
        n == 0,
        "{n} of {} random cases differ:\n{}",
        cases.len(),
        tally.failures.join("\n")
    );
}

#[test]
fn shipped_manifests_validate_clean_like_the_peer() {
    let base = validate_corpus::shipped();
    let cases: Vec<Value> = base
        .iter()
        .map(|(f, v)| json!({"folder": f, "text": serde_json::to_string(v).expect("text")}))
        .collect();
    let output = util::peer_eval("validate.cjs", &json!({"cases": cases}));
    for ((folder, value), peer) in base
        .iter()
        .zip(output["results"].as_array().expect("results"))
    {
        assert_eq!(peer["errors"], json!([]), "{folder}: peer errors");
        assert_eq!(peer["warnings"], json!([]), "{folder}: peer warnings");
        let check = check_capability(value, folder, Origin::FirstParty);
        assert_eq!(check, CapabilityCheck::default(), "{folder}: ours");
    }
}
