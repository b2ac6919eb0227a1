//! `validate_body` runs one step of `validate_capability` on its own. The peer's
//! `validateCapability` is the common fields, then `validateVersionEnvelope`, then the
//! role's bodies (peer specification §11); so on a manifest whose common fields are valid,
//! the whole validation must be the concatenation of the per-body results plus the role's
//! own dispatcher rules. Message parity of each body with the live peer is asserted in
//! `npm/test/compat-validator-bodies.test.mjs`.

use gsd_core::embedded;
use gsd_core::validate::{Body, code, validate_body, validate_capability};
use serde_json::{Value, json};

fn shipped() -> Vec<(&'static str, Value)> {
    embedded::first_party()
        .iter()
        .map(|f| {
            (
                f.folder,
                serde_json::from_str(f.manifest).expect("manifest parses"),
            )
        })
        .collect()
}

fn messages(body: Body, v: &Value) -> Vec<String> {
    validate_body(body, v)
        .into_iter()
        .map(|d| d.message)
        .collect()
}

/// Mutations that leave the common fields valid but break the bodies.
fn mutated(v: &Value) -> Vec<Value> {
    let mut out = vec![v.clone()];
    for (key, value) in [
        ("version", json!("v1")),
        ("engines", json!("x")),
        ("compatVersions", json!({"1": 2})),
        ("integrity", json!(1)),
        ("provenance", json!({})),
        ("skills", json!([1, "__proto__"])),
        ("runtime", json!({"configFormat": "yaml"})),
        ("reviewer", json!({"slug": "A", "transport": "pigeon"})),
        ("config", json!([])),
        ("steps", json!([{}])),
    ] {
        let mut m = v.clone();
        m[key] = value;
        out.push(m);
    }
    out
}

#[test]
fn validate_capability_is_the_concatenation_of_the_body_steps() {
    let mut compared = 0;
    for (id, cap) in shipped() {
        for m in mutated(&cap) {
            let whole: Vec<String> = validate_capability(&m, id)
                .into_iter()
                .map(|d| d.message)
                .collect();
            let mut parts = messages(Body::Envelope, &m);
            match m["role"].as_str() {
                Some("feature") => {
                    parts.extend(messages(Body::Feature, &m));
                    if m.get("reviewer").is_some() {
                        parts.push("role:feature capability must not have a \"reviewer\" body (admissible on role runtime or reviewer only)".to_owned());
                    }
                }
                Some("runtime") => {
                    parts.extend(messages(Body::Runtime, &m));
                    parts.extend(messages(Body::Reviewer, &m));
                }
                Some("reviewer") => {
                    // The reviewer dispatcher's own rules come before the body: keep the tail.
                    let body = messages(Body::Reviewer, &m);
                    assert!(whole.ends_with(&body), "{id}: {whole:#?} / {body:#?}");
                    compared += 1;
                    continue;
                }
                other => panic!("{id}: role {other:?}"),
            }
            assert_eq!(whole, parts, "{id}");
            compared += 1;
        }
    }
    assert_eq!(compared, 46 * 11);
}

#[test]
fn bodies_ignore_the_role() {
    let caps = shipped();
    let feature = &caps
        .iter()
        .find(|(_, c)| c["role"] == "feature")
        .expect("a feature")
        .1;
    // The runtime body on a feature manifest: every feature field present is forbidden,
    // and there is no runtime object.
    let errors = validate_body(Body::Runtime, feature);
    let last = errors.last().expect("errors");
    assert_eq!(
        last.message,
        "role:runtime capability must have a \"runtime\" object"
    );
    assert!(errors.iter().any(|d| d.code == code::FORBIDDEN_FIELD));
    // A reviewer body is validated on any role.
    let mut m = feature.clone();
    m["reviewer"] = json!(null);
    assert_eq!(validate_body(Body::Reviewer, &m)[0].code, code::WRONG_TYPE);
}

#[test]
fn null_is_our_error_where_the_peer_throws_and_other_non_objects_have_no_fields() {
    for body in [Body::Envelope, Body::Feature, Body::Runtime] {
        let errors = validate_body(body, &Value::Null);
        assert_eq!(errors.len(), 1, "{body:?}");
        assert_eq!(errors[0].code, code::WRONG_TYPE);
        assert_eq!(errors[0].message, "capability must be a JSON object");
    }
    assert!(validate_body(Body::Reviewer, &Value::Null).is_empty());
    for value in [json!(1), json!("x"), json!([1]), json!(true)] {
        for body in [Body::Envelope, Body::Feature, Body::Runtime, Body::Reviewer] {
            assert_eq!(
                validate_body(body, &value),
                validate_body(body, &json!({})),
                "{body:?} {value}"
            );
        }
    }
}

#[test]
fn the_depth_guard_and_error_cap_apply() {
    let mut deep = json!(1);
    for _ in 0..600 {
        deep = json!([deep]);
    }
    let errors = validate_body(Body::Envelope, &json!({"id": "x", "engines": deep}));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, code::TOO_DEEP);
    assert_eq!(errors[0].capability_id.as_deref(), Some("x"));
    let many = json!({"skills": vec![1; 5000]});
    let errors = validate_body(Body::Feature, &many);
    assert_eq!(errors.len(), gsd_core::validate::MAX_REPORTED_ERRORS + 1);
    assert_eq!(
        errors.last().map(|d| d.code.as_str()),
        Some(code::TOO_MANY_ERRORS)
    );
}
