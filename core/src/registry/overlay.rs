//! Overlays: third-party capabilities added on top of a registry value.
//!
//! The caller reads the overlay folders (the core does no IO) and passes each as an
//! [`Overlay`]: folder name, `capability.json` text, and the other files as
//! `(relative path, text)`. [`Registry::with_overlays`] never fails; an overlay that
//! cannot join becomes diagnostics and the rest carry on.
//!
//! Rules, in the order they are checked for each overlay:
//! 1. Overlays are processed sorted by folder (then manifest text, then files), so the
//!    result does not depend on the order they arrive in. Exact duplicates count once.
//!    Two *different* overlays with the same folder name are ambiguous: all of them are
//!    rejected (`overlay_folder_ambiguous`); neither is preferred.
//! 2. The folder may not use a reserved first-party prefix (`gsd-`, `gsd-core-`,
//!    `anthropic-`).
//! 3. The manifest must be at most [`MANIFEST_MAX_BYTES`], parse, and validate.
//! 4. Every file path must stay inside the folder (relative, no `..`, no backslash, no NUL) and
//!    be at most [`FRAGMENT_MAX_BYTES`]; every `fragment.path` must name a given file.
//! 5. First party always wins: an id, skill, agent, config key or command family that is
//!    already registered rejects the overlay.
//! 6. The merged set (registry so far + this overlay) must pass cross-validation,
//!    data-flow and hook-ordering checks; the overlay is accepted only if it adds no error.
//!    The registry is clean, so only the overlay's own interactions are checked
//!    ([`MergedSet`]), which keeps loading many overlays linear.
//!
//! Overlays are tried in passes, in sorted order, until a pass accepts nothing more: an
//! overlay that requires another one that sorts after it still joins. When two
//! overlays conflict with each other, the first in sorted order that can join wins.

use std::cell::OnceCell;
use std::sync::Arc;

use serde_json::json;

use super::{Registry, admit, capability_from_doc, materialize_fragments};
use crate::cross::{Member, MergedSet, Names};
use crate::diagnostic::{Diagnostic, Severity};
use crate::doc::{JsonDoc, JsonRef};
use crate::sanitize::sanitize_value;
use crate::validate;
use crate::vocab::RESERVED_ID_PREFIXES;

/// Largest accepted `capability.json` (8 MiB, as the peer's loader).
pub const MANIFEST_MAX_BYTES: usize = crate::validate::MAX_MANIFEST_BYTES;

/// Largest accepted fragment file (8 MiB).
pub const FRAGMENT_MAX_BYTES: usize = 8 * 1024 * 1024;

/// One third-party capability folder, read by the caller.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Overlay {
    /// Folder name (must equal the manifest id).
    pub folder: String,
    /// `capability.json` text.
    pub manifest: String,
    /// Other files of the folder: `(path relative to the folder with '/', text)`.
    pub fragments: Vec<(String, String)>,
}

/// A relative path with `.` and empty segments removed; `None` when [`confine`] refuses it.
pub(crate) fn normalize(path: &str) -> Option<String> {
    confine(path).ok()
}

/// [`normalize`], or why the path is refused, as the tail of a message: it could leave the
/// folder (absolute, a backslash, a drive such as `C:` at its start, a `..` segment), holds
/// a NUL (which no file name can), or names nothing. A `:` elsewhere is an ordinary
/// character of a POSIX file name.
fn confine(path: &str) -> Result<String, &'static str> {
    if path.contains('\0') {
        return Err("holds a NUL character, which no file name can");
    }
    if path.starts_with('/') {
        return Err("leaves the overlay folder: it is absolute");
    }
    if path.contains('\\') {
        return Err("leaves the overlay folder: it holds a backslash");
    }
    if crate::validate::paths::starts_with_drive(path) {
        return Err("leaves the overlay folder: it starts with a drive (e.g. C:)");
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("leaves the overlay folder: it has a \"..\" segment"),
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err("names no file");
    }
    Ok(parts.join("/"))
}

fn reject(code: &str, folder: &str, field: Option<&str>, message: String) -> Diagnostic {
    let d = Diagnostic::new(code, Severity::Error, message).with_capability(folder);
    match field {
        Some(f) => d.with_field(f),
        None => d,
    }
}

/// The refusal of an overlay whose `capability.json` holds `bytes` bytes, more than
/// [`MANIFEST_MAX_BYTES`]: `overlay_manifest_too_large`, no field.
///
/// [`Registry::with_overlays`] reports this for a manifest text over the bound. A loader
/// that stops reading a file one byte past the bound (and so never holds its whole text)
/// builds the same refusal from the file's size, which only it knows.
#[must_use]
pub fn manifest_too_large(folder: &str, bytes: u64) -> Diagnostic {
    let message =
        format!("capability.json is {bytes} bytes, over the {MANIFEST_MAX_BYTES}-byte limit");
    reject("overlay_manifest_too_large", folder, None, message)
}

/// The refusal of an overlay whose file at `path` (relative to the folder) holds `bytes`
/// bytes, more than [`FRAGMENT_MAX_BYTES`]: `overlay_fragment_too_large` on field
/// `fragment.path`. As [`manifest_too_large`], for a loader that knows the file's size.
#[must_use]
pub fn fragment_too_large(folder: &str, path: &str, bytes: u64) -> Diagnostic {
    let message =
        format!("file {path:?} is {bytes} bytes, over the {FRAGMENT_MAX_BYTES}-byte limit");
    reject(
        "overlay_fragment_too_large",
        folder,
        Some("fragment.path"),
        message,
    )
}

/// A text's length in bytes, as the `u64` the size refusals take.
fn byte_count(text: &str) -> u64 {
    u64::try_from(text.len()).unwrap_or(u64::MAX)
}

/// Keys an overlay claims that first party (or an earlier overlay) may already own.
fn claims(value: JsonRef<'_>) -> [(&'static str, &'static str, Vec<&str>); 4] {
    let config = match value.field("config").and_then(JsonRef::as_object) {
        Some(map) => map.keys().collect(),
        None => Vec::new(),
    };
    let families = value
        .field("commands")
        .and_then(JsonRef::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.field("family").and_then(JsonRef::as_str))
        .collect();
    [
        (
            "skill",
            "skills",
            crate::cross::strings(value, "skills").collect(),
        ),
        (
            "agent",
            "agents",
            crate::cross::strings(value, "agents").collect(),
        ),
        ("config key", "config", config),
        ("command family", "commands", families),
    ]
}

/// Names already claimed by the registry (first party and accepted overlays): an
/// overlay claiming one is rejected before cross-validation, as in the peer's loader.
/// Borrowed, like [`MergedSet`]'s names, from the registry's index and the manifests.
struct Claimed<'a>([Names<'a, ()>; 4]);

impl<'a> Claimed<'a> {
    fn of(registry: &'a Registry) -> Claimed<'a> {
        let index = registry.index();
        let keys = |list: &'a [(String, String)]| list.iter().map(|(k, _)| k.as_str()).collect();
        Claimed([
            keys(index.by_skill()),
            keys(index.by_agent()),
            keys(index.config_keys()),
            index
                .command_families()
                .iter()
                .map(|(k, _)| k.as_str())
                .collect(),
        ])
    }

    fn conflict(&self, value: JsonRef<'_>, folder: &str) -> Option<Diagnostic> {
        for ((kind, field, names), taken) in claims(value).into_iter().zip(&self.0) {
            if let Some(name) = names.into_iter().find(|n| taken.contains(n)) {
                let code = format!("overlay_{}_conflict", kind.replace(' ', "_"));
                let message = format!("owns {kind} \"{name}\" already owned by another capability");
                return Some(reject(&code, folder, Some(field), message));
            }
        }
        None
    }

    fn add(&mut self, value: JsonRef<'a>) {
        for ((_, _, names), taken) in claims(value).into_iter().zip(&mut self.0) {
            for name in names {
                taken.insert(name);
            }
        }
    }
}

/// An overlay that passed the checks that do not depend on the registry.
struct Prepared<'o> {
    overlay: &'o Overlay,
    /// Shared as the registry will hold it: thousands of pending overlays are moved
    /// around (sorted into passes, kept or rejected) as a pointer each, not a whole
    /// capability each.
    cap: Arc<crate::Capability>,
    warnings: Vec<Diagnostic>,
}

impl Prepared<'_> {
    /// The overlay as cross-validation sees it (its id is its folder name: validation
    /// rejects any other).
    fn member(&self) -> Member<'_> {
        Member {
            id: &self.cap.id,
            manifest: self.cap.manifest.root(),
            third_party: true,
        }
    }
}

impl Registry {
    /// A new registry with `overlays` added (see the module docs for the rules). Never
    /// fails: each rejected overlay leaves its reasons as error diagnostics plus one
    /// `overlay_rejected` summary; accepted overlays add their warning records.
    #[must_use]
    pub fn with_overlays(&self, overlays: &[Overlay]) -> Registry {
        let mut next = self.clone();
        let mut sorted: Vec<&Overlay> = overlays.iter().collect();
        sorted.sort();
        sorted.dedup();
        // Rejections found before admission, in sorted order: they come first.
        let mut early: Vec<(&str, Vec<Diagnostic>)> = Vec::new();
        let mut candidates: Vec<&Overlay> = Vec::with_capacity(sorted.len());
        // Folders several different overlays claim (sorted, as `sorted` is).
        let mut ambiguous_folders: Vec<&str> = Vec::new();
        let mut i = 0;
        while i < sorted.len() {
            let same = sorted[i..]
                .iter()
                .take_while(|o| o.folder == sorted[i].folder)
                .count();
            let folder = &sorted[i].folder;
            if same > 1 {
                early.push((folder, vec![ambiguous(folder, same)]));
                ambiguous_folders.push(folder);
            } else {
                candidates.push(sorted[i]);
            }
            i += same;
        }
        let n = candidates.len();
        // Filled as each candidate is prepared, and only read after: the sets below
        // borrow names from the prepared manifests while later ones are still being added.
        let slots: Vec<OnceCell<Prepared<'_>>> = (0..n).map(|_| OnceCell::new()).collect();
        let member = |k: usize| slots[k].get().map(Prepared::member);
        // The merged set and the claimed names, built when the first candidate is
        // prepared (a call whose overlays are all rejected on their own builds neither).
        let mut sets: Option<(MergedSet<'_>, Claimed<'_>)> = None;
        let mut passes = admit::Passes::new(n);
        // One check by the pass rule (module docs): join, or wait for what could change
        // the answer.
        let mut check = |passes: &mut admit::Passes, pass: usize, k: usize| {
            let Some(m) = member(k) else { return };
            let (merged, claimed) =
                sets.get_or_insert_with(|| (MergedSet::new(&self.members()), Claimed::of(self)));
            let why = join_problems(merged, claimed, &m);
            if why.is_empty() {
                merged.add(&m);
                claimed.add(m.manifest);
                passes.joined(pass, k, &m);
            } else {
                let missing = admit::blockers(merged, &m, &candidates);
                passes.failed(k, &m, why, missing);
            }
        };
        // The first pass checks each candidate as soon as it is prepared, while its
        // manifest is still in cache; `passes` then runs the later checks, each overlay
        // checked again only when something it waits for has joined.
        for (k, overlay) in candidates.iter().enumerate() {
            match prepare(overlay) {
                Ok(prepared) => {
                    let _ = slots[k].set(prepared);
                    check(&mut passes, 0, k);
                }
                Err(reasons) => early.push((&overlay.folder, reasons)),
            }
        }
        while let Some((pass, k)) = passes.next() {
            check(&mut passes, pass, k);
        }
        let admission = passes.finish();
        let mut reasons: Vec<Option<Vec<Diagnostic>>> = admission
            .last_problems
            .into_iter()
            .enumerate()
            .map(|(k, last)| {
                let m = member(k).filter(|_| !admission.joined[k])?;
                let (merged, claimed) = sets.as_ref()?;
                Some(last.unwrap_or_else(|| join_problems(merged, claimed, &m)))
            })
            .collect();
        drop(sets);
        admit::name_unloaded_requires(
            &|id| self.capability(id).is_some(),
            &candidates,
            &ambiguous_folders,
            &admission.joined,
            &member,
            &mut reasons,
        );
        early.sort_by(|a, b| a.0.cmp(b.0));
        for (folder, reasons) in early {
            next.rejected(folder, reasons);
        }
        let mut slots: Vec<Option<Prepared<'_>>> =
            slots.into_iter().map(OnceCell::into_inner).collect();
        for k in admission.order {
            if let Some(p) = slots[k].take() {
                next.insert(p.cap, true);
                next.diagnostics.extend(p.warnings);
            }
        }
        for (slot, why) in slots.into_iter().zip(reasons) {
            if let (Some(p), Some(why)) = (slot, why) {
                next.rejected(&p.overlay.folder, why);
            }
        }
        next
    }

    fn rejected(&mut self, folder: &str, reasons: Vec<Diagnostic>) {
        let codes: Vec<&str> = reasons.iter().map(|d| d.code.as_str()).collect();
        let first = reasons.first().map_or(String::new(), |d| d.message.clone());
        let summary = Diagnostic::new(
            "overlay_rejected",
            Severity::Error,
            format!(
                "overlay \"{}\" was not loaded: {first}",
                sanitize_value(folder)
            ),
        )
        .with_capability(folder)
        .with_detail(json!({ "reasons": codes }));
        self.diagnostics.extend(reasons.into_iter().map(|mut d| {
            d.capability_id = Some(folder.to_owned());
            d
        }));
        self.diagnostics.push_back(summary);
    }
}

/// `same` different overlays name `folder`: none of them is loaded.
fn ambiguous(folder: &str, same: usize) -> Diagnostic {
    let message = format!(
        "{same} different overlays share the folder name \"{}\"; none is loaded",
        sanitize_value(folder)
    );
    reject("overlay_folder_ambiguous", folder, None, message)
}

/// The pass rule run literally (one check per pending overlay per pass): the reference
/// that the admission in `admit` must equal.
#[cfg(test)]
pub(super) fn by_passes(base: &Registry, overlays: &[Overlay]) -> Registry {
    let mut next = base.clone();
    let mut sorted: Vec<&Overlay> = overlays.iter().collect();
    sorted.sort();
    sorted.dedup();
    // The candidates (folders named once) and, aligned with them, the prepared ones.
    let mut candidates: Vec<&Overlay> = Vec::new();
    let mut slots: Vec<Option<Prepared<'_>>> = Vec::new();
    let mut ambiguous_folders: Vec<&str> = Vec::new();
    for o in &sorted {
        let same = sorted.iter().filter(|x| x.folder == o.folder).count();
        if same > 1 {
            if ambiguous_folders.last() != Some(&o.folder.as_str()) {
                next.rejected(&o.folder, vec![ambiguous(&o.folder, same)]);
                ambiguous_folders.push(&o.folder);
            }
            continue;
        }
        candidates.push(o);
        match prepare(o) {
            Ok(p) => slots.push(Some(p)),
            Err(reasons) => {
                next.rejected(&o.folder, reasons);
                slots.push(None);
            }
        }
    }
    let mut merged = MergedSet::new(&base.members());
    let mut claimed = Claimed::of(base);
    let mut reasons: Vec<Option<Vec<Diagnostic>>> = slots
        .iter()
        .map(|s| s.as_ref().map(|_| Vec::new()))
        .collect();
    let mut joined: Vec<usize> = Vec::new();
    let mut progress = true;
    while progress {
        progress = false;
        for (k, slot) in slots.iter().enumerate() {
            let Some(p) = slot.as_ref().filter(|_| !joined.contains(&k)) else {
                continue;
            };
            let m = p.member();
            let why = join_problems(&merged, &claimed, &m);
            if !why.is_empty() {
                reasons[k] = Some(why);
                continue;
            }
            merged.add(&m);
            claimed.add(m.manifest);
            joined.push(k);
            reasons[k] = None;
            progress = true;
        }
    }
    drop((merged, claimed));
    let is_joined: Vec<bool> = (0..slots.len()).map(|k| joined.contains(&k)).collect();
    admit::name_unloaded_requires(
        &|id| base.capability(id).is_some(),
        &candidates,
        &ambiguous_folders,
        &is_joined,
        &|k| slots[k].as_ref().map(Prepared::member),
        &mut reasons,
    );
    let mut slots = slots;
    for &k in &joined {
        if let Some(p) = slots[k].take() {
            next.insert(p.cap, true);
            next.diagnostics.extend(p.warnings);
        }
    }
    for (slot, why) in slots.iter().zip(reasons) {
        if let (Some(p), Some(why)) = (slot, why) {
            next.rejected(&p.overlay.folder, why);
        }
    }
    next
}

/// The checks that depend on the registry so far: id, claimed names, merged-set rules.
/// `m` is a prepared overlay, whose id is its folder name.
fn join_problems(merged: &MergedSet<'_>, claimed: &Claimed<'_>, m: &Member<'_>) -> Vec<Diagnostic> {
    let folder = m.id;
    if merged.contains(folder) {
        let message = format!(
            "id \"{}\" collides with an already-registered capability",
            sanitize_value(folder)
        );
        return vec![reject("overlay_id_conflict", folder, Some("id"), message)];
    }
    // A first-party runtime's alias names that runtime wherever a runtime name is read
    // (`claude-code` is claude), so a capability under that id could never be reached.
    if let Some((canonical, _)) = crate::slash::RUNTIME_ALIASES
        .iter()
        .find(|(canonical, aliases)| *canonical != folder && aliases.contains(&folder))
    {
        let message = format!(
            "id \"{}\" is an alias of the first-party runtime \"{canonical}\"",
            sanitize_value(folder)
        );
        return vec![reject("overlay_id_conflict", folder, Some("id"), message)];
    }
    if let Some(conflict) = claimed.conflict(m.manifest, folder) {
        return vec![conflict];
    }
    merged.check(m)
}

/// The checks of one overlay on its own: prefix, size, parse, validation, files.
fn prepare(overlay: &Overlay) -> Result<Prepared<'_>, Vec<Diagnostic>> {
    let folder = overlay.folder.as_str();
    if let Some(prefix) = RESERVED_ID_PREFIXES
        .iter()
        .find(|p| folder.starts_with(**p))
    {
        let message = format!(
            "id \"{}\" uses the reserved first-party prefix \"{prefix}\" (gsd-/gsd-core-/anthropic-)",
            sanitize_value(folder)
        );
        return Err(vec![reject(
            "reserved_id_prefix",
            folder,
            Some("id"),
            message,
        )]);
    }
    if overlay.manifest.len() > MANIFEST_MAX_BYTES {
        return Err(vec![manifest_too_large(
            folder,
            byte_count(&overlay.manifest),
        )]);
    }
    let parsed = validate::ParsedManifest::parse(&overlay.manifest).map_err(|e| {
        let message = format!("capability.json: {}", e.message());
        vec![
            reject("overlay_manifest_invalid", folder, e.field(), message)
                .with_detail(json!({"code": e.code().as_str()})),
        ]
    })?;
    let errors: Vec<Diagnostic> = parsed
        .validate(folder)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    let files = fragment_files(overlay)?;
    let too_large = |e: crate::Error| {
        vec![reject(
            "overlay_manifest_too_large",
            folder,
            None,
            e.message().to_owned(),
        )]
    };
    let plain_warnings = parsed.warning_records();
    let doc = parsed.into_doc().map_err(too_large)?;
    let (doc, warnings, missing) = if needs_fragment_text(doc.root()) {
        // Rare: a fragment given by path gets its file's text inlined, on a value that can
        // change; the document is built again from it, and so are its warnings.
        let mut value = doc.to_value();
        drop(doc);
        let missing = materialize_fragments(&mut value, &files);
        let warnings = validate::warning_records(&value);
        (
            JsonDoc::from_value(&value).map_err(too_large)?,
            warnings,
            missing,
        )
    } else {
        (doc, plain_warnings, Vec::new())
    };
    if !missing.is_empty() {
        return Err(missing
            .iter()
            .map(|p| {
                let message = format!("fragment.path {p:?} is not a file of the overlay folder");
                reject(
                    "overlay_fragment_missing",
                    folder,
                    Some("fragment.path"),
                    message,
                )
            })
            .collect());
    }
    let cap = capability_from_doc(doc)
        .map_err(|m| vec![reject("overlay_manifest_invalid", folder, None, m)])?;
    Ok(Prepared {
        overlay,
        cap: Arc::new(cap),
        warnings,
    })
}

/// Whether some step or contribution fragment is given by path without inline text, the
/// case [`materialize_fragments`] fills in.
pub(super) fn needs_fragment_text(root: JsonRef<'_>) -> bool {
    ["steps", "contributions"]
        .into_iter()
        .filter_map(|group| root.field(group).and_then(JsonRef::as_array))
        .flatten()
        .filter_map(|item| item.field("fragment").and_then(JsonRef::as_object))
        .any(|f| {
            !f.get("inline").is_some_and(JsonRef::is_string)
                && f.get("path").is_some_and(JsonRef::is_string)
        })
}

/// The overlay's files as `(normalized path, text)`, after the confinement and size rules.
fn fragment_files(overlay: &Overlay) -> Result<Vec<(&str, &str)>, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    for (path, text) in &overlay.fragments {
        if let Err(why) = confine(path) {
            let message = format!("file path {path:?} {why}");
            problems.push(reject(
                "overlay_path_outside_folder",
                &overlay.folder,
                Some("fragment.path"),
                message,
            ));
        } else if text.len() > FRAGMENT_MAX_BYTES {
            problems.push(fragment_too_large(&overlay.folder, path, byte_count(text)));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(overlay
        .fragments
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feature(id: &str, extra: &str) -> Overlay {
        let manifest = format!(
            r#"{{"id": "{id}", "role": "feature", "version": "1.0.0", "title": "t", "description": "d", "tier": "full", "requires": [], "engines": {{"gsd": ">=1.0.0"}}, "runtimeCompat": {{"supported": ["*"], "unsupported": []}}, "skills": [], "agents": [], "hooks": [], "config": {{}}, "steps": [], "contributions": [], "gates": []{extra}}}"#
        );
        Overlay {
            folder: id.to_owned(),
            manifest,
            fragments: Vec::new(),
        }
    }

    fn codes(reg: &Registry) -> Vec<String> {
        reg.diagnostics().iter().map(|d| d.code.clone()).collect()
    }

    #[test]
    fn normalize_confines_paths() {
        assert_eq!(
            normalize("./fragments//a.md").as_deref(),
            Some("fragments/a.md")
        );
        assert_eq!(normalize("docs/x:y.md").as_deref(), Some("docs/x:y.md"));
        for (bad, why) in [
            (
                "../a.md",
                "leaves the overlay folder: it has a \"..\" segment",
            ),
            ("/etc/passwd", "leaves the overlay folder: it is absolute"),
            ("a\\b.md", "leaves the overlay folder: it holds a backslash"),
            (
                "x/../../a",
                "leaves the overlay folder: it has a \"..\" segment",
            ),
            (
                "C:/a",
                "leaves the overlay folder: it starts with a drive (e.g. C:)",
            ),
            (
                "c:a",
                "leaves the overlay folder: it starts with a drive (e.g. C:)",
            ),
            ("a\0b.md", "holds a NUL character, which no file name can"),
            ("", "names no file"),
            ("./", "names no file"),
        ] {
            assert_eq!(confine(bad), Err(why), "{bad}");
        }
    }

    #[test]
    fn a_colon_inside_a_file_path_is_an_ordinary_character() {
        // Not referenced by the manifest, and referenced by it: both are fine.
        let mut with_colon = feature("acme-colon", "");
        with_colon
            .fragments
            .push(("notes/x:y.md".into(), "note".into()));
        let reg = Registry::first_party().with_overlays(&[with_colon]);
        assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
        let refused = Registry::first_party().with_overlays(&[{
            let mut o = feature("acme-drive", "");
            o.fragments.push(("C:x.md".into(), "note".into()));
            o
        }]);
        let d = &refused.diagnostics()[0];
        assert_eq!(
            (d.code.as_str(), d.message.as_str()),
            (
                "overlay_path_outside_folder",
                "file path \"C:x.md\" leaves the overlay folder: it starts with a drive (e.g. C:)"
            )
        );
    }

    #[test]
    fn an_overlay_is_added_after_first_party() {
        let reg = Registry::first_party().with_overlays(&[feature("acme-lint", "")]);
        assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
        assert!(reg.is_third_party("acme-lint"));
        assert_eq!(reg.ids_in_map_order().last(), Some("acme-lint"));
    }

    #[test]
    fn the_kept_manifest_is_the_text_it_was_read_from() {
        // Under 64 KiB the document is copied from the validated value; over it, parsed
        // again from the text. Both keep what `serde_json` reads from the text.
        let config: Vec<String> = (0..2_000)
            .map(|i| format!(r#""acme.key_{i}": {{"type": "boolean", "default": true, "description": "Key {i} \u00e9"}}"#))
            .collect();
        let large = feature("acme-large", "");
        let large = Overlay {
            manifest: large.manifest.replace(
                r#""config": {}"#,
                &format!(r#""config": {{{}}}"#, config.join(",")),
            ),
            ..large
        };
        assert!(large.manifest.len() > 64 * 1024);
        let small = feature("acme-small", "");
        let small = Overlay {
            manifest: small.manifest.replace(
                r#""config": {}"#,
                r#""config": {"acme.n": {"type": "number", "default": 2.5, "description": "n\tx"}}"#,
            ),
            ..small
        };
        let reg = Registry::first_party().with_overlays(&[large.clone(), small.clone()]);
        assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
        for overlay in [&large, &small] {
            let kept = &reg.capability(&overlay.folder).expect("accepted").manifest;
            let read: serde_json::Value = serde_json::from_str(&overlay.manifest).expect("JSON");
            assert!(kept.root() == read, "{}", overlay.folder);
        }
        let keys = reg
            .index()
            .config_keys()
            .iter()
            .filter(|(k, _)| k.starts_with("acme.key_"));
        assert_eq!(keys.count(), 2_000);
    }

    #[test]
    fn a_fragment_given_by_path_is_inlined_in_the_kept_manifest() {
        let step = r#", "steps": [{"point": "plan:pre", "ref": {"skill": "x"}, "fragment": {"path": "fragments/step.md"}, "produces": [], "consumes": [], "onError": "skip"}]"#;
        let base = feature("acme-frag", "");
        let overlay = Overlay {
            manifest: base
                .manifest
                .replace(r#""skills": []"#, r#""skills": ["x"]"#)
                .replace(r#", "steps": []"#, step),
            fragments: vec![("fragments/step.md".to_owned(), "do it".to_owned())],
            ..base
        };
        let reg = Registry::first_party().with_overlays(std::slice::from_ref(&overlay));
        assert!(reg.is_third_party("acme-frag"), "{:?}", reg.diagnostics());
        let kept = &reg.capability("acme-frag").expect("accepted").manifest;
        let fragment = kept
            .field("steps")
            .and_then(JsonRef::as_array)
            .and_then(|mut s| s.next())
            .and_then(|s| s.field("fragment"));
        assert!(
            fragment.is_some_and(|f| f == json!({"path": "fragments/step.md", "inline": "do it"})),
            "{fragment:?}"
        );
    }

    #[test]
    fn first_party_wins_on_id_and_skill() {
        let reg = Registry::first_party().with_overlays(&[
            feature("research", ""),
            feature("acme", r#", "skills": ["graphify"]"#),
        ]);
        assert_eq!(
            codes(&reg),
            [
                "overlay_skill_conflict",
                "overlay_rejected",
                "overlay_id_conflict",
                "overlay_rejected"
            ]
        );
        assert!(!reg.is_third_party("research"));
    }

    #[test]
    fn reserved_prefix_and_escaping_fragment_are_rejected() {
        let mut escaping = feature("acme-x", "");
        escaping.fragments.push(("../secret.md".into(), "x".into()));
        let reg = Registry::first_party().with_overlays(&[feature("gsd-evil", ""), escaping]);
        assert_eq!(
            codes(&reg),
            [
                "overlay_path_outside_folder",
                "overlay_rejected",
                "reserved_id_prefix",
                "overlay_rejected"
            ]
        );
    }

    /// `(code, message)` of the reasons given about `id`, summary left out.
    fn reasons_of<'r>(reg: &'r Registry, id: &str) -> Vec<(&'r str, &'r str)> {
        reg.diagnostics()
            .iter()
            .filter(|d| d.capability_id.as_deref() == Some(id) && d.code != "overlay_rejected")
            .map(|d| (d.code.as_str(), d.message.as_str()))
            .collect()
    }

    #[test]
    fn every_requirement_on_a_cycle_is_named_as_one_whatever_the_walk_order() {
        // a → c, a → b, b → c, c → a: all four lie on a cycle (a → b → c → a, a → c → a).
        let reg = Registry::first_party().with_overlays(&[
            requiring("acme-a", &["acme-c", "acme-b"]),
            requiring("acme-b", &["acme-c"]),
            requiring("acme-c", &["acme-a"]),
        ]);
        let cycle = |path: &'static str| ("requires_cycle", path);
        assert_eq!(
            reasons_of(&reg, "acme-a"),
            [
                cycle("requires cycle detected: acme-a → acme-c → acme-a"),
                cycle("requires cycle detected: acme-a → acme-b → acme-c → acme-a"),
            ]
        );
        assert_eq!(
            reasons_of(&reg, "acme-b"),
            [cycle(
                "requires cycle detected: acme-b → acme-c → acme-a → acme-b"
            )]
        );
        assert_eq!(
            reasons_of(&reg, "acme-c"),
            [cycle("requires cycle detected: acme-c → acme-a → acme-c")]
        );
    }

    #[test]
    fn requiring_an_ambiguous_folder_says_it_was_not_loaded() {
        let one = requiring("acme-twice", &[]);
        let mut other = requiring("acme-twice", &[]);
        other.manifest = other.manifest.replace(r#""title": "t""#, r#""title": "u""#);
        let reg = Registry::first_party().with_overlays(&[
            one,
            other,
            requiring("acme-user", &["acme-twice"]),
        ]);
        assert_eq!(
            reasons_of(&reg, "acme-user"),
            [(
                "requires_not_loaded",
                "capability \"acme-user\" requires \"acme-twice\", an overlay that was not loaded"
            )]
        );
    }

    #[test]
    fn many_cycles_and_repeated_requirements_stay_linear() {
        // 2,000 overlays in a ring, each also requiring the first (a back edge per overlay for
        // a depth-first walk), and one requiring the next 20,000 times: each requirement keeps
        // its own reason.
        let n = 2_000;
        let ids: Vec<String> = (0..n).map(|i| format!("acme-{i:05}")).collect();
        let mut overlays: Vec<Overlay> = (0..n)
            .map(|i| requiring(&ids[i], &[ids[(i + 1) % n].as_str(), ids[0].as_str()]))
            .collect();
        let repeated = vec![ids[2].as_str(); 20_000];
        overlays[1] = requiring(&ids[1], &repeated);
        let reg = Registry::first_party().with_overlays(&overlays);
        let on_cycle = reg
            .diagnostics()
            .iter()
            .filter(|d| d.code == "requires_cycle")
            .count();
        // Every requirement is on the ring: 2 per overlay, except acme-00000's second (itself:
        // its own cycle, reported by the checker) and acme-00001's, 20,000 of one.
        assert_eq!(on_cycle, 2 * (n - 2) + 1 + 1 + 20_000);
        assert_eq!(
            reasons_of(&reg, "acme-00003")[1],
            (
                "requires_cycle",
                "requires cycle detected: acme-00003 → acme-00000 → acme-00001 → acme-00002 → acme-00003"
            )
        );
        assert!(reg.ids_in_map_order().all(|id| !id.starts_with("acme-")));
    }

    #[test]
    fn a_file_path_holding_nul_is_refused_even_unreferenced() {
        let mut nul = feature("acme-nul", "");
        nul.fragments.push(("notes\0.md".into(), "x".into()));
        let reg = Registry::first_party().with_overlays(&[nul]);
        let found: Vec<(&str, &str)> = reg
            .diagnostics()
            .iter()
            .map(|d| (d.code.as_str(), d.message.as_str()))
            .collect();
        assert_eq!(
            found[0],
            (
                "overlay_path_outside_folder",
                r#"file path "notes\0.md" holds a NUL character, which no file name can"#
            )
        );
        assert!(reg.capability("acme-nul").is_none());
    }

    #[test]
    fn two_different_overlays_with_one_folder_are_both_rejected() {
        let a = feature("acme", "");
        let b = feature("acme", r#", "agents": ["acme-agent"]"#);
        let reg = Registry::first_party().with_overlays(&[a.clone(), b]);
        assert_eq!(
            codes(&reg),
            ["overlay_folder_ambiguous", "overlay_rejected"]
        );
        let same = Registry::first_party().with_overlays(&[a.clone(), a]);
        assert!(same.diagnostics().is_empty());
        assert!(same.capability("acme").is_some());
    }

    #[test]
    fn mutually_requiring_overlays_are_both_rejected() {
        let a = feature("acme-a", "")
            .manifest
            .replace(r#""requires": []"#, r#""requires": ["acme-b"]"#);
        let b = feature("acme-b", "")
            .manifest
            .replace(r#""requires": []"#, r#""requires": ["acme-a"]"#);
        let reg = Registry::first_party().with_overlays(&[
            Overlay {
                folder: "acme-b".into(),
                manifest: b,
                fragments: Vec::new(),
            },
            Overlay {
                folder: "acme-a".into(),
                manifest: a,
                fragments: Vec::new(),
            },
        ]);
        // Each is named as the ring it is on, starting from itself: no order could admit
        // either, and neither is missing.
        assert_eq!(
            codes(&reg),
            [
                "requires_cycle",
                "overlay_rejected",
                "requires_cycle",
                "overlay_rejected"
            ]
        );
        let messages: Vec<&str> = reg
            .diagnostics()
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            messages,
            [
                "requires cycle detected: acme-a → acme-b → acme-a",
                "overlay \"acme-a\" was not loaded: requires cycle detected: acme-a → acme-b → acme-a",
                "requires cycle detected: acme-b → acme-a → acme-b",
                "overlay \"acme-b\" was not loaded: requires cycle detected: acme-b → acme-a → acme-b",
            ]
        );
        assert!(reg.capability("acme-a").is_none() && reg.capability("acme-b").is_none());
    }

    fn requiring(id: &str, requires: &[&str]) -> Overlay {
        let list: Vec<String> = requires.iter().map(|r| format!("\"{r}\"")).collect();
        let mut overlay = feature(id, "");
        overlay.manifest = overlay.manifest.replace(
            r#""requires": []"#,
            &format!(r#""requires": [{}]"#, list.join(",")),
        );
        overlay
    }

    #[test]
    fn requiring_an_overlay_that_was_not_loaded_says_so() {
        // acme-b fails on its own (its skill is first party's), acme-c on acme-b, and
        // acme-d on acme-c and on an id no overlay has.
        let mut b = requiring("acme-b", &[]);
        b.manifest = b
            .manifest
            .replace(r#""skills": []"#, r#""skills": ["code-review"]"#);
        let reg = Registry::first_party().with_overlays(&[
            b,
            requiring("acme-c", &["acme-b", "research"]),
            requiring("acme-d", &["acme-zz", "acme-c"]),
        ]);
        let found: Vec<(&str, &str)> = reg
            .diagnostics()
            .iter()
            .filter(|d| d.code.starts_with("requires"))
            .map(|d| (d.code.as_str(), d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "requires_not_loaded",
                    "capability \"acme-c\" requires \"acme-b\", an overlay that was not loaded"
                ),
                (
                    "requires_unknown",
                    "capability \"acme-d\" requires \"acme-zz\" which does not exist"
                ),
                (
                    "requires_not_loaded",
                    "capability \"acme-d\" requires \"acme-c\", an overlay that was not loaded"
                ),
            ]
        );
        let summaries: Vec<_> = reg
            .diagnostics()
            .iter()
            .filter(|d| d.code == "overlay_rejected")
            .map(|d| {
                (
                    d.capability_id.as_deref(),
                    d.detail.as_ref().map(crate::diagnostic::Detail::to_value),
                )
            })
            .collect();
        assert_eq!(summaries.len(), 3);
        assert_eq!(
            summaries[2],
            (
                Some("acme-d"),
                Some(json!({"reasons": ["requires_unknown", "requires_not_loaded"]}))
            )
        );
    }

    #[test]
    fn a_long_ring_of_overlays_is_named_by_its_first_ids() {
        // acme-00 → acme-01 → … → acme-19 → acme-00, and acme-x hangs off the ring.
        let ids: Vec<String> = (0..20).map(|i| format!("acme-{i:02}")).collect();
        let mut overlays: Vec<Overlay> = (0..20)
            .map(|i| requiring(&ids[i], &[ids[(i + 1) % 20].as_str()]))
            .collect();
        overlays.push(requiring("acme-x", &["acme-05"]));
        let reg = Registry::first_party().with_overlays(&overlays);
        let first = reg
            .diagnostics()
            .iter()
            .find(|d| d.capability_id.as_deref() == Some("acme-03"))
            .map(|d| (d.code.as_str(), d.message.as_str()));
        // The way back is 20 ids long, past the 16 a message spells out: the first step, then `…`.
        assert_eq!(
            first,
            Some((
                "requires_cycle",
                "requires cycle detected: acme-03 → acme-04 → … → acme-03"
            ))
        );
        let x = reg
            .diagnostics()
            .iter()
            .find(|d| d.capability_id.as_deref() == Some("acme-x"))
            .map(|d| d.code.as_str());
        assert_eq!(x, Some("requires_not_loaded"));
        assert!(reg.ids_in_map_order().all(|id| !id.starts_with("acme-")));
    }

    #[test]
    fn an_overlay_may_require_one_that_sorts_after_it() {
        let a = feature("acme-a", "")
            .manifest
            .replace(r#""requires": []"#, r#""requires": ["acme-b"]"#);
        let reg = Registry::first_party().with_overlays(&[
            Overlay {
                folder: "acme-a".into(),
                manifest: a,
                fragments: Vec::new(),
            },
            feature("acme-b", ""),
        ]);
        assert!(reg.diagnostics().is_empty(), "{:?}", reg.diagnostics());
        assert_eq!(
            reg.ids_in_map_order().skip(46).collect::<Vec<_>>(),
            ["acme-b", "acme-a"]
        );
    }
}
