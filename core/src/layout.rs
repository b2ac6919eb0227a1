//! Artifact layout: which kinds of artifacts a runtime installs at a scope, where, under
//! which prefix and through which body converter.
//!
//! Built from the descriptor's `artifactLayout.<scope>` in descriptor order. Every kind's
//! destination directory is computed here and confined to its root (the config directory,
//! or the global-only `home` root): a destination outside its root is an error, never a
//! write target.

use std::borrow::Cow;

use serde::Serialize;

use crate::error::{Error, ErrorCode};
use crate::host::Host;
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::registry::Registry;
use crate::scope::lookup_runtime;
use crate::vocab::{ArtifactKindName, ConverterName, Nesting, Scope};

/// The resolved layout of one runtime at one scope.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Layout {
    /// Runtime id.
    pub runtime: String,
    /// The config directory, verbatim as given.
    pub config_dir: String,
    /// The scope.
    pub scope: Scope,
    /// The kinds, in descriptor order.
    pub kinds: Vec<ArtifactKind>,
}

/// One artifact kind of a layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactKind {
    /// The kind.
    pub kind: ArtifactKindName,
    /// Destination under the root, as declared.
    pub dest_subpath: String,
    /// File / directory prefix.
    pub prefix: String,
    /// `flat` or `nested` (router nesting of skills).
    pub nesting: Nesting,
    /// Whether the host loads the directory recursively.
    pub recursive: bool,
    /// Body converter by closed name (`None`: bodies are copied as they are).
    pub converter: Option<ConverterName>,
    /// Global-only install root: `join(host.home, entry.home)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub home: Option<String>,
    /// The absolute, confined destination directory: `resolve(cwd, root, destSubpath)`.
    pub dest_dir: String,
}

/// `destSubpath` resolved under `root` (against `cwd` when `root` is relative), accepted only
/// when strictly inside `root` (the peer's `assertDestWithinConfigHome`).
///
/// # Errors
/// [`ErrorCode::DestinationOutsideConfigHome`] when `dest_subpath` contains NUL, `root` or
/// `dest_subpath` is empty, or the target resolves to `root` itself or outside it (a root of
/// `/` rejects everything, as the peer does).
pub fn dest_within_root(cwd: &str, root: &str, dest_subpath: &str) -> Result<String, Error> {
    ConfinedRoot::new(cwd, root).dest(dest_subpath)
}

/// A root resolved once, so that many destinations can be confined under it without
/// resolving the root again for each ([`dest_within_root`] for one destination).
pub(crate) struct ConfinedRoot<'a> {
    cwd: &'a str,
    root: &'a str,
    /// Borrowed when `root` is already resolved (absolute and normal), as layout roots are.
    resolved: Cow<'a, str>,
}

impl<'a> ConfinedRoot<'a> {
    /// `root` resolved against `cwd`.
    pub(crate) fn new(cwd: &'a str, root: &'a str) -> Self {
        Self {
            cwd,
            root,
            resolved: if path::is_normal_absolute(root) {
                Cow::Borrowed(root)
            } else {
                Cow::Owned(path::resolve(cwd, &[root]))
            },
        }
    }

    /// A root known to be resolved already: a kind's `dest_dir` as [`kinds_of`] computes
    /// it, which is always absolute and normal (see [`Self::dest`]), so [`Self::new`]
    /// would borrow it as it is without the check.
    pub(crate) fn resolved(cwd: &'a str, root: &'a str) -> Self {
        debug_assert!(path::is_normal_absolute(root), "{root:?}");
        Self {
            cwd,
            root,
            resolved: Cow::Borrowed(root),
        }
    }

    /// `dest_subpath` resolved under the root, as [`dest_within_root`]. The result is
    /// absolute and normal: the resolved root (absolute, normal, not `/`) plus a plain
    /// relative path, or what [`path::resolve`] returns.
    pub(crate) fn dest(&self, dest_subpath: &str) -> Result<String, Error> {
        if !self.root.is_empty() && self.resolved != "/" && is_plain_relative(dest_subpath) {
            // As in `dest_of`: a plain relative path under a root other than `/` resolves
            // to the root, `/`, the path, strictly inside the root.
            return Ok(self.append(&[dest_subpath]));
        }
        let root = self.root;
        if dest_subpath.contains('\0') {
            return Err(Error::new(
                ErrorCode::DestinationOutsideConfigHome,
                format!(
                    "destSubpath {} contains a NUL byte and is not valid",
                    path::quoted(dest_subpath)
                ),
            )
            .with_field("destSubpath"));
        }
        let target = path::resolve(self.cwd, &[root, dest_subpath]);
        if root.is_empty()
            || dest_subpath.is_empty()
            || target == self.resolved
            || !path::is_within(&self.resolved, &target)
        {
            return Err(Error::new(
                ErrorCode::DestinationOutsideConfigHome,
                format!(
                    "destSubpath {} must be a strict subpath of configHome {} — not configHome itself or outside it (escapes configHome)",
                    path::quoted(dest_subpath),
                    path::quoted(root)
                ),
            )
            .with_field("destSubpath"));
        }
        Ok(target)
    }

    /// The concatenation of `parts`, resolved under the root as [`Self::dest`] resolves it.
    ///
    /// When the concatenation is a plain relative path (non-empty, no NUL, no leading `/`,
    /// no empty, `.` or `..` segment) and the root is not `/`, resolving it is appending it
    /// to the resolved root after one `/`, and the result lies strictly inside the root: it
    /// is built in one allocation without normalising anything. Anything else goes through
    /// [`Self::dest`], so errors and edge cases are exactly its own.
    pub(crate) fn dest_of(&self, parts: &[&str]) -> Result<String, Error> {
        let out = self.append(parts);
        let relative = &out[self.resolved.len() + 1..];
        if !self.root.is_empty() && self.resolved != "/" && is_plain_relative(relative) {
            return Ok(out);
        }
        let relative = relative.to_owned();
        self.dest(&relative)
    }
}

impl ConfinedRoot<'_> {
    /// The resolved root, `/`, then `parts`, in one allocation: the destination when
    /// [`Self::admits_plain`] holds for `parts`.
    pub(crate) fn append(&self, parts: &[&str]) -> String {
        let len = parts.iter().map(|p| p.len()).sum::<usize>();
        let mut out = String::with_capacity(self.resolved.len() + 1 + len);
        self.append_to(&mut out, parts);
        out
    }

    /// Appends [`Self::append`]'s destination to `out`.
    pub(crate) fn append_to(&self, out: &mut String, parts: &[&str]) {
        out.push_str(&self.resolved);
        out.push('/');
        for part in parts {
            out.push_str(part);
        }
    }

    /// Whether [`Self::dest_of`] takes its plain path for `parts`: the root is neither empty
    /// nor `/`, and the concatenation is a plain relative path. Then the destination lies
    /// strictly inside the root and no error can arise.
    pub(crate) fn admits_plain(&self, parts: &[&str]) -> bool {
        !self.root.is_empty() && self.resolved != "/" && path::plain_relative_of(parts)
    }
}

/// Whether `relative` names a path below its base without normalisation: non-empty, no NUL,
/// and every `/`-separated segment non-empty and neither `.` nor `..` (so no leading or
/// trailing `/` either).
fn is_plain_relative(relative: &str) -> bool {
    path::plain_relative_of(&[relative])
}

/// Resolves the layout of `runtime` at `scope` into `config_dir`.
///
/// Validation order follows the peer: `config_dir` non-empty, runtime known, then per entry
/// (a `skills` entry must name a converter). `home` roots use `host.home` (the peer reads the
/// real home directory there; we take the host value so the result is a pure function).
///
/// # Errors
/// [`ErrorCode::InvalidArgument`] (empty `config_dir`), [`ErrorCode::UnknownRuntime`],
/// [`ErrorCode::InvalidHost`] (a relative `config_dir` with a `host.cwd` that is not an
/// absolute path: the directory is resolved against it, and the core cannot read the
/// process's own directory to complete it),
/// [`ErrorCode::InvalidDescriptor`] (skills without converter),
/// [`ErrorCode::DestinationOutsideConfigHome`] (a destination escaping its root).
pub fn resolve_layout(
    registry: &Registry,
    runtime: &str,
    config_dir: &str,
    scope: Scope,
    host: &Host,
) -> Result<Layout, Error> {
    require_config_dir(config_dir)?;
    let descriptor = lookup_runtime(registry, runtime)?;
    if !path::is_absolute(config_dir) && !path::is_absolute(&host.cwd) {
        return Err(Error::new(
            ErrorCode::InvalidHost,
            format!(
                "host.cwd must be an absolute path to resolve the relative configDir {}, got {}",
                path::quoted(config_dir),
                path::quoted(&host.cwd)
            ),
        )
        .with_field("host.cwd"));
    }
    Ok(Layout {
        runtime: runtime.to_owned(),
        config_dir: config_dir.to_owned(),
        scope,
        kinds: kinds_of(descriptor, runtime, config_dir, scope, host)?,
    })
}

fn require_config_dir(config_dir: &str) -> Result<(), Error> {
    if config_dir.is_empty() {
        return Err(Error::new(
            ErrorCode::InvalidArgument,
            "configDir must be a non-empty string",
        )
        .with_field("configDir"));
    }
    Ok(())
}

/// The layout kinds of a runtime already looked up ([`resolve_layout`] after its runtime
/// lookup).
pub(crate) fn kinds_of(
    descriptor: &RuntimeDescriptor,
    runtime: &str,
    config_dir: &str,
    scope: Scope,
    host: &Host,
) -> Result<Vec<ArtifactKind>, Error> {
    require_config_dir(config_dir)?;
    let entries = descriptor.artifact_layout.entries(scope);
    let mut kinds = Vec::with_capacity(entries.len());
    // The config directory is resolved once for every entry rooted there.
    let config_root = ConfinedRoot::new(&host.cwd, config_dir);
    for (index, entry) in entries.iter().enumerate() {
        if entry.kind == ArtifactKindName::Skills && entry.converter.is_none() {
            return Err(Error::new(
                ErrorCode::InvalidDescriptor,
                format!("skills entry for '{runtime}' has converter=null (converter is required for skills)"),
            )
            .with_field(format!("runtime.artifactLayout.{scope}[{index}].converter")));
        }
        let home = match (&entry.home, scope) {
            (Some(rel), Scope::Global) if !rel.is_empty() => Some(path::join(&[&host.home, rel])),
            _ => None,
        };
        let dest_dir = match &home {
            Some(home) => dest_within_root(&host.cwd, home, &entry.dest_subpath)?,
            None => config_root.dest(&entry.dest_subpath)?,
        };
        kinds.push(ArtifactKind {
            kind: entry.kind,
            dest_subpath: entry.dest_subpath.clone(),
            prefix: entry.prefix.clone(),
            nesting: entry.nesting,
            recursive: entry.recursive,
            converter: entry.converter,
            home,
            dest_dir,
        });
    }
    Ok(kinds)
}

/// Whether a `commands` entry is namespaced by its directory: the last segment of
/// `dest_subpath` (`\` read as `/`, trailing `/` ignored) equals `prefix` minus one trailing
/// `-`. Always false for other kinds.
#[must_use]
pub fn is_namespaced_by_dir(kind: ArtifactKindName, dest_subpath: &str, prefix: &str) -> bool {
    kind == ArtifactKindName::Commands
        && last_segment(dest_subpath) == prefix.strip_suffix('-').unwrap_or(prefix)
}

/// `path::basename(&path::to_posix(p))` without building either string: trailing
/// separators (`/` or `\`) dropped, then everything after the last separator.
fn last_segment(p: &str) -> &str {
    let trimmed = p.trim_end_matches(['/', '\\']);
    trimmed.rsplit(['/', '\\']).next().unwrap_or(trimmed)
}

/// The file name a command is written under: `<stem>.md` when namespaced by directory, else
/// `<prefix><stem>.md`.
#[must_use]
pub fn compose_command_filename(namespaced_by_dir: bool, prefix: &str, stem: &str) -> String {
    if namespaced_by_dir {
        path::concat(&[stem, ".md"])
    } else {
        path::concat(&[prefix, stem, ".md"])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A relative configDir needs an absolute cwd to be resolved against; an absolute one
    /// does not read the cwd at all (the peer's answer, whatever the cwd).
    #[test]
    fn a_relative_config_dir_needs_an_absolute_cwd() {
        let registry = Registry::first_party();
        let err = resolve_layout(
            registry,
            "claude",
            "x",
            Scope::Local,
            &Host::new("/h", "rel"),
        )
        .expect_err("relative over relative");
        assert_eq!(
            (err.code(), err.field(), err.message()),
            (
                ErrorCode::InvalidHost,
                Some("host.cwd"),
                "host.cwd must be an absolute path to resolve the relative configDir \"x\", got \"rel\""
            )
        );
        let layout = resolve_layout(
            registry,
            "claude",
            "x",
            Scope::Local,
            &Host::new("/h", "/p"),
        )
        .expect("absolute cwd");
        assert_eq!(layout.kinds[0].dest_dir, "/p/x/commands");
        let layout = resolve_layout(
            registry,
            "claude",
            "/c",
            Scope::Local,
            &Host::new("/h", "rel"),
        )
        .expect("absolute configDir");
        assert_eq!(layout.kinds[0].dest_dir, "/c/commands");
    }

    #[test]
    fn namespacing_follows_the_spec_examples() {
        assert!(is_namespaced_by_dir(
            ArtifactKindName::Commands,
            "commands/gsd",
            "gsd-"
        ));
        assert!(is_namespaced_by_dir(
            ArtifactKindName::Commands,
            "commands\\gsd\\",
            "gsd-"
        ));
        assert!(!is_namespaced_by_dir(
            ArtifactKindName::Commands,
            "commands",
            "gsd-"
        ));
        assert!(!is_namespaced_by_dir(ArtifactKindName::Commands, "gsd", ""));
        assert!(!is_namespaced_by_dir(
            ArtifactKindName::Skills,
            "skills/gsd",
            "gsd-"
        ));
        assert_eq!(compose_command_filename(true, "gsd-", "help"), "help.md");
        assert_eq!(
            compose_command_filename(false, "gsd-", "help"),
            "gsd-help.md"
        );
    }

    /// The last segment is read without building strings exactly as `basename` reads the
    /// POSIX spelling (paths drawn from separators, dots and letters).
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated values by value.
    fn last_segment_is_the_posix_basename(picks: Vec<u8>) -> bool {
        const CHARS: [char; 5] = ['/', '\\', 'g', '.', 'é'];
        let p: String = picks.iter().map(|c| CHARS[usize::from(*c) % 5]).collect();
        last_segment(&p) == path::basename(&path::to_posix(&p))
    }

    #[test]
    fn confinement_matches_the_observed_peer_cases() {
        assert_eq!(dest_within_root("/w", "/c", "../c/x"), Ok("/c/x".into()));
        assert_eq!(
            dest_within_root("/w", "/c", "./skills/"),
            Ok("/c/skills".into())
        );
        assert_eq!(dest_within_root("/w", "/c", "C:\\x"), Ok("/c/C:\\x".into()));
        for bad in ["x/..", ".", "..", "/etc", "", "a\0b"] {
            let err = dest_within_root("/w", "/c", bad).expect_err(bad);
            assert_eq!(err.code(), ErrorCode::DestinationOutsideConfigHome);
        }
        assert!(dest_within_root("/w", "/", "x").is_err());
    }

    #[test]
    fn appending_plain_parts_equals_resolving_them() {
        let cases: [(&str, &[&str]); 10] = [
            ("/c/skills", &["gsd-", "help", "/SKILL.md"]),
            ("/c/skills", &["", "x.md"]),
            ("/c/skills", &["a/", "b"]),
            ("/c/skills", &["a//", "b"]),
            ("/c/skills", &["./", "b"]),
            ("/c/skills", &["../", "b"]),
            ("/c/skills", &["b", "/"]),
            ("/c/skills", &["", ""]),
            ("/c/skills", &["a\0", "b"]),
            ("/", &["x"]),
        ];
        for (root, parts) in cases {
            let confined = ConfinedRoot::new("/w", root);
            let slow = confined.dest(&path::concat(parts));
            assert_eq!(confined.dest_of(parts), slow, "{root} {parts:?}");
        }
        let c = ConfinedRoot::new("/w", "/c/skills");
        assert_eq!(
            c.dest_of(&["gsd-", "help", "/SKILL.md"]),
            Ok("/c/skills/gsd-help/SKILL.md".into())
        );
        assert!(c.dest_of(&["../", "b"]).is_err());
        assert_eq!(c.dest_of(&["a//", "b"]), Ok("/c/skills/a/b".into()));
    }

    /// Every destination [`dest_within_root`] accepts is absolute and normal (what
    /// [`ConfinedRoot::resolved`] takes on trust for a kind's `dest_dir`), whatever the
    /// working directory, root and sub-path (drawn from pieces making every kind of segment).
    #[quickcheck_macros::quickcheck]
    fn accepted_destinations_are_normal_absolute(picks: (u8, u8, u8, u8, u8, u8)) -> bool {
        const PIECES: [&str; 12] = [
            "", "/", "a", ".", "..", "//", "/c", "x/", "./b", "../", "C:\\x", "~",
        ];
        let piece = |p: u8| PIECES[usize::from(p) % PIECES.len()];
        let cwd = ["/", piece(picks.0)].concat();
        let root = [piece(picks.1), piece(picks.2)].concat();
        let sub = [piece(picks.3), piece(picks.4), piece(picks.5)].concat();
        dest_within_root(&cwd, &root, &sub)
            .map_or(true, |dest| dest != "/" && path::is_normal_absolute(&dest))
    }

    #[test]
    fn codex_global_skills_root_is_under_host_home() {
        let host = Host::new("/home/u", "/w");
        let layout = resolve_layout(
            Registry::first_party(),
            "codex",
            "/cfg",
            Scope::Global,
            &host,
        )
        .expect("layout");
        assert_eq!(layout.kinds[0].home.as_deref(), Some("/home/u/.agents"));
        assert_eq!(layout.kinds[0].dest_dir, "/home/u/.agents/skills");
        assert_eq!(layout.kinds[1].dest_dir, "/cfg/agents");
    }
}
