//! Stand-in for `crate::validate` (single-capability validation) with the same three
//! signatures, so overlay loading can be written and tested against the contract. It
//! checks only what the registry itself relies on; the full validator replaces it.

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::error::{Error, ErrorCode};
use crate::vocab::{Role, Tier};

use super::overlay::MANIFEST_MAX_BYTES;

const MAX_DEPTH: usize = 64;

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

/// Parses a manifest text: bounded size and depth, JSON, an object.
pub(crate) fn parse_manifest(text: &str) -> Result<Value, Error> {
    if text.len() > MANIFEST_MAX_BYTES {
        return Err(Error::new(
            ErrorCode::ManifestTooLarge,
            format!("manifest is {} bytes, over the limit", text.len()),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        Error::new(
            ErrorCode::ManifestInvalidJson,
            format!("manifest is not valid JSON: {e}"),
        )
    })?;
    if depth(&value) > MAX_DEPTH {
        return Err(Error::new(
            ErrorCode::ManifestTooDeep,
            "manifest nests too deeply",
        ));
    }
    if !value.is_object() {
        return Err(Error::new(
            ErrorCode::ManifestInvalid,
            "manifest must be a JSON object",
        ));
    }
    Ok(value)
}

fn invalid(folder: &str, field: &str, message: String) -> Diagnostic {
    Diagnostic::new("invalid_field", Severity::Error, message)
        .with_capability(folder)
        .with_field(field)
}

/// The envelope checks the registry depends on: kebab id equal to the folder, a known
/// role and tier, string arrays where indexes read them.
pub(crate) fn validate_capability(value: &Value, folder: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let id = value.get("id").and_then(Value::as_str);
    let kebab = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    match id {
        Some(id) if kebab(id) && id == folder => {}
        _ => out.push(invalid(
            folder,
            "id",
            format!("id must be kebab-case and match folder \"{folder}\""),
        )),
    }
    if value
        .get("role")
        .and_then(Value::as_str)
        .and_then(Role::parse)
        .is_none()
    {
        out.push(invalid(
            folder,
            "role",
            format!("role must be one of: {}", Role::one_of()),
        ));
    }
    if value
        .get("tier")
        .and_then(Value::as_str)
        .and_then(Tier::parse)
        .is_none()
    {
        out.push(invalid(
            folder,
            "tier",
            format!("tier must be one of: {}", Tier::one_of()),
        ));
    }
    for key in [
        "requires",
        "skills",
        "agents",
        "steps",
        "contributions",
        "gates",
        "commands",
    ] {
        match value.get(key) {
            None | Some(Value::Array(_)) => {}
            Some(_) => out.push(invalid(folder, key, format!("{key} must be an array"))),
        }
    }
    out
}

/// Non-fatal findings; the stand-in has none.
pub(crate) fn warning_records(_value: &Value) -> Vec<Diagnostic> {
    Vec::new()
}
