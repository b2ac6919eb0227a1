//! The installed-surface resolver: which GSD surfaces exist on this machine, at which
//! scopes, and which triggers they occupy.
//!
//! The peer's `resolveInstalledSurfaces` as a function of data. For each runtime and each
//! scope (global first) the config home is resolved from the host facts; the edge reports,
//! for each config home, whether it or its manifest is a symbolic link and the manifest
//! text ([`SurfaceFacts`]; [`probe_requests`] lists exactly what to look at). A scope record
//! is keyed by the *probed* scope: what a manifest declares is corroboration and is
//! reported, never substituted. Stems come from the manifest's own file keys, gated by a
//! strict kebab-case rule, and the installed scopes (one per distinct config home) go
//! through one trigger-surface resolution over the union of their stems.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Number;

use crate::diagnostic::{Detail, Diagnostic, Severity};
use crate::error::{Error, ErrorCode};
use crate::host::Host;
use crate::install_manifest::{
    InstallManifest, InstallManifestRead, MANIFEST_NAME, read_install_manifest,
};
use crate::layout::{compose_command_filename, is_namespaced_by_dir};
use crate::path;
use crate::registry::Registry;
use crate::scope::{SCOPE_ORDER, resolve_scope, scope_probe_paths};
use crate::trigger::{TriggerInput, Triggers, resolve_trigger_surface_lenient};
use crate::vocab::{ArtifactKindName, Scope};

/// Diagnostic code: a config home or its manifest is a symbolic link and was not followed.
pub const CODE_SURFACE_SYMLINK: &str = "install_surface_symlink";
/// Diagnostic code: the edge supplied no facts for a config home the resolver probed.
pub const CODE_SURFACE_PROBE_MISSING: &str = "install_surface_probe_missing";
/// Diagnostic code: the install manifest could not be read (something other than a regular
/// file is there, or looking or reading failed); read as not installed.
pub const CODE_SURFACE_MANIFEST_UNREADABLE: &str = "install_manifest_unreadable";

/// What the edge found at one config home (`lstat` facts and the manifest text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConfigHomeFacts {
    /// `lstat(configHome).isSymbolicLink()` (false when nothing is there).
    #[serde(default)]
    pub config_home_is_symlink: bool,
    /// `lstat(<configHome>/gsd-file-manifest.json).isSymbolicLink()`.
    #[serde(default)]
    pub manifest_is_symlink: bool,
    /// The manifest text, UTF-8 (invalid bytes replaced by U+FFFD); `None` when absent or
    /// unreadable. Need not be read past [`crate::install_manifest::MAX_MANIFEST_BYTES`] + 1 bytes.
    #[serde(default)]
    pub manifest: Option<String>,
    /// Why the manifest could not be read, when it could not: something other than a
    /// regular file is there (`a directory, not a regular file`, `a FIFO, not a regular
    /// file`), or looking or reading failed (`Permission denied (os error 13)`).
    /// Reported as [`CODE_SURFACE_MANIFEST_UNREADABLE`] and read as not installed, as the
    /// peer reads it (silently). `None`: nothing there, or it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_unreadable: Option<String>,
}

/// The edge's facts for every config home it was asked about, keyed by the config home
/// exactly as [`probe_requests`] spells it. A missing entry reads as an empty directory.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SurfaceFacts {
    /// Facts by config home.
    #[serde(default)]
    pub homes: BTreeMap<String, ConfigHomeFacts>,
}

impl SurfaceFacts {
    /// Reads facts from JSON text as every binding does ([`crate::strict::read`]): objects
    /// only, no repeated or unknown member, and a failure that names the value at fault
    /// (`homes["/h/.claude"].manifest`). The derived `Deserialize` keeps the last of a
    /// repeated member unseen.
    ///
    /// ```
    /// let facts = gsd_core::SurfaceFacts::from_json(r#"{"homes":{"/h/.claude":{"manifest":"{}"}}}"#)?;
    /// assert_eq!(facts.homes["/h/.claude"].manifest.as_deref(), Some("{}"));
    /// let err = gsd_core::SurfaceFacts::from_json(r#"{"homes":{"/h/.claude":{"manifest":5}}}"#)
    ///     .unwrap_err();
    /// assert_eq!(err.field(), Some(r#"homes["/h/.claude"].manifest"#));
    /// # Ok::<(), gsd_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// `INVALID_ARGUMENT` for text that is not surface facts.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        crate::strict::read(text, "facts")
    }
}

/// One config home the edge must look at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HomeProbe {
    /// The config home: `lstat` it (is it a symbolic link?).
    pub config_home: String,
    /// `<configHome>/gsd-file-manifest.json`: `lstat` it, and read it when present.
    pub manifest_path: String,
}

/// One scope of an installed runtime (the peer's scope record, same keys and order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstalledScope {
    /// The probed scope.
    pub scope: Scope,
    /// Its resolved config home.
    pub config_home: String,
    /// Whether a manifest object was found there.
    pub installed: bool,
    /// The manifest's normalised version (`None`: not installed).
    pub manifest_version: Option<Number>,
    /// The runtime the manifest declares.
    pub declared_runtime: Option<String>,
    /// The scope the manifest declares.
    pub declared_scope: Option<Scope>,
    /// Whether the declared scope equals the probed one (`None` when undeclared).
    pub declared_scope_matches_probe: Option<bool>,
    /// Whether the declared runtime equals the probed one (`None` when undeclared).
    pub declared_runtime_matches_probe: Option<bool>,
    /// Trigger stems the manifest's files prove installed, sorted.
    pub stems: Vec<String>,
}

/// One runtime's installed surface (the peer's `InstalledRuntimeSurface`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstalledRuntimeSurface {
    /// Runtime id.
    pub runtime: String,
    /// The global record, then the local one.
    pub scopes: Vec<InstalledScope>,
    /// The trigger surface over the installed scopes (empty when none is installed).
    pub triggers: Triggers,
}

/// The resolver's answer: the surfaces (the peer's value) plus findings about the inputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstalledSurfaces {
    /// One entry per runtime resolved.
    pub surfaces: Vec<InstalledRuntimeSurface>,
    /// Unreadable manifests, symbolic links not followed, facts the edge did not supply.
    pub diagnostics: Vec<Diagnostic>,
}

/// Whether an error from the resolver is of the class the peer signals with `TypeError`
/// (unknown runtime, no config directory, malformed descriptor or argument): the sweep
/// skips such a runtime and the shadow report says `resolver_unavailable`.
pub(crate) fn is_input_contract_error(error: &Error) -> bool {
    matches!(
        error.code(),
        ErrorCode::UnknownRuntime
            | ErrorCode::NoConfigHome
            | ErrorCode::InvalidDescriptor
            | ErrorCode::InvalidScope
            | ErrorCode::InvalidArgument
    )
}

/// The runtimes a call covers: the one named, or every registered id (sorted).
fn runtimes_of<'a>(registry: &'a Registry, runtime: Option<&'a str>) -> Vec<&'a str> {
    runtime.map_or_else(|| registry.runtime_ids().collect(), |id| vec![id])
}

/// The config homes of both scopes of `runtime`.
fn config_homes(
    registry: &Registry,
    runtime: &str,
    host: &Host,
) -> Result<Vec<(Scope, String)>, Error> {
    SCOPE_ORDER
        .iter()
        .map(|&scope| {
            resolve_scope(registry, runtime, scope, host, None).map(|r| (scope, r.config_home))
        })
        .collect()
}

/// Step two of the edge's probing: every config home [`resolve_installed_surfaces`] will look
/// at, in first-use order, once each. The edge `lstat`s `config_home` and `manifest_path` and
/// reads `manifest_path`. Call it with `host.existing_paths` filled from [`host_probe_paths`].
///
/// # Errors
/// For a named runtime: [`crate::ErrorCode::UnknownRuntime`], [`crate::ErrorCode::NoConfigHome`].
/// Without one, runtimes that fail that way are skipped.
pub fn probe_requests(
    registry: &Registry,
    runtime: Option<&str>,
    host: &Host,
) -> Result<Vec<HomeProbe>, Error> {
    let mut seen = BTreeSet::new();
    let mut probes = Vec::new();
    for id in runtimes_of(registry, runtime) {
        let homes = match config_homes(registry, id, host) {
            Ok(homes) => homes,
            Err(error) if runtime.is_none() && is_input_contract_error(&error) => continue,
            Err(error) => return Err(error),
        };
        for (_, home) in homes {
            if seen.insert(home.clone()) {
                probes.push(HomeProbe {
                    manifest_path: path::join(&[&home, MANIFEST_NAME]),
                    config_home: home,
                });
            }
        }
    }
    Ok(probes)
}

/// Step one of the edge's probing: every path whose existence decides a config home of the
/// runtimes covered (antigravity's and kimi's probe candidates), once each. The edge records
/// the ones that exist in [`Host::existing_paths`], then asks [`probe_requests`].
///
/// # Errors
/// For a named runtime: [`crate::ErrorCode::UnknownRuntime`].
pub fn host_probe_paths(
    registry: &Registry,
    runtime: Option<&str>,
    host: &Host,
) -> Result<Vec<String>, Error> {
    let mut seen = BTreeSet::new();
    let mut paths = Vec::new();
    for id in runtimes_of(registry, runtime) {
        let found = match scope_probe_paths(registry, id, Scope::Global, host, None) {
            Ok(found) => found,
            Err(error) if runtime.is_none() && is_input_contract_error(&error) => continue,
            Err(error) => return Err(error),
        };
        paths.extend(found.into_iter().filter(|p| seen.insert(p.clone())));
    }
    Ok(paths)
}

/// A stem is a kebab-case token (`^[a-z0-9][a-z0-9-]*$`) and nothing else: it comes from
/// untrusted manifest keys and is printed back as a trigger.
fn is_safe_stem(stem: &str) -> bool {
    let mut bytes = stem.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && bytes.all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The trigger-bearing layout entries (`kind`, `destSubpath`, `prefix`) of `runtime` at
/// `scope`, validated as the peer's layout resolver does (`None` where it throws).
///
/// Read from the descriptor rather than through [`crate::layout::resolve_layout`], whose
/// destination confinement is an install-plan rule the peer's layout lookup does not apply.
pub(crate) fn trigger_entries(
    registry: &Registry,
    runtime: &str,
    config_home: &str,
    scope: Scope,
) -> Option<Vec<(ArtifactKindName, String, String)>> {
    let descriptor = registry.runtime(runtime)?;
    if config_home.is_empty() {
        return None;
    }
    let entries = descriptor.artifact_layout.entries(scope);
    if entries
        .iter()
        .any(|e| e.kind == ArtifactKindName::Skills && e.converter.is_none())
    {
        return None;
    }
    Some(
        entries
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    ArtifactKindName::Commands | ArtifactKindName::Skills
                )
            })
            .map(|e| (e.kind, e.dest_subpath.clone(), e.prefix.clone()))
            .collect(),
    )
}

/// Stems one `commands`/`skills` entry proves from the manifest's file keys.
fn stems_for_entry(
    kind: ArtifactKindName,
    dest_subpath: &str,
    prefix: &str,
    keys: &[String],
    out: &mut BTreeSet<String>,
) {
    let boundary = format!("{}/", path::to_posix(dest_subpath));
    let namespaced = is_namespaced_by_dir(kind, dest_subpath, prefix);
    for raw in keys {
        let key = path::to_posix(raw);
        let Some(rest) = key.strip_prefix(&boundary) else {
            continue;
        };
        if rest.is_empty() {
            continue;
        }
        if kind == ArtifactKindName::Skills {
            // Several files under one directory are one stem; a nested router's children
            // (`gsd-ns-x/skills/<child>/…`) contribute only the router.
            let dir = rest.split('/').next().unwrap_or_default();
            if let Some(stem) = dir
                .strip_prefix(prefix)
                .filter(|s| !s.is_empty() && is_safe_stem(s))
            {
                out.insert(stem.to_owned());
            }
            continue;
        }
        if rest.contains('/') {
            continue;
        }
        let Some(base) = rest.strip_suffix(".md") else {
            continue;
        };
        let candidate = if namespaced {
            Some(base)
        } else {
            base.strip_prefix(prefix)
        };
        let Some(stem) = candidate.filter(|s| !s.is_empty()) else {
            continue;
        };
        if compose_command_filename(namespaced, prefix, stem) == rest && is_safe_stem(stem) {
            out.insert(stem.to_owned());
        }
    }
}

/// The sorted stems a manifest proves at one scope (empty when the layout cannot be read).
fn stems_of(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    config_home: &str,
    manifest: &InstallManifest,
) -> Vec<String> {
    let keys = manifest.file_keys();
    if keys.is_empty() {
        return Vec::new();
    }
    let Some(entries) = trigger_entries(registry, runtime, config_home, scope) else {
        return Vec::new();
    };
    let mut stems = BTreeSet::new();
    for (kind, dest_subpath, prefix) in &entries {
        stems_for_entry(*kind, dest_subpath, prefix, &keys, &mut stems);
    }
    stems.into_iter().collect()
}

/// Reads each config home's facts once per call, collecting diagnostics once per home.
struct Reader<'f> {
    facts: &'f SurfaceFacts,
    reads: BTreeMap<String, Option<InstallManifestRead>>,
    diagnostics: Vec<Diagnostic>,
}

impl Reader<'_> {
    /// The manifest at `home`, or `None` when a symbolic link stops the read.
    fn manifest(&mut self, home: &str) -> Option<InstallManifest> {
        if !self.reads.contains_key(home) {
            let read = self.read(home);
            self.reads.insert(home.to_owned(), read);
        }
        self.reads.get(home).cloned().flatten().map(|r| r.manifest)
    }

    fn read(&mut self, home: &str) -> Option<InstallManifestRead> {
        let detail = serde_json::json!({ "configHome": home });
        let Some(facts) = self.facts.homes.get(home) else {
            self.diagnostics.push(
                Diagnostic::new(
                    CODE_SURFACE_PROBE_MISSING,
                    Severity::Warning,
                    "no facts were supplied for a probed config home; read as not installed",
                )
                .with_detail(detail),
            );
            return None;
        };
        if facts.config_home_is_symlink || facts.manifest_is_symlink {
            let what = if facts.config_home_is_symlink {
                "config home"
            } else {
                "install manifest"
            };
            let diagnostic = Diagnostic::new(
                CODE_SURFACE_SYMLINK,
                Severity::Info,
                format!("the {what} is a symbolic link and is not followed; read as not installed"),
            )
            .with_detail(detail);
            // The link is the config home itself (no field), or its manifest file.
            self.diagnostics.push(if facts.config_home_is_symlink {
                diagnostic
            } else {
                diagnostic.with_field(crate::install_manifest::MANIFEST_NAME)
            });
            return None;
        }
        if let Some(why) = &facts.manifest_unreadable {
            self.diagnostics.push(
                Diagnostic::new(
                    CODE_SURFACE_MANIFEST_UNREADABLE,
                    Severity::Warning,
                    format!(
                        "the install manifest cannot be read ({}); read as not installed",
                        crate::sanitize::sanitize_value(why)
                    ),
                )
                .with_field(crate::install_manifest::MANIFEST_NAME)
                .with_detail(serde_json::json!({ "configHome": home, "reason": why })),
            );
            return None;
        }
        let read = read_install_manifest(facts.manifest.as_deref());
        for diagnostic in &read.diagnostics {
            let mut diagnostic = diagnostic.clone();
            let mut merged = detail.clone();
            if let (Some(target), Some(serde_json::Value::Object(extra))) = (
                merged.as_object_mut(),
                diagnostic.detail.as_ref().and_then(Detail::as_json),
            ) {
                target.extend(extra.clone());
            }
            diagnostic.detail = Some(Detail::Json(merged));
            self.diagnostics.push(diagnostic);
        }
        Some(read)
    }
}

fn scope_record(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    config_home: String,
    manifest: Option<InstallManifest>,
) -> InstalledScope {
    let manifest = manifest.unwrap_or_else(InstallManifest::not_installed);
    let installed = manifest.is_installed();
    let stems = if installed {
        stems_of(registry, runtime, scope, &config_home, &manifest)
    } else {
        Vec::new()
    };
    InstalledScope {
        scope,
        config_home,
        installed,
        declared_runtime_matches_probe: manifest.runtime.as_ref().map(|r| r == runtime),
        declared_scope_matches_probe: manifest.scope.map(|s| s == scope),
        manifest_version: manifest.manifest_version,
        declared_runtime: manifest.runtime,
        declared_scope: manifest.scope,
        stems,
    }
}

fn resolve_one(
    registry: &Registry,
    runtime: &str,
    host: &Host,
    reader: &mut Reader<'_>,
) -> Result<InstalledRuntimeSurface, Error> {
    let homes = config_homes(registry, runtime, host)?;
    let scopes: Vec<InstalledScope> = homes
        .into_iter()
        .map(|(scope, home)| {
            let manifest = reader.manifest(&home);
            scope_record(registry, runtime, scope, home, manifest)
        })
        .collect();
    // One trigger resolution over the installed scopes, one per distinct config home (the
    // higher-ranked scope comes first and is kept).
    let mut seen_homes = BTreeSet::new();
    let mut trigger_scopes = Vec::new();
    let mut stems = BTreeSet::new();
    for record in scopes.iter().filter(|r| r.installed) {
        if seen_homes.insert(record.config_home.as_str()) {
            trigger_scopes.push(record.scope);
            stems.extend(record.stems.iter().cloned());
        }
    }
    let triggers = if trigger_scopes.is_empty() {
        Triggers::default()
    } else {
        let input = TriggerInput {
            stems: stems.into_iter().collect(),
            ..TriggerInput::default()
        };
        resolve_trigger_surface_lenient(registry, runtime, &trigger_scopes, &input)?
    };
    Ok(InstalledRuntimeSurface {
        runtime: runtime.to_owned(),
        scopes,
        triggers,
    })
}

/// Resolves the installed surfaces of `runtime`, or of every registered runtime (sorted by
/// id) when `None`.
///
/// A config home that is a symbolic link, or whose manifest is one, reads as not installed;
/// so does an absent, unreadable or unusable manifest (with a diagnostic for the latter).
///
/// # Errors
/// For a named runtime: [`crate::ErrorCode::UnknownRuntime`], [`crate::ErrorCode::NoConfigHome`]
/// (vscode), [`crate::ErrorCode::InvalidDescriptor`]. Without one, runtimes failing that
/// way are skipped, as the peer skips its `TypeError`s.
pub fn resolve_installed_surfaces(
    registry: &Registry,
    runtime: Option<&str>,
    host: &Host,
    facts: &SurfaceFacts,
) -> Result<InstalledSurfaces, Error> {
    let mut reader = Reader {
        facts,
        reads: BTreeMap::new(),
        diagnostics: Vec::new(),
    };
    let mut surfaces = Vec::new();
    for id in runtimes_of(registry, runtime) {
        match resolve_one(registry, id, host, &mut reader) {
            Ok(surface) => surfaces.push(surface),
            Err(error) if runtime.is_none() && is_input_contract_error(&error) => {}
            Err(error) => return Err(error),
        }
    }
    Ok(InstalledSurfaces {
        surfaces,
        diagnostics: reader.diagnostics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_stems_are_kebab_tokens() {
        for good in ["help", "plan-phase", "0x", "a-"] {
            assert!(is_safe_stem(good), "{good}");
        }
        for bad in ["", "-a", "Help", "..", "a b", "a\n", "é", "a_b"] {
            assert!(!is_safe_stem(bad), "{bad:?}");
        }
    }

    #[test]
    fn stems_follow_the_extraction_rules() {
        let keys: Vec<String> = [
            "skills/gsd-help/SKILL.md",
            "skills/gsd-help/extra.md",
            "skills/gsd-ns-x/skills/plan-phase/SKILL.md",
            "skills/other/SKILL.md",
            "skills/gsd-/SKILL.md",
            "skills/gsd-../x",
            "skills\\gsd-win\\SKILL.md",
            "commands/gsd-plan.md",
            "commands/gsd/nested.md",
            "commands/plan.md",
            "commands/gsd-Bad.md",
            "commands/gsd-.md",
        ]
        .map(str::to_owned)
        .to_vec();
        let mut skills = BTreeSet::new();
        stems_for_entry(
            ArtifactKindName::Skills,
            "skills",
            "gsd-",
            &keys,
            &mut skills,
        );
        assert_eq!(
            skills.into_iter().collect::<Vec<_>>(),
            ["help", "ns-x", "win"]
        );
        let mut flat = BTreeSet::new();
        stems_for_entry(
            ArtifactKindName::Commands,
            "commands",
            "gsd-",
            &keys,
            &mut flat,
        );
        assert_eq!(flat.into_iter().collect::<Vec<_>>(), ["plan"]);
        let mut namespaced = BTreeSet::new();
        stems_for_entry(
            ArtifactKindName::Commands,
            "commands/gsd",
            "gsd-",
            &keys,
            &mut namespaced,
        );
        assert_eq!(namespaced.into_iter().collect::<Vec<_>>(), ["nested"]);
    }
}
