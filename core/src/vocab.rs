//! The closed vocabulary: every enum a capability manifest may use, in one place.
//!
//! Each enum lists its members in the order the peer validator lists them, because
//! validation messages print that order (`must be one of: a, b, c`). `ALL` keeps that
//! order; `as_str` is the one spelling on the wire; `parse` (and `FromStr`, whose error
//! names the value) is exact (no trimming, no case folding).

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, ErrorCode};

/// A closed vocabulary as validation reads it: membership of a spelling, and the list of
/// spellings its messages print (spelled only when a message needs it).
pub(crate) trait Closed {
    /// Whether `text` spells a member (exactly).
    fn is_member(text: &str) -> bool;

    /// The members joined with `", "`.
    fn one_of() -> String;
}

/// The error of `FromStr` on a closed enum: [`ErrorCode::InvalidArgument`], naming the
/// type, the value (sanitized, as a JSON string) and the members.
fn unknown_member(type_name: &str, text: &str, one_of: &str) -> Error {
    let shown = serde_json::to_string(&crate::sanitize::sanitize_value(text)).unwrap_or_default();
    Error::new(
        ErrorCode::InvalidArgument,
        format!("unknown {type_name} {shown}, expected one of: {one_of}"),
    )
}

/// Declares a closed, string-spelled enum with `ALL`, `as_str`, `parse`, `FromStr`,
/// `Display` and serde. `FromStr` fails with [`unknown_member`], or with the function
/// given after `error =`.
macro_rules! closed_enum {
    (@from_str_error $name:ident $text:ident) => {
        unknown_member(stringify!($name), $text, &$name::one_of())
    };
    (@from_str_error $name:ident $text:ident $error:path) => {
        $error($text)
    };
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? } $(error = $error:path)?) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name {
            $($(#[$vmeta])* #[doc = concat!("`", $text, "`")] $variant),+
        }

        impl $name {
            /// Every member, in the peer's declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The wire spelling.
            #[must_use]
            pub const fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Exact-match parse of the wire spelling.
            #[must_use]
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }

            /// The members joined with `", "`, as printed in validation messages.
            #[must_use]
            pub fn one_of() -> String {
                Self::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
            }
        }

        impl Closed for $name {
            fn is_member(text: &str) -> bool {
                $name::parse(text).is_some()
            }

            fn one_of() -> String {
                $name::one_of()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = Error;

            /// The exact wire spelling, as [`Self::parse`]; anything else is an [`Error`]
            /// naming the value.
            fn from_str(text: &str) -> Result<Self, Error> {
                $name::parse(text).ok_or_else(|| closed_enum!(@from_str_error $name text $($error)?))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(d)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "unknown {} {:?}, expected one of: {}",
                        stringify!($name), text, $name::one_of()
                    ))
                })
            }
        }
    };
}

closed_enum! {
    /// Capability role (`role`).
    Role { Feature => "feature", Runtime => "runtime", Reviewer => "reviewer" }
}

closed_enum! {
    /// Capability tier (`tier`); ordered `core < standard < full`.
    Tier { Core => "core", Standard => "standard", Full => "full" }
}

impl Tier {
    /// The peer's `TIER_RANK`: core 0, standard 1, full 2.
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Tier::Core => 0,
            Tier::Standard => 1,
            Tier::Full => 2,
        }
    }
}

closed_enum! {
    /// Install scope. `ALL` is the precedence order, highest first (`SCOPE_ORDER`).
    Scope { Global => "global", Local => "local" } error = crate::scope::invalid_scope
}

impl Scope {
    /// Host precedence rank: `global` 2, `local` 1 (higher wins).
    #[must_use]
    pub const fn rank(self) -> u8 {
        match self {
            Scope::Global => 2,
            Scope::Local => 1,
        }
    }
}

closed_enum! {
    /// `onError` of a step, contribution or gate.
    OnError { Skip => "skip", Halt => "halt" }
}

closed_enum! {
    /// Loop extension points, in loop order (`POINT_ORDER`).
    LoopPoint {
        DiscussPre => "discuss:pre", DiscussPost => "discuss:post",
        PlanPre => "plan:pre", PlanPost => "plan:post",
        ExecutePre => "execute:pre", ExecuteWavePre => "execute:wave:pre",
        ExecuteWavePost => "execute:wave:post", ExecutePost => "execute:post",
        VerifyPre => "verify:pre", VerifyPost => "verify:post",
        ShipPre => "ship:pre", ShipPost => "ship:post",
    }
}

impl LoopPoint {
    /// Index in loop order (0-based).
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The agent roles a contribution at this point may target (`POINT_TO_CONTRACT`).
    #[must_use]
    pub const fn agent_roles(self) -> &'static [&'static str] {
        match self {
            LoopPoint::PlanPre | LoopPoint::PlanPost => &["researcher", "planner", "checker"],
            LoopPoint::ExecutePre
            | LoopPoint::ExecuteWavePre
            | LoopPoint::ExecuteWavePost
            | LoopPoint::ExecutePost => &["executor", "verifier"],
            _ => &["orchestrator"],
        }
    }
}

/// Host artifacts and the earliest loop-point index at which each exists
/// (`HOST_ARTIFACT_EARLIEST_POINT_IDX`).
pub const HOST_ARTIFACT_EARLIEST_POINT: &[(&str, usize)] = &[
    ("CONTEXT.md", 1),
    ("PLAN.md", 3),
    ("SUMMARY.md", 7),
    ("UAT.md", 9),
];

closed_enum! {
    /// Federated config slice value types.
    ConfigSliceType { Boolean => "boolean", String => "string", Number => "number", Enum => "enum" }
}

closed_enum! {
    /// `runtime.configHome.kind`.
    ConfigHomeKind {
        DotHome => "dot-home", DotHomeNested => "dot-home-nested", Xdg => "xdg",
        GenericAgentsRoot => "generic-agents-root", None => "none",
    }
}

closed_enum! {
    /// `runtime.configFormat`.
    ConfigFormat {
        SettingsJson => "settings-json", Toml => "toml", Markdown => "markdown",
        MarkdownDir => "markdown-dir", None => "none",
    }
}

closed_enum! {
    /// `runtime.commandStyle`: `/gsd-x` or `$gsd-x`.
    CommandStyle { SlashHyphen => "slash-hyphen", ShellVar => "shell-var" }
}

closed_enum! {
    /// `runtime.hooksSurface`.
    HooksSurface {
        SettingsJson => "settings-json", CodexHooksJson => "codex-hooks-json",
        CursorHooksJson => "cursor-hooks-json", CopilotInline => "copilot-inline",
        ClineRules => "cline-rules", KimiHooksToml => "kimi-hooks-toml",
        WindsurfHooksJson => "windsurf-hooks-json", None => "none",
    }
}

closed_enum! {
    /// `runtime.hookEvents`: the hook event-name dialect.
    HookEvents { Claude => "claude", Gemini => "gemini" }
}

closed_enum! {
    /// `runtime.extensionEvents`.
    ExtensionEvents { Opencode => "opencode", Pi => "pi", Hermes => "hermes", Kilo => "kilo", None => "none" }
}

closed_enum! {
    /// `runtime.sandboxTier`.
    SandboxTier { None => "none", CodexAgentSandbox => "codex-agent-sandbox" }
}

closed_enum! {
    /// `runtime.artifactLayout.<scope>[i].kind`.
    ArtifactKindName { Commands => "commands", Agents => "agents", Skills => "skills", KimiAgents => "kimi-agents" }
}

closed_enum! {
    /// `runtime.artifactLayout.<scope>[i].nesting`.
    Nesting { Flat => "flat", Nested => "nested" }
}

closed_enum! {
    /// Kinds allowed in `runtime.triggerPrecedence` (trigger-bearing kinds).
    TriggerKind { Commands => "commands", Skills => "skills" }
}

/// `DEFAULT_TRIGGER_PRECEDENCE`: skills beat commands.
pub const DEFAULT_TRIGGER_PRECEDENCE: &[TriggerKind] =
    &[TriggerKind::Skills, TriggerKind::Commands];

impl TriggerKind {
    /// The artifact kind this trigger kind corresponds to.
    #[must_use]
    pub const fn artifact_kind(self) -> ArtifactKindName {
        match self {
            TriggerKind::Commands => ArtifactKindName::Commands,
            TriggerKind::Skills => ArtifactKindName::Skills,
        }
    }

    /// The trigger kind of an artifact kind, if it bears triggers.
    #[must_use]
    pub const fn of(kind: ArtifactKindName) -> Option<TriggerKind> {
        match kind {
            ArtifactKindName::Commands => Some(TriggerKind::Commands),
            ArtifactKindName::Skills => Some(TriggerKind::Skills),
            _ => None,
        }
    }
}

closed_enum! {
    /// `runtime.installSurface`: which config-writing adapter the installer uses.
    InstallSurface {
        SettingsJson => "settings-json", CodexToml => "codex-toml",
        CopilotInstructions => "copilot-instructions", ClineRules => "cline-rules",
        CursorHooksJson => "cursor-hooks-json", ProfileMarkerOnly => "profile-marker-only",
        None => "none",
    }
}

impl InstallSurface {
    /// Gate A: the hooks surfaces allowed with this install surface.
    #[must_use]
    pub const fn allowed_hooks_surfaces(self) -> &'static [HooksSurface] {
        match self {
            InstallSurface::SettingsJson => &[HooksSurface::SettingsJson, HooksSurface::None],
            InstallSurface::CodexToml => &[HooksSurface::CodexHooksJson],
            InstallSurface::CopilotInstructions => &[HooksSurface::CopilotInline],
            InstallSurface::ClineRules => &[HooksSurface::ClineRules],
            InstallSurface::CursorHooksJson => &[HooksSurface::CursorHooksJson],
            InstallSurface::ProfileMarkerOnly => &[
                HooksSurface::None,
                HooksSurface::KimiHooksToml,
                HooksSurface::WindsurfHooksJson,
            ],
            InstallSurface::None => &[HooksSurface::None],
        }
    }

    /// The config-format parity gate (`INSTALL_SURFACE_TO_CONFIG_FORMAT`).
    #[must_use]
    pub const fn config_format(self) -> ConfigFormat {
        match self {
            InstallSurface::SettingsJson => ConfigFormat::SettingsJson,
            InstallSurface::CodexToml => ConfigFormat::Toml,
            InstallSurface::CopilotInstructions => ConfigFormat::Markdown,
            InstallSurface::ClineRules => ConfigFormat::MarkdownDir,
            InstallSurface::CursorHooksJson
            | InstallSurface::ProfileMarkerOnly
            | InstallSurface::None => ConfigFormat::None,
        }
    }
}

closed_enum! {
    /// `runtime.permissionWriter` (when not null).
    PermissionWriter { Opencode => "opencode", Kilo => "kilo", Antigravity => "antigravity" }
}

closed_enum! {
    /// `runtime.extendedHookEvents[i]`.
    ExtendedHookEvent {
        SubagentStop => "SubagentStop", Stop => "Stop", PreCompact => "PreCompact",
        FileChanged => "FileChanged", BeforeAgent => "BeforeAgent", AfterAgent => "AfterAgent",
        BeforeModel => "BeforeModel", SubagentStart => "SubagentStart",
    }
}

impl ExtendedHookEvent {
    /// Gemini agent events require `hookEvents: "gemini"` (gate B).
    #[must_use]
    pub const fn is_gemini_agent_event(self) -> bool {
        matches!(
            self,
            ExtendedHookEvent::BeforeAgent
                | ExtendedHookEvent::AfterAgent
                | ExtendedHookEvent::BeforeModel
        )
    }

    /// Claude-family events require `hookEvents: "claude"` (gate B).
    #[must_use]
    pub const fn is_claude_family_event(self) -> bool {
        !self.is_gemini_agent_event()
    }
}

closed_enum! {
    /// The 30 first-party body converters, referenced by closed name.
    ConverterName {
        CommandToAntigravitySkill => "convertClaudeCommandToAntigravitySkill",
        CommandToAugmentSkill => "convertClaudeCommandToAugmentSkill",
        CommandToClineSkill => "convertClaudeCommandToClineSkill",
        CommandToClaudeSkill => "convertClaudeCommandToClaudeSkill",
        CommandToCodebuddyCommand => "convertClaudeCommandToCodebuddyCommand",
        CommandToCodebuddySkill => "convertClaudeCommandToCodebuddySkill",
        CommandToCodexSkill => "convertClaudeCommandToCodexSkill",
        CommandToCopilotSkill => "convertClaudeCommandToCopilotSkill",
        CommandToCursorSkill => "convertClaudeCommandToCursorSkill",
        CommandToKiloSkill => "convertClaudeCommandToKiloSkill",
        CommandToKimiSkill => "convertClaudeCommandToKimiSkill",
        CommandToKimiCodeSkill => "convertClaudeCommandToKimiCodeSkill",
        CommandToOpencodeSkill => "convertClaudeCommandToOpencodeSkill",
        CommandToTraeSkill => "convertClaudeCommandToTraeSkill",
        CommandToWindsurfSkill => "convertClaudeCommandToWindsurfSkill",
        CommandToWindsurfWorkflow => "convertClaudeCommandToWindsurfWorkflow",
        AgentToCopilotAgent => "convertClaudeAgentToCopilotAgent",
        AgentToAntigravityAgent => "convertClaudeAgentToAntigravityAgent",
        AgentToCursorAgent => "convertClaudeAgentToCursorAgent",
        AgentToWindsurfAgent => "convertClaudeAgentToWindsurfAgent",
        AgentToAugmentAgent => "convertClaudeAgentToAugmentAgent",
        AgentToTraeAgent => "convertClaudeAgentToTraeAgent",
        AgentToCodebuddyAgent => "convertClaudeAgentToCodebuddyAgent",
        AgentToClineAgent => "convertClaudeAgentToClineAgent",
        AgentToCodexAgent => "convertClaudeAgentToCodexAgent",
        AgentToQwenAgent => "convertClaudeAgentToQwenAgent",
        AgentToZcodeAgent => "convertClaudeAgentToZcodeAgent",
        AgentToHermesAgent => "convertClaudeAgentToHermesAgent",
        ToKiloFrontmatter => "convertClaudeToKiloFrontmatter",
        ToOpencodeFrontmatter => "convertClaudeToOpencodeFrontmatter",
    }
}

closed_enum! {
    /// `hostIntegration.embeddingMode`.
    EmbeddingMode { Imperative => "imperative", Declarative => "declarative" }
}
closed_enum! {
    /// `hostIntegration.commandSurface`.
    CommandSurface {
        SlashFile => "slash-file", SlashProgrammatic => "slash-programmatic",
        SlashToml => "slash-toml", Palette => "palette", ProseOnly => "prose-only",
    }
}
closed_enum! {
    /// `hostIntegration.modelMode`.
    ModelMode { Active => "active", Passive => "passive" }
}
closed_enum! {
    /// `hostIntegration.hookBus`.
    HookBus { Host => "host", Engine => "engine", None => "none" }
}
closed_enum! {
    /// `hostIntegration.stateIO`.
    StateIo { Filesystem => "filesystem", SandboxedStorage => "sandboxed-storage", SessionLogAppend => "session-log-append" }
}
closed_enum! {
    /// `hostIntegration.transport`.
    HostTransport { Mcp => "mcp", NativeExtension => "native-extension" }
}
closed_enum! {
    /// `hostIntegration.runtime`.
    HostRuntime {
        Node => "node", Bun => "bun", SandboxedWeb => "sandboxed-web", Python => "python",
        Go => "go", Rust => "rust", Electron => "electron", Other => "other",
    }
}
closed_enum! {
    /// `hostIntegration.dispatch.subagentToolkit`.
    SubagentToolkit { Full => "full", ReadOnly => "read-only", BuiltInOnly => "built-in-only" }
}
closed_enum! {
    /// `hostIntegration.effortSurface`.
    EffortSurface { Argv => "argv", None => "none" }
}
closed_enum! {
    /// `hostIntegration.dispatch.isolation`.
    DispatchIsolation { HarnessWorktree => "harness-worktree", OrchestratorWorktree => "orchestrator-worktree", None => "none" }
}

/// Every `hostIntegration` axis also accepts this spelling.
pub const UNDOCUMENTED: &str = "undocumented";

closed_enum! {
    /// `reviewer.transport`.
    LaneTransport { Spawn => "spawn", OpenaiHttp => "openai-http" }
}
closed_enum! {
    /// `reviewer.probe.kind`.
    LaneProbeKind { CommandExists => "command-exists", CommandCapability => "command-capability", HttpReachable => "http-reachable" }
}
closed_enum! {
    /// `reviewer.invoke.promptChannel`.
    PromptChannel { Stdin => "stdin", Argv => "argv", ArgvFileRef => "argv-file-ref", None => "none" }
}
closed_enum! {
    /// `reviewer.invoke.outputChannel`.
    OutputChannel { Stdout => "stdout", FileArg => "file-arg" }
}
closed_enum! {
    /// `reviewer.invoke.effortChannel`.
    EffortChannel { None => "none", Argv => "argv", Env => "env" }
}
closed_enum! {
    /// `reviewer.invoke.modelDiscovery`.
    ModelDiscovery { None => "none", FirstFromModelsEndpoint => "first-from-models-endpoint" }
}
closed_enum! {
    /// `reviewer.emptyOutput`.
    EmptyOutput { StubWithStderr => "stub-with-stderr", HandlerOwned => "handler-owned" }
}
closed_enum! {
    /// `reviewer.evidenceClass`.
    EvidenceClass { SourceGrounded => "source-grounded", DiffOnly => "diff-only" }
}
closed_enum! {
    /// `reviewer.handler` (when not null).
    LaneHandler { Antigravity => "antigravity", OpenaiCompatible => "openai-compatible", Opencode => "opencode" }
}
closed_enum! {
    /// `reviewer.defaultEffort`.
    EffortLevel { Minimal => "minimal", Low => "low", Medium => "medium", High => "high", Xhigh => "xhigh", Max => "max" }
}

/// Fields a `role: runtime` capability must not carry.
pub const FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME: &[&str] = &[
    "skills",
    "agents",
    "steps",
    "contributions",
    "gates",
    "hooks",
    "activationKey",
];

/// Fields a `role: reviewer` capability must not carry.
pub const FEATURE_FIELDS_FORBIDDEN_ON_REVIEWER: &[&str] = &[
    "skills",
    "agents",
    "steps",
    "contributions",
    "gates",
    "hooks",
    "activationKey",
    "taskContentResolver",
];

/// The 16 known `reviewer.*` fields.
pub const KNOWN_REVIEWER_FIELDS: &[&str] = &[
    "slug",
    "flags",
    "transport",
    "probe",
    "invoke",
    "timeoutFloorMs",
    "emptyOutput",
    "reviewsSection",
    "evidenceClass",
    "requiresBinaries",
    "promptBudgetKey",
    "modelConfigKey",
    "timeoutConfigKey",
    "effortConfigKey",
    "defaultEffort",
    "handler",
];

/// Known `reviewer.probe` fields.
pub const KNOWN_PROBE_FIELDS: &[&str] = &[
    "kind",
    "binary",
    "needle",
    "timeoutMs",
    "hostConfigKey",
    "path",
];

/// `reviewer.invoke` fields only valid with `transport: spawn`.
pub const SPAWN_ONLY_INVOKE_FIELDS: &[&str] = &[
    "binary",
    "args",
    "promptChannel",
    "outputChannel",
    "outputArg",
    "modelArg",
    "env",
];

/// `reviewer.invoke` fields only valid with `transport: openai-http`.
pub const HTTP_ONLY_INVOKE_FIELDS: &[&str] = &[
    "hostConfigKey",
    "defaultHost",
    "path",
    "modelDiscovery",
    "fallbackModel",
];

/// Environment keys a reviewer lane may never set (compared case-insensitively).
pub const DENIED_LANE_ENV_KEYS: &[&str] = &[
    "PATH",
    "NODE_OPTIONS",
    "NODE_REPL_EXTERNAL_MODULE",
    "NODE_PATH",
    "LD_PRELOAD",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "DYLD_INSERT_LIBRARIES",
    "DYLD_LIBRARY_PATH",
    "PYTHONSTARTUP",
    "PYTHONPATH",
    "BASH_ENV",
    "ENV",
    "PERL5OPT",
    "RUBYOPT",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "CLASSPATH",
    "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF",
];

/// The 60 known `runtime.hostBehaviors` keys, sorted.
pub const KNOWN_HOST_BEHAVIORS: &[&str] = &[
    "agentFileExtension",
    "agentFrontmatterExtensions",
    "agentManifestStyle",
    "agentTomlFiles",
    "attributionConfigResolver",
    "attributionSource",
    "authorsCanonicalWorkflow",
    "brandingRewrites",
    "cleanupSkillSidecars",
    "clineRulesSurface",
    "combinedFamilyInstall",
    "commandBodyConverter",
    "doneBannerStyle",
    "flatCommandDir",
    "frontmatterDialect",
    "globalDirResolver",
    "hookPathStyle",
    "hooksJsonSurface",
    "hyphenNameAgentBody",
    "installsCommandBodiesForWorkflowDelegation",
    "legacyCommandsGsdCleanup",
    "legacyCommandsGsdInstallMigration",
    "legacyCommandsGsdUninstall",
    "legacyDevinSkillsCleanup",
    "localCommandsViaRules",
    "localInstallDeferred",
    "localInstallStyle",
    "localTargetIsProjectRoot",
    "managedHookEvents",
    "mcpCompanion",
    "namedSubagentsSupported",
    "nativeModelAliases",
    "nativePlugin",
    "noPathRewrite",
    "ownsClaudePaths",
    "permissionsSchema",
    "pluginOnlyInstall",
    "projectInstructionFile",
    "reapplyCommand",
    "reportCommandsDir",
    "reportSkillsCount",
    "retiredArtifacts",
    "settingsFileByScope",
    "sharedHooksDirName",
    "skillFrontmatterVersion",
    "skillPriorityFrontmatter",
    "skillsGlobalOnboarding",
    "skillsManifestPrefix",
    "skipCodexSkillsManifest",
    "skipHomePrefixSubstitution",
    "skipSettingsUi",
    "skipSharedHooksInstall",
    "skipUpdateBannerCommand",
    "soloStageMetadata",
    "sourceMarkerFile",
    "tomlConfigInstall",
    "trackCategoryDescription",
    "unsupportedFeatures",
    "verificationStyle",
    "writeCategoryDescription",
];

/// The removed `hostBehaviors.reviewerCli` field path.
pub const REMOVED_REVIEWER_CLI_FIELD: &str = "runtime.hostBehaviors.reviewerCli";

/// Names rejected wherever a manifest supplies a key or enum value.
pub const RESERVED_NAMES: &[&str] = &["__proto__", "constructor", "prototype"];

/// Capability id prefixes reserved for first-party capabilities.
pub const RESERVED_ID_PREFIXES: &[&str] = &["gsd-", "gsd-core-", "anthropic-"];

/// The three install profiles, narrowest first (`PROFILE_RANK`).
pub const PROFILE_RANK: &[&str] = &["core", "standard", "full"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_the_peer_vocabulary() {
        assert_eq!(ConverterName::ALL.len(), 30);
        assert_eq!(LoopPoint::ALL.len(), 12);
        assert_eq!(KNOWN_HOST_BEHAVIORS.len(), 60);
        assert_eq!(KNOWN_REVIEWER_FIELDS.len(), 16);
        assert_eq!(HooksSurface::ALL.len(), 8);
        assert_eq!(InstallSurface::ALL.len(), 7);
    }

    #[test]
    fn from_str_reads_the_wire_spelling_and_names_a_value_it_cannot() {
        assert_eq!(
            "shell-var".parse::<CommandStyle>(),
            Ok(CommandStyle::ShellVar)
        );
        assert_eq!("local".parse::<Scope>(), Ok(Scope::Local));
        for member in ArtifactKindName::ALL {
            assert_eq!(member.to_string().parse::<ArtifactKindName>(), Ok(*member));
        }
        let err = "Shell-Var".parse::<CommandStyle>().unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidArgument);
        assert_eq!(
            err.message(),
            "unknown CommandStyle \"Shell-Var\", expected one of: slash-hyphen, shell-var"
        );
        assert_eq!(err.field(), None);
        // A scope fails as `parse_scope` does: its own code, on field `scope`.
        let err = "Global".parse::<Scope>().unwrap_err();
        assert_eq!(err, crate::scope::parse_scope("Global").unwrap_err());
        assert_eq!(err.code(), ErrorCode::InvalidScope);
        assert_eq!(err.field(), Some("scope"));
        // The value is shown as a JSON string, with control characters escaped.
        let err = "a\u{1b}[31m".parse::<Nesting>().unwrap_err();
        assert!(!err.message().contains('\u{1b}'), "{}", err.message());
    }

    #[test]
    fn host_behaviors_are_sorted_and_unique() {
        let mut sorted = KNOWN_HOST_BEHAVIORS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, KNOWN_HOST_BEHAVIORS);
    }

    #[test]
    fn parse_is_exact() {
        assert_eq!(Scope::parse("global"), Some(Scope::Global));
        assert_eq!(Scope::parse("GLOBAL"), None);
        assert_eq!(Scope::parse(" local"), None);
        assert_eq!(Scope::parse(""), None);
        assert_eq!(
            ConfigFormat::one_of(),
            "settings-json, toml, markdown, markdown-dir, none"
        );
    }

    #[test]
    fn scope_rank_orders_global_first() {
        assert!(Scope::Global.rank() > Scope::Local.rank());
        assert_eq!(Scope::ALL, &[Scope::Global, Scope::Local]);
    }
}
