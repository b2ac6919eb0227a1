//! Install scope resolution: one [`Scope`] value, its precedence rank, and the config
//! directory it installs into.
//!
//! `global` resolves through the runtime's `configHome` descriptor ([`crate::home`]),
//! `local` joins the descriptor's `localConfigDir` onto the host's working directory, and an
//! explicit directory short-circuits both. Results carry a [`Provenance`].

use serde::Serialize;

use crate::error::{Error, ErrorCode};
use crate::home::{self, Provenance};
use crate::host::Host;
use crate::js::{Field, is_non_blank};
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::sanitize::sanitize_value;
use crate::vocab::{ConfigHomeKind, Scope};

/// `SCOPE_ORDER`: every scope, highest precedence first.
pub const SCOPE_ORDER: &[Scope] = Scope::ALL;

/// One resolved install scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedScope {
    /// The scope.
    pub id: Scope,
    /// The config directory artifacts are installed into (`\` converted to `/`), as the
    /// peer gives it: a relative `explicitDir` or environment value stays relative here
    /// (a plan resolves every destination against `host.cwd`, and so must a caller that
    /// writes into this directory).
    pub config_home: String,
    /// The settings file name for this scope (`hostBehaviors.settingsFileByScope`), if any.
    pub settings_file: Option<String>,
    /// Whether writing into this scope needs the user's consent (`local`).
    pub consent_required: bool,
    /// Host precedence rank: global 2, local 1 (higher wins).
    pub host_precedence_rank: u8,
    /// Which rule decided `config_home`.
    pub provenance: Provenance,
}

/// Parses a scope id exactly (`global` | `local`; no trimming, no case folding).
///
/// # Errors
/// [`ErrorCode::InvalidScope`] for anything else (`"GLOBAL"`, `""`, `"project"`); the
/// message ends with the value rendered as a JSON string.
pub fn parse_scope(id: &str) -> Result<Scope, Error> {
    Scope::parse(id).ok_or_else(|| invalid_scope(id))
}

/// Parses a list of scope ids as [`parse_scope`] does each (as `resolve_install_plans`
/// takes them from a caller's text: `["global", "local"]`); the error names the entry at
/// fault, `scopes[1]`.
///
/// # Errors
/// [`ErrorCode::InvalidScope`] for the first id that is not exactly `global` or `local`.
pub fn parse_scopes<S: AsRef<str>>(ids: &[S]) -> Result<Vec<Scope>, Error> {
    ids.iter()
        .enumerate()
        .map(|(index, id)| {
            Scope::parse(id.as_ref())
                .ok_or_else(|| invalid_scope(id.as_ref()).with_field(format!("scopes[{index}]")))
        })
        .collect()
}

pub(crate) fn invalid_scope(id: &str) -> Error {
    let shown = serde_json::to_string(&sanitize_value(id)).unwrap_or_default();
    Error::new(
        ErrorCode::InvalidScope,
        format!("id must be one of 'global' | 'local', got {shown}"),
    )
    .with_field("scope")
}

/// Looks a runtime descriptor up by exact id.
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`] when `runtime` is not a registered runtime id (no trimming:
/// `" claude"`, `__proto__` and `constructor` are unknown).
pub fn lookup_runtime<'r>(
    registry: &'r Registry,
    runtime: &str,
) -> Result<&'r RuntimeDescriptor, Error> {
    registry
        .runtime(runtime)
        .ok_or_else(|| unknown_runtime(runtime))
}

fn unknown_runtime(runtime: &str) -> Error {
    Error::new(
        ErrorCode::UnknownRuntime,
        format!(
            "unknown runtime '{}' — not present in the capability registry",
            sanitize_value(runtime)
        ),
    )
    .with_field("runtime")
}

/// The capability of a registered runtime (its manifest, for a caller that shows it).
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`] on field `runtime`: for an id the registry does not hold,
/// the message of [`lookup_runtime`]; for the id of a capability of another role, one that
/// says what it is (`'gemini' is a reviewer capability, not a runtime`).
pub fn runtime_capability<'r>(
    registry: &'r Registry,
    runtime: &str,
) -> Result<&'r crate::manifest::Capability, Error> {
    match registry.capability(runtime) {
        Some(capability) if registry.runtime(runtime).is_some() => Ok(capability),
        Some(capability) => Err(Error::new(
            ErrorCode::UnknownRuntime,
            format!(
                "'{}' is a {} capability, not a runtime",
                sanitize_value(runtime),
                capability.role.as_str()
            ),
        )
        .with_field("runtime")),
        None => Err(unknown_runtime(runtime)),
    }
}

fn no_config_home(runtime: &str) -> Error {
    Error::new(
        ErrorCode::NoConfigHome,
        format!(
            "runtime '{runtime}' has no installable config directory (configHome.kind === 'none')"
        ),
    )
    .with_field("runtime.configHome.kind")
}

/// Refuses a runtime with no config directory (`configHome.kind: none`, vscode): nothing
/// can be installed for it at any scope.
pub(crate) fn installable(descriptor: &RuntimeDescriptor, runtime: &str) -> Result<(), Error> {
    if descriptor.config_home.kind == ConfigHomeKind::None {
        return Err(no_config_home(runtime));
    }
    Ok(())
}

/// `~` → home verbatim, `~/rest` → `join(home, rest)`, else verbatim (install-scope flavour).
fn expand_explicit_dir(value: &str, home: &str) -> String {
    if value == "~" {
        home.to_owned()
    } else if let Some(rest) = value.strip_prefix("~/") {
        path::join(&[home, rest])
    } else {
        value.to_owned()
    }
}

pub(crate) fn usable_explicit_dir(explicit_dir: Option<&str>) -> Option<&str> {
    explicit_dir.filter(|dir| is_non_blank(dir))
}

/// Resolves `scope` for `runtime` on `host`.
///
/// Order: runtime lookup, `configHome.kind: none` (before any explicit directory), then the
/// config directory: a non-blank `explicit_dir` wins for both scopes; `local` is
/// `join(cwd, localConfigDir)`; `global` goes through [`home::resolve_config_home`]. Every
/// `\` of the result becomes `/`.
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`], [`ErrorCode::NoConfigHome`] (vscode),
/// [`ErrorCode::InvalidDescriptor`] (a descriptor missing a field its kind needs).
pub fn resolve_scope(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    host: &Host,
    explicit_dir: Option<&str>,
) -> Result<ResolvedScope, Error> {
    let descriptor = lookup_runtime(registry, runtime)?;
    scope_of(descriptor, runtime, scope, host, explicit_dir)
}

/// [`resolve_scope`] of a runtime already looked up.
pub(crate) fn scope_of(
    descriptor: &RuntimeDescriptor,
    runtime: &str,
    scope: Scope,
    host: &Host,
    explicit_dir: Option<&str>,
) -> Result<ResolvedScope, Error> {
    installable(descriptor, runtime)?;
    let (dir, provenance) = if let Some(value) = usable_explicit_dir(explicit_dir) {
        (
            expand_explicit_dir(value, &host.home),
            Provenance::ExplicitDir {
                value: value.to_owned(),
            },
        )
    } else {
        match scope {
            Scope::Local => {
                let local = descriptor.local_config_dir.as_deref().ok_or_else(|| {
                    Error::new(
                        ErrorCode::InvalidDescriptor,
                        format!("runtime '{runtime}' has no localConfigDir"),
                    )
                    .with_field("runtime.localConfigDir")
                })?;
                let provenance = Provenance::ProjectDir {
                    cwd: host.cwd.clone(),
                    local_config_dir: local.to_owned(),
                };
                (path::join(&[&host.cwd, local]), provenance)
            }
            Scope::Global => home::resolve_config_home(&descriptor.config_home, host)?,
        }
    };
    Ok(ResolvedScope {
        id: scope,
        // `to_posix`, without copying a directory that has no `\`.
        config_home: if dir.contains('\\') {
            path::to_posix(&dir)
        } else {
            dir
        },
        settings_file: descriptor.settings_file(scope).map(str::to_owned),
        consent_required: scope == Scope::Local,
        host_precedence_rank: scope.rank(),
        provenance,
    })
}

/// `descriptor.hostBehaviors[name]`, found with [`Field`]: the maps read on every plan
/// (host behaviours, settings files by scope) hold a few keys, so comparing them costs less
/// than hashing the name.
pub(crate) fn host_behavior<'d>(
    descriptor: &'d RuntimeDescriptor,
    name: &str,
) -> Option<&'d serde_json::Value> {
    descriptor.host_behaviors.as_ref()?.field(name)
}

/// Exactly the paths [`resolve_scope`] may test on the host for these arguments (empty for
/// `local`, for an explicit directory, and when an environment override decides).
///
/// # Errors
/// [`ErrorCode::UnknownRuntime`].
pub fn scope_probe_paths(
    registry: &Registry,
    runtime: &str,
    scope: Scope,
    host: &Host,
    explicit_dir: Option<&str>,
) -> Result<Vec<String>, Error> {
    let descriptor = lookup_runtime(registry, runtime)?;
    if scope == Scope::Local || usable_explicit_dir(explicit_dir).is_some() {
        return Ok(Vec::new());
    }
    Ok(home::probe_paths(&descriptor.config_home, host))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host() -> Host {
        Host::new("/home/u", "/work/p")
    }

    #[test]
    fn a_runtime_capability_is_told_apart_from_other_roles() {
        let registry = Registry::first_party();
        let claude = runtime_capability(registry, "claude").map(|c| c.id.as_str());
        assert_eq!(claude, Ok("claude"));
        // gemini is registered, as a reviewer (peer-spec: one of the 5 first-party reviewers).
        for (id, message) in [
            ("gemini", "'gemini' is a reviewer capability, not a runtime"),
            ("tdd", "'tdd' is a feature capability, not a runtime"),
            (
                "nope",
                "unknown runtime 'nope' — not present in the capability registry",
            ),
        ] {
            let e = runtime_capability(registry, id).map(|c| c.id.as_str());
            let e = e.expect_err(id);
            assert_eq!(
                (e.code(), e.message(), e.field()),
                (ErrorCode::UnknownRuntime, message, Some("runtime")),
                "{id}"
            );
        }
    }

    #[test]
    fn parse_scopes_names_the_entry_at_fault() {
        assert_eq!(
            parse_scopes(&["local", "global", "local"]),
            Ok(vec![Scope::Local, Scope::Global, Scope::Local])
        );
        assert_eq!(parse_scopes::<&str>(&[]), Ok(Vec::new()));
        let err =
            parse_scopes(&["global".to_owned(), "Local".to_owned(), "x".to_owned()]).unwrap_err();
        assert_eq!(
            (err.code(), err.field(), err.message()),
            (
                ErrorCode::InvalidScope,
                Some("scopes[1]"),
                "id must be one of 'global' | 'local', got \"Local\""
            )
        );
    }

    #[test]
    fn parse_scope_is_exact() {
        assert_eq!(parse_scope("global"), Ok(Scope::Global));
        for bad in ["GLOBAL", "", "project", " local"] {
            let err = parse_scope(bad).expect_err(bad);
            assert_eq!(err.code(), ErrorCode::InvalidScope);
            assert_eq!(err.field(), Some("scope"));
        }
        assert_eq!(
            parse_scope("project").map_err(|e| e.message().to_owned()),
            Err("id must be one of 'global' | 'local', got \"project\"".to_owned())
        );
    }

    #[test]
    fn claude_scopes_follow_the_spec() {
        let reg = Registry::first_party();
        let global = resolve_scope(reg, "claude", Scope::Global, &host(), None).expect("global");
        assert_eq!(global.config_home, "/home/u/.claude");
        assert_eq!(global.settings_file.as_deref(), Some("settings.json"));
        assert_eq!(
            (global.consent_required, global.host_precedence_rank),
            (false, 2)
        );
        let local = resolve_scope(reg, "claude", Scope::Local, &host(), None).expect("local");
        assert_eq!(local.config_home, "/work/p/.claude");
        assert_eq!(
            (local.consent_required, local.host_precedence_rank),
            (true, 1)
        );
    }

    #[test]
    fn lookups_are_exact_and_vscode_fails_before_explicit_dir() {
        let reg = Registry::first_party();
        for bad in ["__proto__", "constructor", "../claude", " claude", "gemini"] {
            let err = resolve_scope(reg, bad, Scope::Global, &host(), None).expect_err(bad);
            assert_eq!(err.code(), ErrorCode::UnknownRuntime);
        }
        let err =
            resolve_scope(reg, "vscode", Scope::Local, &host(), Some("/x")).expect_err("vscode");
        assert_eq!(err.code(), ErrorCode::NoConfigHome);
    }

    /// Members found by scanning are the ones `get` finds, for every behaviour name (and
    /// names no runtime declares) of every runtime, on descriptors whose behaviour maps
    /// hold the same keys in another order; the settings file is the descriptor's own.
    #[test]
    fn scanned_members_are_the_hashed_ones() {
        let reg = Registry::first_party();
        let mut descriptors: Vec<RuntimeDescriptor> = reg
            .runtime_ids()
            .filter_map(|id| reg.runtime(id).cloned())
            .collect();
        let reversed: Vec<RuntimeDescriptor> = descriptors
            .iter()
            .map(|d| {
                let mut d = d.clone();
                d.host_behaviors = d
                    .host_behaviors
                    .map(|m| m.into_iter().rev().collect::<serde_json::Map<_, _>>());
                d
            })
            .collect();
        descriptors.extend(reversed);
        let names = crate::vocab::KNOWN_HOST_BEHAVIORS.iter().copied().chain([
            "",
            "settingsFileByScop",
            "settingsFileByScopes",
            "x",
        ]);
        let mut found = 0;
        for descriptor in &descriptors {
            for name in names.clone() {
                let hashed = descriptor.host_behaviors.as_ref().and_then(|m| m.get(name));
                assert_eq!(host_behavior(descriptor, name), hashed, "{name}");
                found += usize::from(hashed.is_some());
            }
            for scope in [Scope::Global, Scope::Local] {
                let hashed = descriptor
                    .host_behaviors
                    .as_ref()
                    .and_then(|m| m.get("settingsFileByScope"))
                    .and_then(|v| v.get(scope.as_str()))
                    .and_then(serde_json::Value::as_str);
                assert_eq!(descriptor.settings_file(scope), hashed);
            }
        }
        assert!(found > 100, "{found}");
    }

    #[test]
    fn explicit_dir_rules() {
        let reg = Registry::first_party();
        let dir = |d: &str| {
            resolve_scope(reg, "codex", Scope::Local, &host(), Some(d)).map(|s| s.config_home)
        };
        assert_eq!(dir("~"), Ok("/home/u".into()));
        assert_eq!(dir("~/x/../y"), Ok("/home/u/y".into()));
        assert_eq!(dir("/a/b/../c/"), Ok("/a/b/../c/".into()));
        assert_eq!(dir("~\\x"), Ok("~/x".into()));
        assert_eq!(dir("   "), Ok("/work/p/.codex".into()));
    }
}
