//! The installer's global directories by runtime id: the global config directory
//! (`--config-dir` aside, with the `grok` and unknown-id fallbacks the installer keeps) and
//! the global skills base a runtime's skills are copied under.
//!
//! These are the peer `runtime-homes` helpers that take a bare runtime id and read the
//! ambient machine; here the machine is the [`Host`] and the answers are pure. Every probe
//! path consulted is listed by [`global_dirs_probe_paths`] so the caller can check exactly
//! those on disk.

use crate::error::Error;
use crate::home::{expand_tilde, probe_paths, resolve_config_home};
use crate::host::Host;
use crate::manifest::ConfigHome;
use crate::path;
use crate::registry::Registry;
use crate::vocab::{ArtifactKindName, ConfigHomeKind, Scope};

/// The only id outside the registry with a dedicated global directory (`~/.agents`,
/// overridable through `GROK_AGENTS_HOME`).
pub const LEGACY_GROK_ID: &str = "grok";

/// The variable naming the legacy grok agents home.
const GROK_AGENTS_HOME: &str = "GROK_AGENTS_HOME";

/// The variable of the claude fallback for an unregistered runtime id.
const CLAUDE_CONFIG_DIR: &str = "CLAUDE_CONFIG_DIR";

/// Every environment variable the core reads from a host over `registry`: each declared
/// `configHome.env` name of its runtimes (and of a `configHome.skillsHome` in it), then the
/// two this module reads by name
/// (`GROK_AGENTS_HOME`, `CLAUDE_CONFIG_DIR`), each once, in that order. An edge that
/// copies a caller's environment into a [`Host`] need read only these, and can read each
/// as the peer does (`env[name]`: inherited, getter and Proxy members included).
#[must_use]
pub fn env_names_read(registry: &Registry) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let declared = registry
        .runtime_ids()
        .filter_map(|id| registry.runtime(id))
        .flat_map(|d| {
            std::iter::successors(Some(&d.config_home), |home| home.skills_home.as_deref())
                .flat_map(|home| home.env.iter().map(String::as_str))
        });
    for name in declared.chain([GROK_AGENTS_HOME, CLAUDE_CONFIG_DIR]) {
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// A variable that is set to a non-empty value (the installer's truthy test: a blank value
/// counts as set here, unlike the descriptor resolution).
fn truthy_var<'h>(host: &'h Host, name: &str) -> Option<&'h str> {
    host.var(name).filter(|v| !v.is_empty())
}

/// The global config directory the installer uses for `runtime`:
/// a non-empty `explicit_dir` (`~` expanded); `grok` → `GROK_AGENTS_HOME` or `~/.agents`;
/// a registered runtime → its `configHome` resolution; any other id → the claude fallback
/// (`CLAUDE_CONFIG_DIR` when non-empty, else `~/.claude`).
///
/// # Errors
/// [`ErrorCode::NoConfigHome`](crate::ErrorCode::NoConfigHome) for a registered runtime whose `configHome.kind` is `none`
/// (vscode), and the descriptor errors of [`resolve_config_home`].
pub fn global_config_dir(
    registry: &Registry,
    runtime: &str,
    explicit_dir: Option<&str>,
    host: &Host,
) -> Result<String, Error> {
    if let Some(dir) = explicit_dir.filter(|d| !d.is_empty()) {
        return Ok(expand_tilde(dir, &host.home));
    }
    if runtime == LEGACY_GROK_ID {
        return Ok(match truthy_var(host, GROK_AGENTS_HOME) {
            Some(value) => expand_tilde(value, &host.home),
            None => path::join(&[&host.home, ".agents"]),
        });
    }
    if let Some(d) = registry.runtime(runtime) {
        return resolve_config_home(&d.config_home, host).map(|(dir, _)| dir);
    }
    Ok(match truthy_var(host, CLAUDE_CONFIG_DIR) {
        Some(value) => expand_tilde(value, &host.home),
        None => path::join(&[&host.home, ".claude"]),
    })
}

/// `join(resolve(config_home.skillsHome ?? config_home), skills_dest_subpath)`.
///
/// # Errors
/// As [`resolve_config_home`] for the descriptor used.
pub fn skills_base_from_descriptor(
    config_home: &ConfigHome,
    host: &Host,
    skills_dest_subpath: &str,
) -> Result<String, Error> {
    let base = config_home.skills_home.as_deref().unwrap_or(config_home);
    let (dir, _) = resolve_config_home(base, host)?;
    Ok(path::join(&[&dir, skills_dest_subpath]))
}

/// The global skills base of `runtime`: `None` when its `configHome.kind` is `none`; the
/// first global `skills` layout entry decides otherwise — with a `home` root,
/// `join(host.home, home, destSubpath)` (environment overrides do not move it), else
/// [`skills_base_from_descriptor`]; a runtime without a global skills entry, or an id
/// outside the registry, gets `join(global_config_dir(runtime), "skills")`.
///
/// # Errors
/// As [`global_config_dir`] and [`resolve_config_home`].
pub fn global_skills_base(
    registry: &Registry,
    runtime: &str,
    host: &Host,
) -> Result<Option<String>, Error> {
    let found = registry.runtime(runtime);
    if let Some(d) = found {
        if d.config_home.kind == ConfigHomeKind::None {
            return Ok(None);
        }
        let skills = d
            .artifact_layout
            .entries(Scope::Global)
            .iter()
            .find(|e| e.kind == ArtifactKindName::Skills)
            .filter(|e| !e.dest_subpath.is_empty());
        if let Some(entry) = skills {
            if let Some(home) = entry.home.as_deref().filter(|h| !h.is_empty()) {
                return Ok(Some(path::join(&[&host.home, home, &entry.dest_subpath])));
            }
            return skills_base_from_descriptor(&d.config_home, host, &entry.dest_subpath)
                .map(Some);
        }
    }
    let dir = global_config_dir(registry, runtime, None, host)?;
    Ok(Some(path::join(&[&dir, "skills"])))
}

/// `join(global_skills_base(runtime), skill)`, or `None` when the runtime has no skills base.
///
/// # Errors
/// As [`global_skills_base`].
pub fn global_skill_dir(
    registry: &Registry,
    runtime: &str,
    skill: &str,
    host: &Host,
) -> Result<Option<String>, Error> {
    Ok(global_skills_base(registry, runtime, host)?.map(|base| path::join(&[&base, skill])))
}

/// A skill directory for messages: a leading `host.home` (plain prefix test, no separator
/// boundary) becomes `~`; a runtime without a skills base reads
/// `(<runtime> does not use a skills directory)`.
///
/// # Errors
/// As [`global_skills_base`].
pub fn global_skill_display_path(
    registry: &Registry,
    runtime: &str,
    skill: &str,
    host: &Host,
) -> Result<String, Error> {
    let dir = global_skill_dir(registry, runtime, skill, host)?;
    Ok(match dir.filter(|d| !d.is_empty()) {
        None => format!("({runtime} does not use a skills directory)"),
        Some(d) => match d.strip_prefix(host.home.as_str()) {
            Some(rest) => format!("~{rest}"),
            None => d,
        },
    })
}

/// Every path [`global_config_dir`] and [`global_skills_base`] may test against
/// [`Host::existing_paths`] for `runtime` (the config home's probes, then the skills home's).
#[must_use]
pub fn global_dirs_probe_paths(registry: &Registry, runtime: &str, host: &Host) -> Vec<String> {
    let Some(d) = registry.runtime(runtime) else {
        return Vec::new();
    };
    let mut out = probe_paths(&d.config_home, host);
    if let Some(skills_home) = d.config_home.skills_home.as_deref() {
        for p in probe_paths(skills_home, host) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> Host {
        Host::new("/h", "/w")
    }

    #[test]
    fn the_variables_read_are_the_declared_ones_and_the_two_named_here() {
        let names = env_names_read(Registry::first_party());
        // Each configHome.env name of the first-party runtimes (peer-spec's runtime table),
        // each once; the fallbacks this module reads close the list.
        for name in [
            "CLAUDE_CONFIG_DIR",
            "KILO_CONFIG_DIR",
            "KILO_CONFIG",
            "XDG_CONFIG_HOME",
            "CODEX_HOME",
        ] {
            assert_eq!(names.iter().filter(|n| **n == name).count(), 1, "{name}");
        }
        assert_eq!(names.last(), Some(&"GROK_AGENTS_HOME"));
        // Each is read: set alone, it moves some runtime's global config directory.
        let registry = Registry::first_party();
        for name in &names {
            let mut set = host();
            set.env.insert((*name).to_owned(), "/set".to_owned());
            let moved = registry
                .runtime_ids()
                .chain(["grok", "not-a-runtime"])
                .any(|id| {
                    global_config_dir(registry, id, None, &set)
                        != global_config_dir(registry, id, None, &host())
                });
            assert!(moved, "{name} moves nothing");
        }
    }

    #[test]
    fn unknown_ids_fall_back_to_claude_and_grok_has_its_own_root() {
        let r = Registry::first_party();
        assert_eq!(
            global_config_dir(r, "nope", None, &host()).unwrap(),
            "/h/.claude"
        );
        assert_eq!(
            global_config_dir(r, "grok", None, &host()).unwrap(),
            "/h/.agents"
        );
        let mut h = host();
        h.env.insert("CLAUDE_CONFIG_DIR".into(), "   ".into());
        assert_eq!(global_config_dir(r, "nope", None, &h).unwrap(), "   ");
        assert_eq!(
            global_config_dir(r, "nope", Some("~/x"), &h).unwrap(),
            "/h/x"
        );
    }

    #[test]
    fn vscode_has_no_skills_base_and_codex_skills_live_under_home() {
        let r = Registry::first_party();
        assert_eq!(global_skills_base(r, "vscode", &host()).unwrap(), None);
        assert_eq!(
            global_skills_base(r, "codex", &host()).unwrap().as_deref(),
            Some("/h/.agents/skills")
        );
        assert_eq!(
            global_skill_display_path(r, "vscode", "gsd-x", &host()).unwrap(),
            "(vscode does not use a skills directory)"
        );
    }
}
