//! Config-home resolution: where a runtime's global config directory is, from its
//! `configHome` descriptor and the host facts.
//!
//! Every kind of the closed vocabulary is handled as the peer's `runtime-homes` does (env
//! overrides gated on a non-whitespace value that is never trimmed, `~`/`~/` expansion,
//! probe passes), but probes consult [`Host::existing_paths`] instead of the disk, and the
//! answer carries a [`Provenance`] saying which rule decided.

use crate::js::is_non_blank;
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};
use crate::host::Host;
use crate::manifest::ConfigHome;
use crate::path;
use crate::vocab::ConfigHomeKind;

/// Which rule decided a config directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "source",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Provenance {
    /// The caller's explicit directory (`--config-dir`), as given.
    ExplicitDir {
        /// The explicit value before `~` expansion.
        value: String,
    },
    /// An environment override.
    EnvVar {
        /// The variable name.
        name: String,
        /// Its value (before `~` expansion / `dirname`).
        value: String,
    },
    /// A probe candidate that exists on the host.
    Probe {
        /// The selected directory.
        candidate: String,
        /// The marker sub-path whose existence selected it (`None`: the bare directory existed).
        marker: Option<String>,
    },
    /// No probe candidate existed; the first candidate was taken.
    ProbeFallback {
        /// The selected directory.
        candidate: String,
    },
    /// The descriptor's default location under the home directory.
    Default,
    /// The local scope: the project's config directory under the working directory.
    ProjectDir {
        /// The working directory.
        cwd: String,
        /// The descriptor's `localConfigDir`.
        local_config_dir: String,
    },
}

/// `~` → home (normalised), `~/rest` → `join(home, rest)`; anything else verbatim.
pub(crate) fn expand_tilde(value: &str, home: &str) -> String {
    if value == "~" || value.starts_with("~/") {
        path::join(&[home, &value[1..]])
    } else {
        value.to_owned()
    }
}

fn descriptor_error(field: &str, kind: ConfigHomeKind) -> Error {
    Error::new(
        ErrorCode::InvalidDescriptor,
        format!("configHome.{field} is required for configHome.kind \"{kind}\""),
    )
    .with_field(format!("runtime.configHome.{field}"))
}

/// The override at `config_home.env[index]`, when declared and usable.
fn env_override(config_home: &ConfigHome, index: usize, host: &Host) -> Option<(String, String)> {
    let name = config_home.env.get(index)?;
    if name.is_empty() {
        return None;
    }
    let value = host.var(name)?;
    is_non_blank(value).then(|| (name.clone(), value.to_owned()))
}

fn required<'a>(
    value: Option<&'a String>,
    field: &str,
    kind: ConfigHomeKind,
) -> Result<&'a str, Error> {
    value
        .map(String::as_str)
        .ok_or_else(|| descriptor_error(field, kind))
}

fn probe_list(config_home: &ConfigHome) -> &[String] {
    config_home.probe.as_deref().unwrap_or(&[])
}

type Resolved = Result<(String, Provenance), Error>;

/// The first usable override among `indices`, tilde-expanded.
fn first_override(
    config_home: &ConfigHome,
    indices: impl IntoIterator<Item = usize>,
    host: &Host,
) -> Option<(String, Provenance)> {
    indices
        .into_iter()
        .find_map(|index| env_override(config_home, index, host))
        .map(|(name, value)| {
            (
                expand_tilde(&value, &host.home),
                Provenance::EnvVar { name, value },
            )
        })
}

fn dot_home(config_home: &ConfigHome, host: &Host) -> Resolved {
    if let Some(found) = first_override(config_home, 0..config_home.env.len(), host) {
        return Ok(found);
    }
    let name = required(config_home.name.as_ref(), "name", config_home.kind)?;
    Ok((path::join(&[&host.home, name]), Provenance::Default))
}

fn dot_home_nested(config_home: &ConfigHome, host: &Host) -> Resolved {
    if let Some(found) = first_override(config_home, [0], host) {
        return Ok(found);
    }
    let parent = required(config_home.parent.as_ref(), "parent", config_home.kind)?;
    let base = path::join(&[&host.home, parent]);
    let probe = probe_list(config_home);
    let Some(first) = probe.first() else {
        let name = required(config_home.name.as_ref(), "name", config_home.kind)?;
        return Ok((path::join(&[&base, name]), Provenance::Default));
    };
    // Nothing is known to exist (the usual host): no probe can hit, so none is spelled out.
    let probing = !host.existing_paths.is_empty();
    if let Some(marker) = config_home.probe_exists.as_ref().filter(|_| probing) {
        for candidate in probe {
            let dir = path::join(&[&base, candidate]);
            if host.exists(&path::join(&[&dir, marker])) {
                let provenance = Provenance::Probe {
                    candidate: dir.clone(),
                    marker: Some(marker.clone()),
                };
                return Ok((dir, provenance));
            }
        }
    }
    for candidate in probe.iter().filter(|_| probing) {
        let dir = path::join(&[&base, candidate]);
        if host.exists(&dir) {
            return Ok((
                dir.clone(),
                Provenance::Probe {
                    candidate: dir,
                    marker: None,
                },
            ));
        }
    }
    let dir = path::join(&[&base, first]);
    Ok((dir.clone(), Provenance::ProbeFallback { candidate: dir }))
}

fn xdg(config_home: &ConfigHome, host: &Host) -> Resolved {
    let home = host.home.as_str();
    if let Some(found) = first_override(config_home, [0], host) {
        return Ok(found);
    }
    if let Some((name, value)) = env_override(config_home, 1, host) {
        return Ok((
            path::dirname(&expand_tilde(&value, home)),
            Provenance::EnvVar { name, value },
        ));
    }
    let dir_name = required(config_home.name.as_ref(), "name", config_home.kind)?;
    if let Some((name, value)) = env_override(config_home, 2, host) {
        let dir = path::join(&[&expand_tilde(&value, home), dir_name]);
        return Ok((dir, Provenance::EnvVar { name, value }));
    }
    Ok((
        path::join(&[home, ".config", dir_name]),
        Provenance::Default,
    ))
}

fn generic_agents_root(config_home: &ConfigHome, host: &Host) -> Resolved {
    if let Some(found) = first_override(config_home, [0], host) {
        return Ok(found);
    }
    let probe = probe_list(config_home);
    let first = probe
        .first()
        .ok_or_else(|| descriptor_error("probe", config_home.kind))?;
    let marker = required(
        config_home.probe_exists.as_ref(),
        "probeExists",
        config_home.kind,
    )?;
    // As in `dot_home_nested`: with nothing known to exist, no probe can hit.
    for candidate in probe.iter().filter(|_| !host.existing_paths.is_empty()) {
        let dir = expand_tilde(candidate, &host.home);
        if host.exists(&path::join(&[&dir, marker])) {
            let provenance = Provenance::Probe {
                candidate: dir.clone(),
                marker: Some(marker.to_owned()),
            };
            return Ok((dir, provenance));
        }
    }
    let dir = expand_tilde(first, &host.home);
    Ok((dir.clone(), Provenance::ProbeFallback { candidate: dir }))
}

/// Resolves the global config directory of a `configHome` descriptor.
///
/// # Errors
/// - [`ErrorCode::NoConfigHome`] for kind `none` (vscode);
/// - [`ErrorCode::InvalidDescriptor`] when a field the kind needs is missing (e.g. `name` of a
///   `dot-home`, `probe`/`probeExists` of a `generic-agents-root`).
pub fn resolve_config_home(config_home: &ConfigHome, host: &Host) -> Resolved {
    match config_home.kind {
        ConfigHomeKind::DotHome => dot_home(config_home, host),
        ConfigHomeKind::DotHomeNested => dot_home_nested(config_home, host),
        ConfigHomeKind::Xdg => xdg(config_home, host),
        ConfigHomeKind::GenericAgentsRoot => generic_agents_root(config_home, host),
        ConfigHomeKind::None => Err(Error::new(
            ErrorCode::NoConfigHome,
            format!(
                "runtime \"{}\" has no config-home directory (configHome.kind === \"none\")",
                config_home.name.as_deref().unwrap_or("undefined")
            ),
        )
        .with_field("runtime.configHome.kind")),
    }
}

/// Exactly the paths [`resolve_config_home`] may test against [`Host::existing_paths`], in
/// the order it tests them. Empty when an environment override decides (nothing is probed)
/// or when the kind never probes.
#[must_use]
pub fn probe_paths(config_home: &ConfigHome, host: &Host) -> Vec<String> {
    let home = host.home.as_str();
    let probe = probe_list(config_home);
    match config_home.kind {
        ConfigHomeKind::DotHomeNested => {
            if env_override(config_home, 0, host).is_some() {
                return Vec::new();
            }
            let Some(parent) = config_home.parent.as_deref() else {
                return Vec::new();
            };
            let base = path::join(&[home, parent]);
            let mut out = Vec::new();
            if let Some(marker) = &config_home.probe_exists {
                out.extend(probe.iter().map(|c| path::join(&[&base, c, marker])));
            }
            out.extend(probe.iter().map(|c| path::join(&[&base, c])));
            out
        }
        ConfigHomeKind::GenericAgentsRoot => {
            if env_override(config_home, 0, host).is_some() {
                return Vec::new();
            }
            let Some(marker) = config_home.probe_exists.as_deref() else {
                return Vec::new();
            };
            probe
                .iter()
                .map(|c| path::join(&[&expand_tilde(c, home), marker]))
                .collect()
        }
        ConfigHomeKind::DotHome | ConfigHomeKind::Xdg | ConfigHomeKind::None => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;

    fn home_of(runtime: &str) -> ConfigHome {
        Registry::first_party()
            .runtime(runtime)
            .map_or_else(|| panic!("{runtime}"), |d| d.config_home.clone())
    }

    #[test]
    fn blank_override_is_ignored_and_real_one_is_not_trimmed() {
        let mut host = Host::new("/h", "/c");
        host.env.insert("CLAUDE_CONFIG_DIR".into(), "   ".into());
        assert_eq!(
            resolve_config_home(&home_of("claude"), &host).map(|r| r.0),
            Ok("/h/.claude".into())
        );
        host.env.insert("CLAUDE_CONFIG_DIR".into(), " /x ".into());
        assert_eq!(
            resolve_config_home(&home_of("claude"), &host).map(|r| r.0),
            Ok(" /x ".into())
        );
        host.env.insert("CLAUDE_CONFIG_DIR".into(), "~".into());
        assert_eq!(
            resolve_config_home(&home_of("claude"), &host).map(|r| r.0),
            Ok("/h".into())
        );
    }

    #[test]
    fn antigravity_prefers_the_marked_candidate() {
        let mut host = Host::new("/h", "/c");
        host.existing_paths.insert("/h/.gemini/antigravity".into());
        host.existing_paths
            .insert("/h/.gemini/antigravity-cli/gsd-core/VERSION".into());
        let (dir, provenance) =
            resolve_config_home(&home_of("antigravity"), &host).expect("resolves");
        assert_eq!(dir, "/h/.gemini/antigravity-cli");
        assert_eq!(
            provenance,
            Provenance::Probe {
                candidate: dir.clone(),
                marker: Some("gsd-core/VERSION".into())
            }
        );
        let probes = probe_paths(&home_of("antigravity"), &host);
        assert_eq!(probes.len(), 6);
        assert_eq!(probes[0], "/h/.gemini/antigravity/gsd-core/VERSION");
        assert_eq!(probes[3], "/h/.gemini/antigravity");
    }

    /// A host that knows of no existing path skips the probes; the answer is the one of a
    /// host whose known paths match none of them, for every runtime and override, and a
    /// host knowing any one probe path finds it.
    #[test]
    fn skipped_probes_change_nothing() {
        let reg = Registry::first_party();
        let mut skipped = 0;
        for runtime in reg.runtime_ids() {
            let config_home = home_of(runtime);
            let own = config_home.env.first().map_or("", String::as_str);
            for env in [None, Some(("XDG_CONFIG_HOME", "~/x")), Some((own, "/o"))] {
                let mut host = Host::new("/h", "/c");
                if let Some((name, value)) = env {
                    host.env.insert(name.into(), value.into());
                }
                let mut probed = host.clone();
                probed.existing_paths.insert("/nowhere".into());
                assert_eq!(
                    resolve_config_home(&config_home, &host),
                    resolve_config_home(&config_home, &probed),
                    "{runtime}"
                );
                // Each probe path that exists is found (the probes are not skipped then).
                for path in probe_paths(&config_home, &host) {
                    let mut found = host.clone();
                    found.existing_paths.insert(path.clone());
                    let provenance = resolve_config_home(&config_home, &found).map(|r| r.1);
                    assert!(
                        matches!(provenance, Ok(Provenance::Probe { .. })),
                        "{runtime} {path}"
                    );
                    skipped += 1;
                }
            }
        }
        assert!(skipped >= 8, "probing runtimes are covered: {skipped}");
    }

    #[test]
    fn vscode_has_no_config_home() {
        let err =
            resolve_config_home(&home_of("vscode"), &Host::new("/h", "/c")).expect_err("none");
        assert_eq!(err.code(), ErrorCode::NoConfigHome);
    }
}
