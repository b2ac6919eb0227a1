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
use std::convert::Infallible;

use serde::Serialize;

use crate::error::{Error, ErrorCode};
use crate::layout::{ArtifactKind, ConfinedRoot, is_namespaced_by_dir};
use crate::manifest::RuntimeDescriptor;
use crate::profile::{CommandSource, parse_requires};
use crate::trigger::Stems;
use crate::vocab::{ArtifactKindName, Nesting};
use crate::words;

use super::{MAX_STEM_BYTES, MAX_SUFFIX_BYTES};

use super::{Inputs, Placements};

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

/// Whether `stem` can name a file safely: at most [`MAX_STEM_BYTES`] bytes, non-empty, not
/// `.`/`..`, no `/` or `\`, and no control, bidi or invisible character (a stem becomes a
/// file name and a trigger).
///
/// Every plan checks every stem of its inventory, so the bytes are read eight at a time:
/// the only unsafe ASCII bytes are `/`, `\`, the C0 controls and DEL; a stem with a
/// non-ASCII byte (rare) also takes the character check.
pub(crate) fn is_plain_stem(stem: &str) -> bool {
    /// Flags the unsafe ASCII bytes of a word.
    fn unsafe_ascii(word: u64) -> u64 {
        words::equal(word, b'/')
            | words::equal(word, b'\\')
            | words::equal(word, 0x7f)
            | words::below(word, 0x20)
    }
    if stem.is_empty() || stem == "." || stem == ".." || stem.len() > MAX_STEM_BYTES {
        return false;
    }
    let bytes = stem.as_bytes();
    let mut flagged = 0;
    let mut high = 0;
    let mut test = |word: u64| {
        flagged |= unsafe_ascii(word);
        high |= word;
    };
    match bytes.len().checked_sub(8) {
        Some(tail) => {
            for chunk in bytes.chunks_exact(8) {
                test(words::load(chunk));
            }
            // The last eight bytes, in place: they overlap the words before, and a byte
            // tested twice gives the same answer.
            test(words::load(&bytes[tail..]));
        }
        // Fewer than eight bytes, gathered into one word without a copy.
        None => test(words::gather(bytes, b'a')),
    }
    flagged == 0 && (high & words::HIGH == 0 || !stem.chars().any(crate::sanitize::is_unsafe_char))
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

/// Why a declared agent file suffix (`hostBehaviors.agentFileExtension`) cannot rename an
/// agent file, as the tail of a message: it must start with `.`, hold more than the dot,
/// fit in [`MAX_SUFFIX_BYTES`] bytes, stay within one file name (no `/` or `\`), print as
/// what it is (no control, bidi or invisible character) and not end with `.` (Windows
/// drops trailing dots, so `gsd-x..` would land as `gsd-x`). Validation (code
/// `unsafe_agent_file_extension`) and every plan ask this one question.
pub(crate) fn agent_suffix_problem(ext: &str) -> Option<&'static str> {
    // The message below spells the bound.
    const _: () = assert!(MAX_SUFFIX_BYTES == 16);
    if !ext.starts_with('.') {
        return Some("does not start with \".\"");
    }
    if ext.len() > MAX_SUFFIX_BYTES {
        return Some("is longer than 16 bytes");
    }
    if ext.contains(['/', '\\']) {
        return Some("contains a path separator");
    }
    if ext.chars().any(crate::sanitize::is_unsafe_char) {
        return Some("contains a control, bidi or invisible character");
    }
    if ext.ends_with('.') {
        return Some("ends with \".\" (nothing after the dot, or a name Windows would cut short)");
    }
    None
}

/// The refusal of a declared agent file suffix, `shown` as the caller renders the value and
/// `problem` from [`agent_suffix_problem`] (or "is not a string"): one wording for
/// validation and for a plan.
pub(crate) fn agent_suffix_refusal(shown: &str, problem: &str) -> String {
    format!(
        "runtime.hostBehaviors.agentFileExtension {shown} must be a file suffix starting with \".\": it {problem}"
    )
}

/// The agent file suffix: `hostBehaviors.agentFileExtension` when declared as a string
/// ([`agent_suffix_problem`] must find nothing), else `.md`. `null` is read as not
/// declared, as the peer reads it.
pub(crate) fn agent_file_extension(descriptor: &RuntimeDescriptor) -> Result<&str, Error> {
    let value = match crate::scope::host_behavior(descriptor, "agentFileExtension") {
        None | Some(serde_json::Value::Null) => return Ok(".md"),
        Some(value) => value,
    };
    let problem = match value.as_str() {
        Some(ext) => match agent_suffix_problem(ext) {
            None => return Ok(ext),
            Some(problem) => problem,
        },
        None => "is not a string",
    };
    Err(Error::new(
        ErrorCode::InvalidDescriptor,
        agent_suffix_refusal(
            &crate::sanitize::sanitize_value(&value.to_string()),
            problem,
        ),
    )
    .with_field("runtime.hostBehaviors.agentFileExtension"))
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
pub(crate) fn routing_applies(inputs: &Inputs<'_>) -> bool {
    let allow = inputs.profile.and_then(|p| p.skills.as_ref());
    !inputs.router_stems.is_empty()
        && allow.is_none_or(|allow| inputs.router_stems.iter().all(|r| allow.contains(r)))
}

/// Where a placement's body comes from.
#[derive(Clone, Copy)]
enum Source<'s> {
    /// `commands/gsd/<stem>.md`.
    Command(&'s str),
    /// `agents/<stem>.md`.
    Agent(&'s str),
    /// The Kimi root agent, generated from the whole agent set.
    KimiRoot,
}

impl Source<'_> {
    /// Appends the source path to `out`.
    fn write(self, out: &mut String) {
        let parts: &[&str] = match self {
            Source::Command(stem) => &["commands/gsd/", stem, ".md"],
            Source::Agent(stem) => &["agents/", stem, ".md"],
            Source::KimiRoot => &[KIMI_ROOT_SOURCE],
        };
        for part in parts {
            out.push_str(part);
        }
    }
}

/// Appends every placement of one kind, for the selected `commands` and `agents`, to `out`,
/// each destination resolved and confined under the kind's root ([`ConfinedRoot::dest_of`];
/// `root` is `kind.dest_dir` resolved against `inputs.cwd`).
pub(crate) fn placements_checked(
    out: &mut Placements,
    root: &ConfinedRoot<'_>,
    kind: &ArtifactKind,
    agent_ext: &str,
    inputs: &Inputs<'_>,
    commands: &Stems<'_>,
    agents: &Stems<'_>,
) -> Result<(), Error> {
    walk(
        kind,
        agent_ext,
        inputs,
        commands,
        agents,
        &mut |stem, source, relative| {
            let destination = root.dest_of(relative)?;
            out.push_with(
                kind.kind,
                kind.converter,
                stem,
                |text| source.write(text),
                |text| text.push_str(&destination),
            );
            Ok(())
        },
    )
}

/// [`placements_checked`] for a kind whose destinations [`plain_count`] admitted: each is
/// the root plus its relative parts, so nothing can fail.
pub(crate) fn placements_plain(
    out: &mut Placements,
    root: &ConfinedRoot<'_>,
    kind: &ArtifactKind,
    agent_ext: &str,
    inputs: &Inputs<'_>,
    commands: &Stems<'_>,
    agents: &Stems<'_>,
) {
    let walked = walk::<Infallible>(
        kind,
        agent_ext,
        inputs,
        commands,
        agents,
        &mut |stem, source, relative| {
            out.push_with(
                kind.kind,
                kind.converter,
                stem,
                |text| source.write(text),
                |text| root.append_to(text, relative),
            );
            Ok(())
        },
    );
    match walked {
        Ok(()) => {}
        Err(never) => match never {},
    }
}

/// How many placements one kind has when every destination is provably plain (the root
/// plus its relative parts, strictly inside the root); `None` when one is not, and the
/// kind must be planned with [`placements_checked`].
///
/// A stem is plain (non-empty, not `.`/`..`, no `/`, no control character), so a path
/// segment that contains a stem is never empty, `.` or `..`; whether the concatenated
/// relative path is plain therefore depends only on the fixed parts around the stems, and
/// is decided once per shape of parts ([`ConfinedRoot::admits_plain`]) without building
/// any destination.
pub(crate) fn plain_count(
    root: &ConfinedRoot<'_>,
    kind: &ArtifactKind,
    agent_ext: &str,
    inputs: &Inputs<'_>,
    commands: &Stems<'_>,
    agents: &Stems<'_>,
) -> Option<usize> {
    // Commands, agents and flat skills have one placement per stem, all of one shape,
    // decided with a stand-in stem (see above). Otherwise a kind has at most two shapes
    // (nested skills, the Kimi root and its subagents), told apart by their number of parts.
    let uniform = |stems: &Stems<'_>| {
        let (before, after) = flat_shape(kind, agent_ext);
        (stems.len() == 0 || root.admits_plain(&[before, STAND_IN, after])).then_some(stems.len())
    };
    match kind.kind {
        ArtifactKindName::Commands => return uniform(commands),
        ArtifactKindName::Agents => return uniform(agents),
        ArtifactKindName::Skills if !nests(kind, inputs) => return uniform(commands),
        ArtifactKindName::Skills => {
            // Every command is selected (the selection only filters, in order): the
            // inventory counted the nested placements once. Both shapes are checked with a
            // stand-in stem, which decides for every plain stem (see above).
            if let Some(total) = inputs.nested_skills
                && commands.len() == inputs.commands.len()
            {
                let prefix = kind.prefix.as_str();
                let flat = root.admits_plain(&[prefix, STAND_IN, "/SKILL.md"]);
                let nested =
                    root.admits_plain(&[prefix, STAND_IN, "/skills/", STAND_IN, "/SKILL.md"]);
                return (flat && nested).then_some(total);
            }
        }
        ArtifactKindName::KimiAgents => {}
    }
    let mut plain: [Option<bool>; 6] = [None; 6];
    let mut count = 0;
    let walked = walk(
        kind,
        agent_ext,
        inputs,
        commands,
        agents,
        &mut |_, _, relative| {
            let admitted = match plain.get_mut(relative.len()) {
                Some(known) => *known.get_or_insert_with(|| root.admits_plain(relative)),
                None => false,
            };
            count += 1;
            if admitted { Ok(()) } else { Err(()) }
        },
    );
    walked.ok().map(|()| count)
}

/// A plain stem standing in for every plain stem when a shape of parts is checked.
const STAND_IN: &str = "x";

/// The parts around the stem of a placement in a kind with one shape per stem: a command
/// (`<prefix><stem>.md`, `<stem>.md` when namespaced by its directory), an agent
/// (`<stem><ext>`), a flat skill (`<prefix><stem>/SKILL.md`). Other kinds: the flat skill.
fn flat_shape<'p>(kind: &'p ArtifactKind, agent_ext: &'p str) -> (&'p str, &'p str) {
    let prefix = kind.prefix.as_str();
    match kind.kind {
        ArtifactKindName::Commands => {
            // `compose_command_filename`, as parts.
            let namespaced = is_namespaced_by_dir(kind.kind, &kind.dest_subpath, prefix);
            (if namespaced { "" } else { prefix }, ".md")
        }
        ArtifactKindName::Agents => ("", agent_ext),
        ArtifactKindName::Skills | ArtifactKindName::KimiAgents => (prefix, "/SKILL.md"),
    }
}

/// The routers a nested skill is placed under: none for a router itself, else the distinct
/// owners of `stem` that are routers, first owner first.
fn owners_of<'a>(
    stem: &str,
    routers: &BTreeSet<&str>,
    child_to_routers: &'a BTreeMap<String, Vec<String>>,
    owners: &mut Vec<&'a str>,
) {
    if routers.contains(stem) {
        return;
    }
    for owner in child_to_routers.get(stem).into_iter().flatten() {
        if routers.contains(owner.as_str()) && !owners.contains(&owner.as_str()) {
            owners.push(owner);
        }
    }
}

/// Whether a skills kind nests routed children under their routers.
fn nests(kind: &ArtifactKind, inputs: &Inputs<'_>) -> bool {
    kind.nesting == Nesting::Nested && routing_applies(inputs)
}

/// Receives `(stem, source, relative destination parts)` for each placement.
type Emit<'e, E> = dyn FnMut(&str, Source<'_>, &[&str]) -> Result<(), E> + 'e;

/// Calls `emit(stem, source, relative destination parts)` for every placement of one kind,
/// in plan order. The relative parts of one kind differ only in their stems (see
/// [`plain_count`]).
fn walk<E>(
    kind: &ArtifactKind,
    agent_ext: &str,
    inputs: &Inputs<'_>,
    commands: &Stems<'_>,
    agents: &Stems<'_>,
    emit: &mut Emit<'_, E>,
) -> Result<(), E> {
    match kind.kind {
        ArtifactKindName::Skills if nests(kind, inputs) => {
            walk_nested(kind, agent_ext, inputs, commands, emit)?;
        }
        ArtifactKindName::Commands | ArtifactKindName::Skills => {
            let (before, after) = flat_shape(kind, agent_ext);
            for stem in commands {
                emit(stem, Source::Command(stem), &[before, stem, after])?;
            }
        }
        ArtifactKindName::Agents => {
            let (before, after) = flat_shape(kind, agent_ext);
            for stem in agents {
                emit(stem, Source::Agent(stem), &[before, stem, after])?;
            }
        }
        ArtifactKindName::KimiAgents => {
            for ext in [".yaml", ".md"] {
                emit(KIMI_ROOT, Source::KimiRoot, &[KIMI_ROOT, ext])?;
            }
            // One subagent per distinct name; its body comes from the full agent when both
            // it and its compact variant are selected (the full file is read last).
            let mut names: Vec<(&str, &str)> = Vec::new();
            for stem in agents {
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
                    emit(name, Source::Agent(stem), &["subagents/", name, ext])?;
                }
            }
        }
    }
    Ok(())
}

/// The skills of a nested kind whose routing applies, for [`walk`]: each router and each
/// stem no router owns flat, each routed child under every owning router. The routers
/// come from the inputs' [`crate::trigger::Routes`] when they were found for this very
/// list, else are looked up stem by stem. Kept out of [`walk`], which stays small enough
/// to be inlined with its `emit`.
#[inline(never)]
fn walk_nested<E>(
    kind: &ArtifactKind,
    agent_ext: &str,
    inputs: &Inputs<'_>,
    commands: &Stems<'_>,
    emit: &mut Emit<'_, E>,
) -> Result<(), E> {
    let prefix = kind.prefix.as_str();
    let (before, after) = flat_shape(kind, agent_ext);
    let mut nested = |stem: &str, owners: &mut dyn Iterator<Item = &str>| {
        let mut owners = owners.peekable();
        if owners.peek().is_none() {
            emit(stem, Source::Command(stem), &[before, stem, after])?;
        }
        for owner in owners {
            let relative = [prefix, owner, "/skills/", stem, "/SKILL.md"];
            emit(stem, Source::Command(stem), &relative)?;
        }
        Ok(())
    };
    if let Some(table) = inputs
        .routes
        .filter(|_| commands.is_all_of(inputs.commands))
    {
        let routers = inputs.router_stems;
        for (i, stem) in commands.iter().enumerate() {
            let mut owners = table
                .owners(i)
                .iter()
                .filter_map(|r| routers.get(*r).map(String::as_str));
            nested(stem, &mut owners)?;
        }
    } else {
        let routers: BTreeSet<&str> = inputs.router_stems.iter().map(String::as_str).collect();
        let mut owners: Vec<&str> = Vec::new();
        for stem in commands {
            owners.clear();
            owners_of(stem, &routers, inputs.child_to_routers, &mut owners);
            nested(stem, &mut owners.iter().copied())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trigger::{Routes, routing_case};

    fn cmd(stem: &str, body: &str) -> CommandSource {
        CommandSource {
            stem: stem.into(),
            body: body.into(),
        }
    }

    /// A descriptor that never went through validation (built in code) still cannot rename
    /// agents out of their directory: `null` is read as not declared (as the peer reads
    /// it), anything else a plan cannot take is an `InvalidDescriptor` naming the field.
    #[test]
    fn the_agent_suffix_is_checked_by_every_plan() {
        let copilot = crate::registry::Registry::first_party()
            .runtime("copilot")
            .expect("copilot is first party");
        assert_eq!(agent_file_extension(copilot), Ok(".agent.md"));
        let with = |value: serde_json::Value| {
            let mut descriptor = copilot.clone();
            descriptor
                .host_behaviors
                .get_or_insert_with(serde_json::Map::new)
                .insert("agentFileExtension".to_owned(), value);
            descriptor
        };
        assert_eq!(
            agent_file_extension(&with(serde_json::Value::Null)),
            Ok(".md")
        );
        for (value, why) in [
            (serde_json::json!("agent.md"), "does not start with \".\""),
            (serde_json::json!(".x/../../y"), "contains a path separator"),
            (serde_json::json!(".."), "ends with \".\""),
            (serde_json::json!(1), "is not a string"),
        ] {
            let error = agent_file_extension(&with(value.clone())).expect_err("refused");
            assert_eq!(error.code(), ErrorCode::InvalidDescriptor, "{value}");
            assert_eq!(
                error.field(),
                Some("runtime.hostBehaviors.agentFileExtension"),
                "{value}"
            );
            assert!(
                error.message().starts_with(&format!(
                    "runtime.hostBehaviors.agentFileExtension {value} must be a file suffix starting with \".\": it {why}"
                )),
                "{}",
                error.message()
            );
        }
    }

    /// A child that cannot name a file is dropped, as a non-plain one is: a stem one byte
    /// past the bound too.
    #[test]
    fn a_child_too_long_for_a_file_name_is_dropped() {
        let longest = "c".repeat(MAX_STEM_BYTES);
        let body = format!("---\nrequires: [help, {longest}c, {longest}]\n---\n");
        let routers = derive_routers(&[cmd("ns-a", &body)]);
        assert_eq!(
            routers.child_to_routers.keys().collect::<Vec<_>>(),
            ["c".repeat(MAX_STEM_BYTES).as_str(), "help"]
        );
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

    /// Every kind, shape and root: where [`plain_count`] admits a kind, the placements built
    /// without resolving equal the resolved ones and their number is the count; where it
    /// does not, the kind is left to the resolving path. Both outcomes must occur.
    #[test]
    #[allow(clippy::too_many_lines)] // Reason: one table of cases, each checked three ways.
    fn plain_placements_equal_resolved_ones() {
        let roots = ["/c/skills", "/", "", "rel/x", "/c/../d", "/c/./e/", "//c"];
        let prefixes = [
            "gsd-", "", "gsd/", "a//", "./", "../", "x/.", "/abs", "a/..", ".", "..", "a\0b", "-/",
            "a/./",
        ];
        let routers = vec!["ns-a".to_owned(), "ns-b".to_owned()];
        let child_to_routers = BTreeMap::from([
            (
                "plan".to_owned(),
                vec!["ns-a".to_owned(), "ns-b".to_owned()],
            ),
            ("x".to_owned(), vec!["ns-b".to_owned()]),
        ]);
        let commands = ["help", "ns-a", "plan", "x", "..x", ".hidden", "ns-b"].map(String::from);
        let agents =
            ["gsd-a", "gsd-a.compact", "gsd-B", "other", "gsd-c.compact"].map(String::from);
        let walked = Inputs {
            cwd: "/w",
            commands: &commands,
            agents: &agents,
            router_stems: &routers,
            child_to_routers: &child_to_routers,
            profile: None,
            distinct: (true, true),
            nested_skills: None,
            routes: None,
        };
        // As an inventory gives them: the nested skills counted and the routers found once.
        let table = Routes::new(&commands, &routers, &child_to_routers);
        let counted = Inputs {
            nested_skills: Some(table.nested_count()),
            routes: Some(&table),
            ..walked
        };
        let (mut admitted, mut refused) = (0, 0);
        let (command_stems, agent_stems) = (Stems::All(&commands), Stems::All(&agents));
        for inputs in [walked, counted] {
            for root in roots {
                for prefix in prefixes {
                    for (name, nesting) in [
                        (ArtifactKindName::Commands, Nesting::Flat),
                        (ArtifactKindName::Skills, Nesting::Flat),
                        (ArtifactKindName::Skills, Nesting::Nested),
                        (ArtifactKindName::Agents, Nesting::Flat),
                        (ArtifactKindName::KimiAgents, Nesting::Flat),
                    ] {
                        for ext in [".md", ".agent.md"] {
                            let kind = ArtifactKind {
                                kind: name,
                                dest_subpath: "sub".into(),
                                prefix: prefix.into(),
                                nesting,
                                recursive: false,
                                converter: None,
                                home: None,
                                dest_dir: root.into(),
                            };
                            let confined = ConfinedRoot::new(inputs.cwd, &kind.dest_dir);
                            let place = |inputs: &Inputs<'_>| {
                                let mut out = Placements::default();
                                let result = placements_checked(
                                    &mut out,
                                    &confined,
                                    &kind,
                                    ext,
                                    inputs,
                                    &command_stems,
                                    &agent_stems,
                                );
                                (result, out)
                            };
                            let placed = place(&inputs);
                            // The routes found once place what looking them up places.
                            assert_eq!(placed, place(&walked));
                            let (resolved, checked) = placed;
                            let Some(count) = plain_count(
                                &confined,
                                &kind,
                                ext,
                                &inputs,
                                &command_stems,
                                &agent_stems,
                            ) else {
                                refused += 1;
                                continue;
                            };
                            admitted += 1;
                            let mut plain = Placements::default();
                            placements_plain(
                                &mut plain,
                                &confined,
                                &kind,
                                ext,
                                &inputs,
                                &command_stems,
                                &agent_stems,
                            );
                            let case = format!("{root:?} {prefix:?} {name:?} {nesting:?} {ext}");
                            assert_eq!(resolved, Ok(()), "{case}");
                            assert_eq!(plain, checked, "{case}");
                            assert_eq!(count, plain.len(), "{case}");
                        }
                    }
                }
            }
        }
        assert!(admitted > 100 && refused > 100, "{admitted} {refused}");
    }

    /// The owners found once are the owners looked up one stem at a time, and their count
    /// is the number of nested skills placements, for any commands, routers and owner lists
    /// over a few names: stems that are routers, owners that are not, repeated owners and
    /// routers, and children of nobody all occur.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn owners_found_once_are_the_owners_looked_up(
        commands: Vec<u8>,
        routers: Vec<u8>,
        owned: Vec<(u8, Vec<u8>)>,
    ) -> bool {
        let (commands, routers, child_to_routers) = routing_case(&commands, &routers, &owned);
        let table = Routes::new(&commands, &routers, &child_to_routers);
        let set: BTreeSet<&str> = routers.iter().map(String::as_str).collect();
        let mut count = 0;
        let same = commands.iter().enumerate().all(|(i, stem)| {
            let mut looked_up = Vec::new();
            owners_of(stem, &set, &child_to_routers, &mut looked_up);
            count += looked_up.len().max(1);
            let found: Vec<&str> = table
                .owners(i)
                .iter()
                .map(|r| routers[*r].as_str())
                .collect();
            found == looked_up
        });
        same && table.nested_count() == count && table.owners(commands.len()).is_empty()
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

    /// The stem check by its definition: one byte or character at a time.
    fn plain_by_definition(stem: &str) -> bool {
        !(stem.is_empty()
            || stem == "."
            || stem == ".."
            || stem.len() > MAX_STEM_BYTES
            || stem
                .bytes()
                .any(|b| b == b'/' || b == b'\\' || b < 0x20 || b == 0x7f)
            || stem.chars().any(crate::sanitize::is_unsafe_char))
    }

    #[test]
    fn stems_are_plain_by_their_definition() {
        let cases = [
            ("", false),
            (".", false),
            ("..", false),
            ("...", true),
            ("gsd-help", true),
            ("a/b", false),
            ("a\\b", false),
            ("tab\there", false),
            ("del\u{7f}", false),
            ("nul\0", false),
            // The unsafe byte in the first word only, in the last word only (which overlaps
            // the first), and in a short stem of each way of gathering it (four to seven bytes,
            // fewer than four).
            ("/abcdefgh", false),
            ("abcdefgh/", false),
            ("abcdefghij\u{1f}", false),
            ("abc\u{1f}", false),
            ("a\u{1f}b", false),
            ("/", false),
            ("abcdefgh", true),
            ("caf\u{e9}", true),
            ("right\u{202e}to-left", false),
            ("zero\u{200b}width", false),
        ];
        for (stem, plain) in cases {
            assert_eq!(is_plain_stem(stem), plain, "{stem:?}");
            assert_eq!(plain_by_definition(stem), plain, "{stem:?}");
        }
    }

    /// Stems of safe pieces with one more piece, of any kind, at any place: so the one
    /// byte that decides falls at every position of a word, the overlapping last word and
    /// the short stems gathered into one word included.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck hands its inputs by value.
    fn the_word_check_is_the_definition(picks: Vec<u8>, odd: u8, at: u8) -> bool {
        const SAFE: [&str; 6] = ["a", "gsd-", ".", " ", "\u{e9}", "abcdefg"];
        const ANY: [&str; 9] = [
            "/", "\\", "\u{7f}", "\u{1f}", "\0", "\u{202e}", "\u{200b}", "\u{80}", "b",
        ];
        let mut pieces: Vec<&str> = picks
            .iter()
            .map(|p| SAFE[usize::from(*p) % SAFE.len()])
            .collect();
        let at = usize::from(at) % (pieces.len() + 1);
        pieces.insert(at, ANY[usize::from(odd) % ANY.len()]);
        let stem = pieces.concat();
        is_plain_stem(&stem) == plain_by_definition(&stem)
    }
}
