//! The artifact staging plan: what an installer does per layout kind when it stages the
//! package's sources into a runtime's config directory, without doing it.
//!
//! For a resolved layout (runtime, config directory, scope, kinds) this decides the path
//! prefix body rewrites substitute (`$HOME/…/` for global installs under the home directory,
//! except opencode), which body rewrite each kind gets (command bodies for `commands`, skill
//! bodies for `skills` and `kimi-agents`, none for agents — their rewrite runs while they are
//! staged), and each kind's confined destination directory (or the refusal the installer
//! raises for it; an uninstall removes the same destinations). The caller stages, rewrites
//! and copies; errors stay per kind so the caller raises them where the installer would.

use serde::{Deserialize, Serialize};

use crate::layout::dest_within_root;
use crate::vocab::Scope;

/// One kind of the layout being staged, as the installer holds it. A member it does not
/// know is an error, never ignored (a misspelt `Home` would stage under the config
/// directory instead of the alternate root).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StagingKindInput {
    /// The kind name (`commands`, `agents`, `skills`, `kimi-agents`; other names are kept).
    pub kind: String,
    /// Destination under the root.
    pub dest_subpath: String,
    /// Global-only alternate root (already absolute), replacing the config directory.
    #[serde(default)]
    pub home: Option<String>,
}

/// The layout being staged and the host facts the plan depends on. Unknown members are
/// refused, as for every other input.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StagingRequest {
    /// Runtime id of the layout.
    pub runtime: String,
    /// The layout's config directory, as given.
    pub config_dir: String,
    /// The layout's scope.
    pub scope: Scope,
    /// The user's home directory.
    pub home: String,
    /// The working directory (anchor of a relative config directory).
    pub cwd: String,
    /// The kinds, in layout order.
    pub kinds: Vec<StagingKindInput>,
}

/// Which body rewrite a staged kind goes through before it is copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum BodyRewrite {
    /// Command bodies are rewritten into a new directory (`commands`).
    CommandBodies,
    /// Skill bodies are rewritten in place (`skills`, `kimi-agents`).
    SkillBodies,
}

wire_names!(BodyRewrite {
    CommandBodies => "commandBodies",
    SkillBodies => "skillBodies",
});

/// The plan of one kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StagingStep {
    /// The kind name, as given.
    pub kind: String,
    /// The body rewrite to apply after staging (`None`: the staged directory is copied).
    pub rewrite: Option<BodyRewrite>,
    /// The confined destination directory, when the destination is accepted.
    pub dest_dir: Option<String>,
    /// The refusal raised for this kind's destination (after it is staged), otherwise `None`.
    pub dest_error: Option<String>,
}

/// The staging plan of a layout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StagingPlan {
    /// Whether the scope is `global`.
    pub is_global: bool,
    /// The prefix body rewrites substitute for the install root (always ends with `/`).
    pub path_prefix: String,
    /// One step per kind, in layout order.
    pub steps: Vec<StagingStep>,
}

/// The body rewrite of a kind name.
#[must_use]
pub fn body_rewrite(kind: &str) -> Option<BodyRewrite> {
    match kind {
        "commands" => Some(BodyRewrite::CommandBodies),
        "skills" | "kimi-agents" => Some(BodyRewrite::SkillBodies),
        _ => None,
    }
}

/// The prefix substituted for the install root in staged bodies: for a global install whose
/// resolved target starts with the home directory (plain prefix test) and a runtime other
/// than opencode, `$HOME<rest>/`; otherwise `<target>/`. Both paths use `/` separators.
#[must_use]
pub fn path_prefix(is_global: bool, runtime: &str, resolved_target: &str, home: &str) -> String {
    let target = resolved_target.replace('\\', "/");
    let home = home.replace('\\', "/");
    match target.strip_prefix(home.as_str()) {
        Some(rest) if is_global && runtime != "opencode" => format!("$HOME{rest}/"),
        _ => format!("{target}/"),
    }
}

/// The confined destination of every kind (`kind.home`, else the config directory, as the
/// root), with the installer's refusal text for the ones outside their root.
fn step(request: &StagingRequest, kind: &StagingKindInput) -> StagingStep {
    let root = kind.home.as_deref().unwrap_or(&request.config_dir);
    let (dest_dir, dest_error) = match dest_within_root(&request.cwd, root, &kind.dest_subpath) {
        Ok(dir) => (Some(dir), None),
        Err(err) => (None, Some(err.message().to_owned())),
    };
    StagingStep {
        kind: kind.kind.clone(),
        rewrite: body_rewrite(&kind.kind),
        dest_dir,
        dest_error,
    }
}

/// The staging plan of `request` (pure: the caller performs staging, rewrites and copies).
#[must_use]
pub fn staging_plan(request: &StagingRequest) -> StagingPlan {
    let is_global = request.scope == Scope::Global;
    let target = crate::path::resolve(&request.cwd, &[&request.config_dir]);
    StagingPlan {
        is_global,
        path_prefix: path_prefix(is_global, &request.runtime, &target, &request.home),
        steps: request.kinds.iter().map(|k| step(request, k)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_follows_the_spec_examples() {
        // peer-spec §7.2: `/home2/.claude` with home `/home` → `$HOME2/.claude/`.
        assert_eq!(
            path_prefix(true, "claude", "/home2/.claude", "/home"),
            "$HOME2/.claude/"
        );
        assert_eq!(
            path_prefix(true, "opencode", "/h/.config/opencode", "/h"),
            "/h/.config/opencode/"
        );
        assert_eq!(
            path_prefix(false, "claude", "/h/p/.claude", "/h"),
            "/h/p/.claude/"
        );
    }

    #[test]
    fn rewrites_by_kind() {
        assert_eq!(body_rewrite("commands"), Some(BodyRewrite::CommandBodies));
        assert_eq!(body_rewrite("kimi-agents"), Some(BodyRewrite::SkillBodies));
        assert_eq!(body_rewrite("agents"), None);
    }

    /// A misspelt member of the request or of a kind is an error naming it.
    #[test]
    fn requests_refuse_unknown_members() {
        let request = |kind: &str, extra: &str| {
            format!(
                r#"{{"runtime":"codex","configDir":"/h/.codex","scope":"global","home":"/h","cwd":"/w","kinds":[{kind}]{extra}}}"#
            )
        };
        let good = request(
            r#"{"kind":"skills","destSubpath":"skills","home":"/h/.agents"}"#,
            "",
        );
        let plan = staging_plan(&serde_json::from_str(&good).expect("a well-formed request"));
        assert_eq!(plan.steps[0].dest_dir.as_deref(), Some("/h/.agents/skills"));
        for (text, member) in [
            (
                request(
                    r#"{"kind":"skills","destSubpath":"skills","Home":"/h/.agents"}"#,
                    "",
                ),
                "Home",
            ),
            (
                request(
                    r#"{"kind":"skills","destSubpath":"skills"}"#,
                    r#","explicitDir":"/x""#,
                ),
                "explicitDir",
            ),
        ] {
            let err = serde_json::from_str::<StagingRequest>(&text).expect_err(member);
            assert!(
                err.to_string()
                    .starts_with(&format!("unknown field `{member}`")),
                "{err}"
            );
        }
    }
}
