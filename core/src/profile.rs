//! Install profiles: which skills and agents a `core`, `standard` or `full` install
//! stages (the peer's `install-profiles.cjs`, over data).
//!
//! The caller reads the command files (`commands/gsd/*.md`) and the workflow files
//! (`workflows/**`) and passes them as [`ProfileSources`]; [`SkillsManifest::build`]
//! derives each command's `requires:` list and the `gsd-*` agent tokens of its body and
//! of the workflows it references. [`resolve_profile`] then expands the profile.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::Registry;
use crate::js::is_js_space;
use crate::vocab::PROFILE_RANK;

/// The base skill lists of the bounded profiles (`full` is every skill).
pub const PROFILES: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "new-project",
            "discuss-phase",
            "plan-phase",
            "execute-phase",
            "phase",
            "help",
            "update",
            "surface",
        ],
    ),
    (
        "standard",
        &[
            "new-project",
            "onboard",
            "discuss-phase",
            "plan-phase",
            "execute-phase",
            "help",
            "update",
            "surface",
            "phase",
            "review",
            "config",
            "progress",
            "resume-work",
            "pause-work",
            "workspace",
        ],
    ),
];

/// One command file: its stem (file name without `.md`) and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandSource {
    /// File name without `.md`, e.g. `plan-phase`.
    pub stem: String,
    /// Full file text (front matter and body).
    pub body: String,
}

/// One workflow file: its path relative to the workflows folder (`/`-separated, e.g.
/// `execute-phase.md` or `execute-phase/steps/verify.md`) and its text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowSource {
    /// Path relative to the workflows folder.
    pub path: String,
    /// File text.
    pub body: String,
}

/// The files a profile is resolved from. As data, `{ commands?: [{ stem, body }],
/// workflows?: [{ path, body }] }` (a missing list is empty, an unknown member refused).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileSources {
    /// Every command file (only `*.md` files of the commands folder).
    #[serde(default)]
    pub commands: Vec<CommandSource>,
    /// Every workflow file (regular files, any depth).
    #[serde(default)]
    pub workflows: Vec<WorkflowSource>,
}

/// The key prefix under which the peer's manifest `Map` keeps a stem's agent tokens.
pub const CALLS_AGENTS_PREFIX: &str = "_calls_agents_";

/// Per command stem: its `requires:` list and the agent tokens it (and its workflows) name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillsManifest {
    requires: HashMap<String, Vec<String>>,
    /// Each stem's agent tokens, each once, in the order the peer collects them.
    agents: HashMap<String, Vec<String>>,
}

/// The skills of a resolved profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileSkills {
    /// Every skill (the `full` profile).
    All,
    /// Exactly these skill stems, each once, in the peer's order: per mode, its list (then
    /// the skills of the registry's clusters for it), then what their `requires:` close
    /// over, in the order the closure finds it.
    Only(Vec<String>),
}

/// A resolved profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedProfile {
    /// The profile name: the one valid mode, or the valid modes joined with `,`.
    pub name: String,
    /// Selected skills.
    pub skills: ProfileSkills,
    /// Agent tokens named by the selected skills (over-inclusive; empty for `full`), each
    /// once, in the peer's order: skill by skill (in [`ProfileSkills::Only`]'s order), each
    /// skill's tokens as its body names them, then its workflows and their fragments.
    pub agents: Vec<String>,
}

fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Byte offsets where a line starts (JavaScript `^` with the `m` flag).
fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    std::iter::once(0).chain(
        text.char_indices()
            .filter(|(_, c)| is_line_break(*c))
            .map(|(i, c)| i + c.len_utf8()),
    )
}

/// The front matter: `^---\r?\n([\s\S]*?)\r?\n---` (multi-line), first match.
fn front_matter(text: &str) -> Option<&str> {
    for start in line_starts(text) {
        let rest = &text[start..];
        let Some(after) = rest.strip_prefix("---") else {
            continue;
        };
        let after = after.strip_prefix('\r').unwrap_or(after);
        let Some(body) = after.strip_prefix('\n') else {
            continue;
        };
        let base = text.len() - body.len();
        for (i, _) in body
            .char_indices()
            .chain(std::iter::once((body.len(), ' ')))
        {
            let tail = &body[i..];
            let tail = tail.strip_prefix('\r').unwrap_or(tail);
            if tail.starts_with("\n---") {
                return Some(&text[base..base + i]);
            }
        }
    }
    None
}

/// `parseRequires`: the `requires:` line of the front matter, flow list or bare value.
#[must_use]
pub fn parse_requires(text: &str) -> Vec<String> {
    let Some(fm) = front_matter(text) else {
        return Vec::new();
    };
    let value = line_starts(fm).find_map(|start| {
        let after = fm[start..].strip_prefix("requires:")?;
        // `\s*(.+)$`: skip whitespace (line breaks too), backing off until one
        // non-line-break character can start the value.
        let ws: Vec<(usize, char)> = after
            .char_indices()
            .take_while(|(_, c)| is_js_space(*c))
            .collect();
        let ends = ws
            .iter()
            .map(|(i, c)| i + c.len_utf8())
            .rev()
            .chain(std::iter::once(0));
        ends.into_iter().find_map(|at| {
            let tail = &after[at..];
            let line: &str = tail.split(is_line_break).next().unwrap_or("");
            (!line.is_empty()).then_some(line)
        })
    });
    let Some(value) = value else {
        return Vec::new();
    };
    // JavaScript's `trim` (U+FEFF is space to it, U+0085 is not).
    let value = value.trim_matches(is_js_space);
    if value.starts_with('[') && value.ends_with(']') && value.len() >= 2 {
        let inner = value[1..value.len() - 1].trim_matches(is_js_space);
        return inner
            .split(',')
            .map(|s| s.trim_matches(is_js_space))
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
    }
    if value.is_empty() {
        Vec::new()
    } else {
        vec![value.to_owned()]
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `parseCallsAgents`: every `\bgsd-[a-z][a-z-]*` token, first occurrence order.
#[must_use]
pub fn agent_tokens(text: &str) -> Vec<String> {
    let mut out = InsertionSet::default();
    add_agent_tokens(text, &mut out);
    out.into_vec()
}

/// Adds [`agent_tokens`] of `text` to `out`, each once.
fn add_agent_tokens(text: &str, out: &mut InsertionSet) {
    for (i, _) in text.match_indices("gsd-") {
        if text[..i].chars().next_back().is_some_and(is_word) {
            continue;
        }
        let tail = &text[i + 4..];
        if !tail.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let len = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(tail.len());
        out.insert(format!("gsd-{}", &tail[..len]));
    }
}

/// Names referenced as `workflows/<name>.md` (`[a-z0-9][a-z0-9-]*`), with `.md`.
fn workflow_refs(text: &str) -> Vec<String> {
    let mut out = InsertionSet::default();
    for (i, _) in text.match_indices("workflows/") {
        let tail = &text[i + "workflows/".len()..];
        if !tail.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()) {
            continue;
        }
        let len = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(tail.len());
        if tail[len..].starts_with(".md") {
            out.insert(format!("{}.md", &tail[..len]));
        }
    }
    out.into_vec()
}

/// Strings in the order they were first inserted, each once (a JavaScript `Set`), with a
/// hash set beside the list so that a long one is not searched on every insertion.
#[derive(Default)]
struct InsertionSet {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl InsertionSet {
    /// Appends `item` unless it is there already.
    fn insert(&mut self, item: String) {
        if !self.seen.contains(&item) {
            self.seen.insert(item.clone());
            self.list.push(item);
        }
    }

    /// Appends each of `more` that is not there yet.
    fn extend(&mut self, more: impl IntoIterator<Item = String>) {
        for item in more {
            self.insert(item);
        }
    }

    fn into_vec(self) -> Vec<String> {
        self.list
    }
}

impl SkillsManifest {
    /// `loadSkillsManifest` over data: requires lists and agent tokens per command stem.
    #[must_use]
    pub fn build(sources: &ProfileSources) -> SkillsManifest {
        let workflows: BTreeMap<&str, &str> = sources
            .workflows
            .iter()
            .map(|w| (w.path.as_str(), w.body.as_str()))
            .collect();
        let mut manifest = SkillsManifest::default();
        for cmd in &sources.commands {
            manifest
                .requires
                .insert(cmd.stem.clone(), parse_requires(&cmd.body));
            let mut agents = InsertionSet::default();
            add_agent_tokens(&cmd.body, &mut agents);
            for name in workflow_refs(&cmd.body) {
                let Some(body) = workflows.get(name.as_str()) else {
                    continue;
                };
                add_agent_tokens(body, &mut agents);
                let dir = format!("{}/", &name[..name.len() - 3]);
                #[allow(clippy::case_sensitive_file_extension_comparisons)]
                // Reason: the peer matches `.md` exactly.
                let mut fragments: Vec<(&str, &str)> = workflows
                    .range(dir.as_str()..)
                    .take_while(|(p, _)| p.starts_with(&dir))
                    .filter(|(p, _)| p.ends_with(".md"))
                    .map(|(p, b)| (*p, *b))
                    .collect();
                // The peer walks the directory depth-first, each level's names sorted
                // bytewise (as libuv lists them): the order of the paths compared name by
                // name, which differs from comparing whole paths (`a/x.md` comes before
                // `a-b.md`).
                fragments.sort_by(|a, b| a.0.split('/').cmp(b.0.split('/')));
                for (_, body) in fragments {
                    add_agent_tokens(body, &mut agents);
                }
            }
            manifest.agents.insert(cmd.stem.clone(), agents.into_vec());
        }
        manifest
    }

    /// The peer's manifest `Map` read back: a key `_calls_agents_<stem>` holds the agent
    /// tokens of `<stem>`, any other key the `requires:` list of the stem it names. A key
    /// given twice keeps its last list, as a `Map` does.
    #[must_use]
    pub fn from_peer_entries(entries: impl IntoIterator<Item = (String, Vec<String>)>) -> Self {
        let mut manifest = SkillsManifest::default();
        for (key, list) in entries {
            match key.strip_prefix(CALLS_AGENTS_PREFIX) {
                Some(stem) => manifest.agents.insert(stem.to_owned(), list),
                None => manifest.requires.insert(key, list),
            };
        }
        manifest
    }

    /// The `requires:` list of a command stem, when the manifest holds that stem.
    #[must_use]
    pub fn requires_of(&self, stem: &str) -> Option<&[String]> {
        self.requires.get(stem).map(Vec::as_slice)
    }

    /// The agent tokens a command stem (and the workflows it names) names, each once, when
    /// the manifest holds that stem: the peer's `_calls_agents_<stem>` entry.
    #[must_use]
    pub fn agents_of(&self, stem: &str) -> Option<&[String]> {
        self.agents.get(stem).map(Vec::as_slice)
    }

    /// The entries a stem pulls in during closure. The peer keeps agent lists in the same
    /// map under `_calls_agents_<stem>`, so such a name resolves to those.
    fn deps(&self, stem: &str) -> Vec<String> {
        if let Some(list) = self.requires.get(stem) {
            return list.clone();
        }
        stem.strip_prefix(CALLS_AGENTS_PREFIX)
            .and_then(|s| self.agents.get(s))
            .cloned()
            .unwrap_or_default()
    }
}

fn full() -> ResolvedProfile {
    ResolvedProfile {
        name: "full".into(),
        skills: ProfileSkills::All,
        agents: Vec::new(),
    }
}

/// `resolveProfile({modes, manifest, registry})`: modes are split on `,` and trimmed;
/// any `full`, or no known mode at all, gives the full profile. Otherwise each mode's
/// base list, plus the skills of registry clusters whose membership includes the mode,
/// is closed over `requires:`; agents are the tokens named by the selected skills.
#[must_use]
pub fn resolve_profile(
    modes: &[&str],
    manifest: &SkillsManifest,
    registry: Option<&Registry>,
) -> ResolvedProfile {
    resolve_profile_with(modes, manifest, |mode| {
        let Some(registry) = registry else {
            return Vec::new();
        };
        let index = registry.index();
        let mut stems = Vec::new();
        for (cap, cluster) in index.capability_clusters() {
            let member = index.profile_membership().iter().find(|(id, _)| id == cap);
            if member.is_some_and(|(_, m)| m.profiles.contains(&mode)) {
                stems.extend(cluster.iter().filter(|s| !s.is_empty()).cloned());
            }
        }
        stems
    })
}

/// [`resolve_profile`] with the capability skills of each mode given by the caller:
/// `capability_skills(mode)` lists the skills the capabilities whose profile membership
/// includes `mode` add to its base list, before the closure (what the peer reads from a
/// `registry` of `capabilityClusters` and `profileMembership`).
#[must_use]
pub fn resolve_profile_with(
    modes: &[&str],
    manifest: &SkillsManifest,
    capability_skills: impl Fn(&str) -> Vec<String>,
) -> ResolvedProfile {
    let mut wanted: Vec<&str> = modes
        .iter()
        .flat_map(|m| m.split(','))
        .map(|m| m.trim_matches(is_js_space))
        .filter(|m| !m.is_empty())
        .collect();
    if wanted.is_empty() || wanted.contains(&"full") {
        return full();
    }
    wanted.retain(|m| PROFILES.iter().any(|(name, _)| name == m));
    if wanted.is_empty() {
        return full();
    }
    let mut skills: Vec<String> = Vec::new();
    let mut listed: HashSet<String> = HashSet::new();
    for mode in &wanted {
        let base = PROFILES
            .iter()
            .find(|(name, _)| name == mode)
            .map_or(&[][..], |(_, list)| *list);
        let mut start: Vec<String> = base.iter().map(|s| (*s).to_owned()).collect();
        start.extend(capability_skills(mode));
        // The closure as the peer walks it: the start list first (each stem once, in
        // order), then each dependency when first found, taking stems from the end.
        let mut closed: Vec<String> = Vec::new();
        let mut found: HashSet<String> = HashSet::new();
        for stem in start {
            if found.insert(stem.clone()) {
                closed.push(stem);
            }
        }
        let mut queue = closed.clone();
        while let Some(stem) = queue.pop() {
            for dep in manifest.deps(&stem) {
                if found.insert(dep.clone()) {
                    closed.push(dep.clone());
                    queue.push(dep);
                }
            }
        }
        for stem in closed {
            if listed.insert(stem.clone()) {
                skills.push(stem);
            }
        }
    }
    let mut agents = InsertionSet::default();
    for tokens in skills.iter().filter_map(|s| manifest.agents.get(s)) {
        agents.extend(tokens.iter().cloned());
    }
    let agents = agents.into_vec();
    ResolvedProfile {
        name: wanted.join(","),
        skills: ProfileSkills::Only(skills),
        agents,
    }
}

/// `mostRestrictiveProfile(names)`: the narrowest of `core`, `standard`, `full`; composed
/// or unknown names count as `full`; no names gives `full`.
#[must_use]
pub fn most_restrictive_profile(names: &[&str]) -> &'static str {
    names
        .iter()
        .map(|n| {
            PROFILE_RANK
                .iter()
                .position(|p| p == n)
                .unwrap_or(PROFILE_RANK.len() - 1)
        })
        .min()
        .map_or("full", |rank| PROFILE_RANK[rank])
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

    /// Many distinct names, each repeated: every one kept once, in first-seen order (a
    /// long body is read in one pass, not searched again on every name).
    #[test]
    fn many_names_are_each_kept_once_in_order() {
        let name = |i: usize| -> String {
            // `gsd-` tokens are lower-case letters and dashes only.
            let mut n = String::from("n");
            let mut i = i;
            loop {
                n.push(char::from(b'a' + u8::try_from(i % 26).unwrap_or(0)));
                i /= 26;
                if i == 0 {
                    break n;
                }
            }
        };
        let mut body = String::new();
        for i in 0..40_000 {
            let n = name(i % 20_000);
            for part in ["gsd-", &n, " workflows/", &n, ".md "] {
                body.push_str(part);
            }
        }
        let tokens = agent_tokens(&body);
        assert_eq!(tokens.len(), 20_000);
        assert_eq!(tokens[0], "gsd-na");
        assert_eq!(tokens[19_999], format!("gsd-{}", name(19_999)));
        let refs = workflow_refs(&body);
        assert_eq!(refs.len(), 20_000);
        assert_eq!(refs[1], "nb.md");
        let sources = ProfileSources {
            commands: vec![cmd("big", &body)],
            ..ProfileSources::default()
        };
        assert_eq!(SkillsManifest::build(&sources).agents["big"], tokens);
    }

    /// Trimmed as JavaScript trims: U+FEFF is space, U+0085 is not (Rust's `trim` has
    /// them the other way round).
    #[test]
    fn requires_and_modes_are_trimmed_as_javascript_trims() {
        let fm = |line: &str| format!("---\n{line}\n---\nbody");
        assert_eq!(parse_requires(&fm("requires: [a,\u{feff}b]")), ["a", "b"]);
        assert_eq!(parse_requires(&fm("requires: a\u{85}")), ["a\u{85}"]);
        assert_eq!(parse_requires(&fm("requires:\u{feff}x")), ["x"]);
        let none = SkillsManifest::default();
        assert_eq!(resolve_profile(&["\u{feff}core"], &none, None).name, "core");
        assert_eq!(resolve_profile(&["core\u{85}"], &none, None), full());
    }

    #[test]
    fn requires_reads_the_flow_list_of_the_front_matter() {
        assert_eq!(
            parse_requires("---\nname: x\nrequires: [a, b ,, c]\n---\nbody"),
            ["a", "b", "c"]
        );
        assert_eq!(parse_requires("---\r\nrequires: solo\r\n---\r\n"), ["solo"]);
        assert!(parse_requires("no front matter\nrequires: [a]").is_empty());
        assert!(parse_requires("---\nrequires: []\n---\n").is_empty());
    }

    #[test]
    fn agent_tokens_need_a_word_boundary() {
        assert_eq!(
            agent_tokens("use gsd-planner and xgsd-no, gsd-plan-checker. gsd-planner"),
            ["gsd-planner", "gsd-plan-checker"]
        );
        assert!(agent_tokens("gsd-1 gsd-").is_empty());
    }

    #[test]
    fn unknown_modes_fail_open_to_full_and_compose_otherwise() {
        let sources = ProfileSources {
            commands: vec![
                cmd("help", "---\nrequires: [extra]\n---\nsee workflows/help.md"),
                cmd("extra", "calls gsd-helper"),
            ],
            workflows: vec![
                WorkflowSource {
                    path: "help.md".into(),
                    body: "spawns gsd-writer".into(),
                },
                WorkflowSource {
                    path: "help/steps/a.md".into(),
                    body: "gsd-step-agent".into(),
                },
                WorkflowSource {
                    path: "help/steps/b.txt".into(),
                    body: "gsd-ignored".into(),
                },
            ],
        };
        let manifest = SkillsManifest::build(&sources);
        assert_eq!(resolve_profile(&["nope"], &manifest, None), full());
        assert_eq!(resolve_profile(&[], &manifest, None), full());
        assert_eq!(resolve_profile(&["core,full"], &manifest, None), full());
        let core = resolve_profile(&[" core ", "nope"], &manifest, None);
        assert_eq!(core.name, "core");
        let ProfileSkills::Only(skills) = &core.skills else {
            panic!("bounded")
        };
        let has = |stem: &str| skills.iter().any(|s| s == stem);
        assert!(has("extra") && has("surface"));
        let agents: Vec<_> = core.agents.iter().map(String::as_str).collect();
        // The peer's answer for the same tree on disk: `help` (its workflow, then the
        // workflow's fragment) before `extra`, which its `requires:` closure adds.
        assert_eq!(agents, ["gsd-writer", "gsd-step-agent", "gsd-helper"]);
        assert!(skills.iter().position(|s| s == "help") < skills.iter().position(|s| s == "extra"));
        assert_eq!(
            resolve_profile(&["core,standard"], &manifest, None).name,
            "core,standard"
        );
    }

    /// The peer's manifest `Map`, read back entry by entry, resolves as the sources it
    /// was loaded from; the caller's capability skills join a mode's base list before the
    /// closure, so their own `requires:` are followed.
    #[test]
    fn a_peer_map_resolves_as_its_sources_and_capability_skills_are_closed_over() {
        let sources = ProfileSources {
            commands: vec![
                cmd("help", "---\nrequires: [extra]\n---\ncalls gsd-writer"),
                cmd("extra", "calls gsd-helper"),
                cmd("my-skill", "---\nrequires: [my-dep]\n---\ncalls gsd-mine"),
                cmd("my-dep", "nothing"),
            ],
            workflows: Vec::new(),
        };
        let built = SkillsManifest::build(&sources);
        assert_eq!(built.requires_of("help"), Some(&["extra".to_owned()][..]));
        assert_eq!(
            built.agents_of("extra"),
            Some(&["gsd-helper".to_owned()][..])
        );
        assert_eq!(built.agents_of("absent"), None);
        let entries = sources.commands.iter().flat_map(|c| {
            [
                (c.stem.clone(), built.requires_of(&c.stem).unwrap().to_vec()),
                (
                    format!("{CALLS_AGENTS_PREFIX}{}", c.stem),
                    built.agents_of(&c.stem).unwrap().to_vec(),
                ),
            ]
        });
        let read_back = SkillsManifest::from_peer_entries(entries);
        assert_eq!(read_back, built);
        let none = |_: &str| Vec::new();
        let plain = resolve_profile_with(&["core"], &read_back, none);
        let ProfileSkills::Only(plain_skills) = &plain.skills else {
            panic!("bounded")
        };
        assert!(!plain_skills.iter().any(|s| s == "my-skill"));
        let mine = |mode: &str| {
            if mode == "core" {
                vec!["my-skill".to_owned()]
            } else {
                Vec::new()
            }
        };
        let with = resolve_profile_with(&["core"], &read_back, mine);
        let ProfileSkills::Only(skills) = &with.skills else {
            panic!("bounded")
        };
        // The base list, then the capability's skill, then what the closure finds from
        // the end (the capability's own dependency first).
        let core = PROFILES.iter().find(|(name, _)| *name == "core").unwrap().1;
        assert_eq!(skills[..core.len()], *core);
        assert_eq!(skills[core.len()..], ["my-skill", "my-dep", "extra"]);
        assert_eq!(plain_skills[core.len()..], ["extra"]);
        assert!(with.agents.iter().any(|a| a == "gsd-mine"));
        let standard = resolve_profile_with(&["standard"], &read_back, mine);
        let ProfileSkills::Only(standard_skills) = &standard.skills else {
            panic!("bounded")
        };
        assert!(!standard_skills.iter().any(|s| s == "my-skill"));
    }

    #[test]
    fn most_restrictive_profile_ranks_core_first() {
        assert_eq!(most_restrictive_profile(&[]), "full");
        assert_eq!(most_restrictive_profile(&["standard", "core"]), "core");
        assert_eq!(
            most_restrictive_profile(&["core,standard", "weird"]),
            "full"
        );
        assert_eq!(most_restrictive_profile(&["full", "standard"]), "standard");
    }
}
