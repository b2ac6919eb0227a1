//! Placements: every file one artifact kind writes, named the way the installer names it.
//!
//! The rules, per kind (spec §5.1 stagers, §12 copy step):
//! * `commands`: one `<prefix><stem>.md` per command (`<stem>.md` when the directory
//!   already carries the namespace), with or without a body converter;
//! * `skills`: one `<prefix><stem>/SKILL.md` per command; a `nested` kind whose profile
//!   selects every `ns-*` router writes each router flat and each routed child as
//!   `<prefix><router>/skills/<child>/SKILL.md` under *every* owning router;
//! * `agents`: one `<stem>.md` per agent, renamed to `<stem><ext>` when the runtime
//!   declares `hostBehaviors.agentFileExtension` (copilot: `.agent.md`);
//! * `kimi-agents`: the root agent `gsd.yaml` + `gsd.md`, then `subagents/<name>.yaml` +
//!   `subagents/<name>.md` per distinct canonical agent name.
//!
//! [`derive_routers`] derives the router structure from the router command bodies, so
//! callers need not know the `requires:` rule.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::error::{Error, ErrorCode};
use crate::layout::{ArtifactKind, ConfinedRoot, is_namespaced_by_dir};
use crate::manifest::RuntimeDescriptor;
use crate::path;
use crate::profile::{CommandSource, parse_requires};
use crate::vocab::{ArtifactKindName, Nesting};

use super::{Placement, PlanRequest};

/// The file stem of the Kimi root agent (`gsd.yaml`, `gsd.md`).
const KIMI_ROOT: &str = "gsd";
/// The source recorded for the Kimi root agent, which is generated from the whole agent set.
const KIMI_ROOT_SOURCE: &str = "agents/";
/// The suffix of an agent's compact variant (`gsd-planner.compact.md`); the variant declares
/// the same `name:` as its full agent.
const COMPACT_SUFFIX: &str = ".compact";

/// The namespace-router structure of a command set.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Routers {
    /// Router command stems (`ns-*`), in the given order.
    pub router_stems: Vec<String>,
    /// Routed child stem → owning routers, in router order.
    pub child_to_routers: BTreeMap<String, Vec<String>>,
}

/// Whether `stem` can name a file safely: non-empty, not `.`/`..`, no `/` or `\`, and no
/// control, bidi or invisible character (a stem becomes a file name and a trigger).
#[allow(clippy::needless_bitwise_bool)] // Reason: eager `|` keeps the byte loop branch-free.
pub(crate) fn is_plain_stem(stem: &str) -> bool {
    if stem.is_empty() || stem == "." || stem == ".." {
        return false;
    }
    // One pass over the bytes without early exit (so it runs on whole words): the only
    // unsafe ASCII characters are the C0 controls and DEL; a stem with any non-ASCII byte
    // (rare) also takes the character check.
    let mut unsafe_ascii = false;
    let mut non_ascii = false;
    for &b in stem.as_bytes() {
        unsafe_ascii |= (b == b'/') | (b == b'\\') | (b < 0x20) | (b == 0x7f);
        non_ascii |= b >= 0x80;
    }
    !(unsafe_ascii || (non_ascii && stem.chars().any(crate::sanitize::is_unsafe_char)))
}

/// Derives the routers from command sources: every command whose stem starts with `ns-` is
/// a router, and each entry of its front-matter `requires:` list is a child it owns (the
/// peer's namespace bundle map). Pass the commands in the order the installer reads them.
/// Children that cannot name a file (empty, `..`, a separator) are dropped: no command
/// file can match them.
#[must_use]
pub fn derive_routers(commands: &[CommandSource]) -> Routers {
    let mut routers = Routers::default();
    for command in commands.iter().filter(|c| c.stem.starts_with("ns-")) {
        routers.router_stems.push(command.stem.clone());
        for child in parse_requires(&command.body) {
            if is_plain_stem(&child) {
                routers
                    .child_to_routers
                    .entry(child)
                    .or_default()
                    .push(command.stem.clone());
            }
        }
    }
    routers
}

/// `hostBehaviors.agentFileExtension` when declared: a suffix starting with `.` that names a
/// file (no separator, no NUL).
fn agent_file_extension(descriptor: &RuntimeDescriptor) -> Result<Option<&str>, Error> {
    let Some(value) = descriptor
        .host_behaviors
        .as_ref()
        .and_then(|b| b.get("agentFileExtension"))
    else {
        return Ok(None);
    };
    match value.as_str() {
        Some(ext) if ext.len() > 1 && ext.starts_with('.') && is_plain_stem(ext) => Ok(Some(ext)),
        _ => Err(Error::new(
            ErrorCode::InvalidDescriptor,
            format!(
                "runtime.hostBehaviors.agentFileExtension must be a file suffix starting with '.', got {value}"
            ),
        )
        .with_field("runtime.hostBehaviors.agentFileExtension")),
    }
}

/// The Kimi subagent name of an agent stem: the stem without a `.compact` suffix, kept only
/// when canonical (`^gsd-[a-z0-9-]+$`, the peer drops the others with a diagnostic).
fn kimi_subagent_name(stem: &str) -> Option<&str> {
    let name = stem.strip_suffix(COMPACT_SUFFIX).unwrap_or(stem);
    let rest = name.strip_prefix("gsd-")?;
    let canonical = !rest.is_empty()
        && rest
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    canonical.then_some(name)
}

/// Whether router nesting applies: routers are known and the profile selects every one of
/// them (an absent skills allow-list selects everything, as the peer's `full` sentinel).
pub(crate) fn routing_applies(request: &PlanRequest) -> bool {
    let allow = request.profile.as_ref().and_then(|p| p.skills.as_ref());
    !request.router_stems.is_empty()
        && allow.is_none_or(|allow| request.router_stems.iter().all(|r| allow.contains(r)))
}

/// Appends every placement of one kind, for the selected `commands` and `agents`, to `out`.
pub(crate) fn placements_for(
    out: &mut Vec<Placement>,
    kind: &ArtifactKind,
    descriptor: &RuntimeDescriptor,
    request: &PlanRequest,
    commands: &[&str],
    agents: &[&str],
) -> Result<(), Error> {
    // The root is resolved once for all of the kind's destinations; each destination is the
    // root plus its relative parts ([`ConfinedRoot::dest_of`]).
    let root = ConfinedRoot::new(&request.host.cwd, &kind.dest_dir);
    let place = |stem: &str, source: String, relative: &[&str]| -> Result<Placement, Error> {
        Ok(Placement {
            kind: kind.kind,
            stem: stem.to_owned(),
            source,
            destination: root.dest_of(relative)?,
            converter: kind.converter,
        })
    };
    let command_source = |stem: &str| path::concat(&["commands/gsd/", stem, ".md"]);
    let agent_source = |stem: &str| path::concat(&["agents/", stem, ".md"]);
    let prefix = kind.prefix.as_str();
    match kind.kind {
        ArtifactKindName::Commands => {
            let namespaced = is_namespaced_by_dir(kind.kind, &kind.dest_subpath, prefix);
            // `compose_command_filename`, as parts.
            let prefix = if namespaced { "" } else { prefix };
            out.reserve(commands.len());
            for &stem in commands {
                out.push(place(stem, command_source(stem), &[prefix, stem, ".md"])?);
            }
        }
        ArtifactKindName::Skills => {
            let nest = kind.nesting == Nesting::Nested && routing_applies(request);
            let routers: BTreeSet<&str> = if nest {
                request.router_stems.iter().map(String::as_str).collect()
            } else {
                BTreeSet::new()
            };
            out.reserve(commands.len());
            let mut owners: Vec<&str> = Vec::new();
            for &stem in commands {
                owners.clear();
                if nest && !routers.contains(stem) {
                    for owner in request.child_to_routers.get(stem).into_iter().flatten() {
                        if routers.contains(owner.as_str()) && !owners.contains(&owner.as_str()) {
                            owners.push(owner);
                        }
                    }
                }
                if owners.is_empty() {
                    out.push(place(
                        stem,
                        command_source(stem),
                        &[prefix, stem, "/SKILL.md"],
                    )?);
                }
                for owner in &owners {
                    let relative = [prefix, owner, "/skills/", stem, "/SKILL.md"];
                    out.push(place(stem, command_source(stem), &relative)?);
                }
            }
        }
        ArtifactKindName::Agents => {
            let ext = agent_file_extension(descriptor)?.unwrap_or(".md");
            out.reserve(agents.len());
            for &stem in agents {
                out.push(place(stem, agent_source(stem), &[stem, ext])?);
            }
        }
        ArtifactKindName::KimiAgents => {
            for ext in [".yaml", ".md"] {
                out.push(place(
                    KIMI_ROOT,
                    KIMI_ROOT_SOURCE.to_owned(),
                    &[KIMI_ROOT, ext],
                )?);
            }
            // One subagent per distinct name; its body comes from the full agent when both
            // it and its compact variant are selected (the full file is read last).
            let mut names: Vec<(&str, &str)> = Vec::new();
            for &stem in agents {
                let Some(name) = kimi_subagent_name(stem) else {
                    continue;
                };
                match names.iter_mut().find(|(n, _)| *n == name) {
                    Some(entry) if stem == name => entry.1 = stem,
                    Some(_) => {}
                    None => names.push((name, stem)),
                }
            }
            for (name, stem) in names {
                for ext in [".yaml", ".md"] {
                    let relative = ["subagents/", name, ext];
                    out.push(place(name, agent_source(stem), &relative)?);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(stem: &str, body: &str) -> CommandSource {
        CommandSource {
            stem: stem.into(),
            body: body.into(),
        }
    }

    #[test]
    fn routers_come_from_ns_requires_lists_in_order() {
        let routers = derive_routers(&[
            cmd("help", "---\nrequires: [x]\n---\n"),
            cmd(
                "ns-a",
                "---\nname: a\nrequires: [plan, spec, ../up]\n---\nbody",
            ),
            cmd("ns-b", "---\nrequires: [spec]\n---\n"),
            cmd("ns-c", "no front matter"),
        ]);
        assert_eq!(routers.router_stems, ["ns-a", "ns-b", "ns-c"]);
        assert_eq!(
            routers.child_to_routers,
            BTreeMap::from([
                ("plan".to_owned(), vec!["ns-a".to_owned()]),
                (
                    "spec".to_owned(),
                    vec!["ns-a".to_owned(), "ns-b".to_owned()]
                ),
            ])
        );
    }

    #[test]
    fn kimi_names_fold_compact_variants_and_drop_non_canonical_stems() {
        assert_eq!(kimi_subagent_name("gsd-planner"), Some("gsd-planner"));
        assert_eq!(
            kimi_subagent_name("gsd-planner.compact"),
            Some("gsd-planner")
        );
        assert_eq!(kimi_subagent_name("gsd-"), None);
        assert_eq!(kimi_subagent_name("gsd-Planner"), None);
        assert_eq!(kimi_subagent_name("planner"), None);
    }
}
