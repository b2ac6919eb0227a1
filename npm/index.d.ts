/**
 * gsd-core: decides how GSD is installed into an AI coding host CLI.
 *
 * Every function returns deep-frozen plain objects (of the {@link Registry} methods,
 * `runtimeIds()` and `toPeerJson()` return a fresh mutable copy instead). Failures are
 * {@link GsdError}s: every error the package throws carries a `code` of {@link errorCodes}
 * and a `field`. A member an options bag or input does not know is an error naming it
 * (`INVALID_ARGUMENT`, field `explictDir`), never ignored; a member whose value is
 * `undefined` is absent.
 */

/** An `Error` raised by this package: `code` is stable, `field` names the input at fault. */
export interface GsdError extends Error {
  /** One of {@link errorCodes}, e.g. `"UNKNOWN_RUNTIME"`, `"INVALID_SCOPE"`. */
  readonly code: ErrorCode;
  /** The input field at fault (`"runtime"`, `"scope"`, `"host.home"`), or `null`. */
  readonly field: string | null;
}

/** Every code an error of this package may carry. */
export type ErrorCode =
  | 'NULL_ARGUMENT'
  | 'INVALID_UTF8'
  | 'PANIC'
  | 'INVALID_ARGUMENT'
  | 'UNKNOWN_RUNTIME'
  | 'NO_CONFIG_HOME'
  | 'INVALID_SCOPE'
  | 'DESTINATION_OUTSIDE_CONFIG_HOME'
  | 'INVALID_HOST'
  | 'INVALID_DESCRIPTOR'
  | 'MANIFEST_TOO_LARGE'
  | 'MANIFEST_TOO_DEEP'
  | 'MANIFEST_INVALID_JSON'
  | 'MANIFEST_INVALID';

/** The error code table, in table order. */
export declare const errorCodes: readonly ErrorCode[];

/** An install scope: `global` (the runtime's config home) or `local` (the project). */
export type Scope = 'global' | 'local';

/** Kinds of config-home discovery. */
export type ConfigHomeKind = 'dot-home' | 'dot-home-nested' | 'xdg' | 'generic-agents-root' | 'none';

/** `runtime.configHome`: where a runtime's global config directory is. */
export interface ConfigHome {
  readonly kind: ConfigHomeKind;
  readonly name: string | null;
  readonly parent: string | null;
  readonly env: readonly string[];
  readonly probe: readonly string[] | null;
  readonly probeExists: string | null;
  readonly skillsHome: ConfigHome | null;
}

/** One artifact placement rule of a runtime layout. */
export interface LayoutEntry {
  readonly kind: 'commands' | 'skills' | 'agents' | 'kimi-agents';
  readonly destSubpath: string;
  readonly prefix: string;
  readonly nesting: 'flat' | 'nested';
  readonly recursive: boolean;
  readonly converter: string | null;
  readonly home: string | null;
}

/** The typed runtime descriptor (the `runtime` body of a runtime capability). */
export interface RuntimeDescriptor {
  readonly configHome: ConfigHome;
  readonly localConfigDir: string | null;
  readonly configFormat: string;
  readonly artifactLayout: { readonly global: readonly LayoutEntry[]; readonly local: readonly LayoutEntry[] };
  readonly triggerPrecedence: readonly ('skills' | 'commands')[];
  readonly commandStyle: 'slash-hyphen' | 'shell-var';
  readonly hooksSurface: string;
  readonly hookEvents: string | null;
  readonly sandboxTier: string;
  readonly supportTier: number;
  readonly installSurface: string;
  readonly writesSharedSettings: boolean;
  readonly permissionWriter: string | null;
  readonly extendedHookEvents: readonly string[];
  readonly extensionEvents: string | null;
  readonly hostIntegration: unknown;
  /** The known host behaviours only (unknown keys are warned about and ignored; the manifest itself keeps them). */
  readonly hostBehaviors: Readonly<Record<string, unknown>> | null;
  readonly orchestratorExec: unknown;
  readonly harnessIsolationFlag: string | null;
}

/** A registered runtime. */
export interface RuntimeEntry {
  readonly id: string;
  readonly descriptor: RuntimeDescriptor;
}

/** A typed finding (never a failure). */
export interface Diagnostic {
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'info';
  readonly capabilityId?: string;
  readonly field?: string;
  readonly message: string;
  readonly detail?: unknown;
}

/** One third-party overlay folder given as data. */
export interface OverlayFolder {
  /** Folder name (must equal the manifest id). */
  folder: string;
  /** `capability.json` text. */
  manifest: string;
  /** Other files of the folder by relative path (`fragments/plan-pre.md`). */
  fragments?: Record<string, string> | undefined;
}

/** A capability registry kept native. Obtain one from {@link firstPartyRegistry} or {@link buildRegistry}. */
export declare class Registry {
  private constructor();
  /** Registered runtime ids, sorted (a fresh, mutable array on every call). */
  runtimeIds(): string[];
  /** Diagnostics collected while building the registry (rejected overlays); deep-frozen. */
  diagnostics(): readonly Diagnostic[];
  /** The registry in the peer's compiled `capability-registry` object shape (data only; a fresh, mutable object on every call). */
  toPeerJson(): Record<string, unknown>;
  /** Every registered runtime with its descriptor, sorted by id; deep-frozen (as {@link runtimes}). */
  runtimes(): readonly RuntimeEntry[];
  /** Every id reachable from `id` through `requires`; frozen. */
  requiresClosure(id: string): readonly string[];
  /** A new registry: this one plus overlay folders (checked as {@link buildRegistry} checks them). */
  withOverlays(overlays: readonly OverlayFolder[]): Registry;
}

/** The embedded first-party registry (46 capabilities, 19 runtimes), built once. */
export declare function firstPartyRegistry(): Registry;

/** Every registered runtime with its descriptor, sorted by id. */
export declare function runtimes(registry?: Registry): readonly RuntimeEntry[];

/** The closed vocabularies of the manifest format by enum name, in the peer's order. */
export declare const vocabulary: Readonly<Record<string, readonly string[]>>;

/** Host facts as plain data. Omit the host to read the real machine. */
export interface Host {
  /** The user's home directory (absolute). */
  home: string;
  /** The working directory (the project root for `local`). */
  cwd: string;
  /**
   * Environment snapshot; only variables a descriptor names decide anything, but a plan
   * refuses any value holding NUL (`INVALID_HOST`, no real environment can hold one).
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Probe paths that exist, spelled as the core lists them. */
  existingPaths?: readonly string[] | ReadonlySet<string> | undefined;
}

/** Which rule decided a config directory. */
export type Provenance =
  | { readonly source: 'explicitDir'; readonly value: string }
  | { readonly source: 'envVar'; readonly name: string; readonly value: string }
  | { readonly source: 'probe'; readonly candidate: string; readonly marker: string | null }
  | { readonly source: 'probeFallback'; readonly candidate: string }
  | { readonly source: 'default' }
  | { readonly source: 'projectDir'; readonly cwd: string; readonly localConfigDir: string };

/** One resolved install scope. */
export interface ResolvedScope {
  readonly id: Scope;
  readonly configHome: string;
  readonly settingsFile: string | null;
  readonly consentRequired: boolean;
  readonly hostPrecedenceRank: number;
  readonly provenance: Provenance;
}

/** Options shared by the resolvers. */
export interface RegistryOption {
  /** The registry to resolve against; default: the first-party registry. */
  registry?: Registry | null | undefined;
}

/** Resolves one install scope of a runtime. */
export declare function resolveScope(
  runtime: string,
  scope: Scope,
  host?: Host | null,
  options?: RegistryOption & { explicitDir?: string | null | undefined },
): ResolvedScope;

/** The global config directory of a runtime and the rule that decided it. */
export declare function resolveConfigHome(
  runtime: string,
  host?: Host | null,
  options?: RegistryOption,
): { readonly configHome: string; readonly provenance: Provenance };

/** One resolved artifact kind of a layout. */
export interface ArtifactKind {
  readonly kind: LayoutEntry['kind'];
  readonly destSubpath: string;
  readonly prefix: string;
  readonly nesting: 'flat' | 'nested';
  readonly recursive: boolean;
  readonly converter: string | null;
  readonly home?: string | null;
  /** Absolute destination directory, confined to its root. */
  readonly destDir: string;
}

/** The artifact layout of a runtime at a scope. */
export interface Layout {
  readonly runtime: string;
  readonly configDir: string;
  readonly scope: Scope;
  readonly kinds: readonly ArtifactKind[];
}

/** The artifact layout of a runtime at a scope, rooted at `configDir`. */
export declare function resolveLayout(
  runtime: string,
  configDir: string,
  scope: Scope,
  host?: Host | null,
  options?: RegistryOption,
): Layout;

/** One trigger the user may type, and who wins it. */
export interface Trigger {
  readonly trigger: string;
  readonly kind: 'skills' | 'commands';
  readonly scope: Scope;
  readonly destPath: string;
  readonly registration: 'direct' | 'via-router';
  readonly routerTrigger: string | null;
  /** The winner, when this candidate is shadowed. */
  readonly shadowedBy: { readonly kind: 'skills' | 'commands'; readonly scope: Scope } | null;
}

/** The source inventory the triggers are computed from. */
export interface TriggerInput {
  /** The command stems; absent: no triggers (`[]`), as the peer answers. */
  stems?: readonly string[] | undefined;
  routerStems?: readonly string[] | undefined;
  childToRouters?: Readonly<Record<string, readonly string[]>> | undefined;
}

/** The trigger surface of a runtime across scopes; every shadowed trigger names its winner. */
export declare function resolveTriggerSurface(
  runtime: string,
  scopes: readonly Scope[],
  input: TriggerInput,
  options?: RegistryOption,
): readonly Trigger[];

declare const inventoryBrand: unique symbol;

/**
 * A source inventory from {@link inventory}: a frozen copy of the lists, whose stems the
 * core checked once and keeps natively for any number of plans.
 */
export interface Inventory {
  /** Command stems (`commands/gsd/<stem>.md`). */
  readonly commands: readonly string[];
  /** Agent stems (`agents/<stem>.md`). */
  readonly agents: readonly string[];
  /** Router command stems (`ns-*`). */
  readonly routerStems: readonly string[];
  /** Routed child stem → owning routers, first owner first. */
  readonly childToRouters: Readonly<Record<string, readonly string[]>>;
  /** Only objects returned by {@link inventory} are inventories (a plain copy is refused). */
  readonly [inventoryBrand]: true;
}

/** The lists of a source inventory, as given to {@link inventory} or to a plan directly. */
export interface InventoryInput {
  /** Command stems of the source inventory (`commands/gsd/<stem>.md`). */
  commands?: readonly string[] | undefined;
  /** Agent stems of the source inventory (`agents/<stem>.md`). */
  agents?: readonly string[] | undefined;
  /** Router command stems (`ns-*`). */
  routerStems?: readonly string[] | undefined;
  /** Routed child stem → owning routers, first owner first. */
  childToRouters?: Readonly<Record<string, readonly string[]>> | undefined;
}

/**
 * A source inventory checked once (an invalid stem throws `INVALID_ARGUMENT` naming it)
 * and kept natively, for plans given `{ inventory }`: they send no stems, and compute
 * `placements`, `triggers` and `diagnostics` only when read.
 */
export declare function inventory(input?: InventoryInput): Inventory;

/**
 * Install-profile allow-lists: the skills (command stems) and agents to install; a list
 * omitted or `null` installs everything of its class.
 */
export interface ProfileSelection {
  skills?: readonly string[] | null | undefined;
  agents?: readonly string[] | null | undefined;
}

/** Inputs of a plan besides runtime, scope, host and the inventory. */
interface PlanOptionsBase extends RegistryOption {
  /** Explicit config directory (`--config-dir`). */
  explicitDir?: string | null | undefined;
  /**
   * The install profile: a {@link resolveProfile} result as it is (`skills: '*'`, the
   * `full` profile, restricts nothing), or the allow-lists themselves. Omitted or `null`:
   * everything.
   */
  profile?: ResolvedProfile | ProfileSelection | null | undefined;
}

/** A plan over the lists themselves (they cross on every call). */
export interface RawInventoryPlanOptions extends PlanOptionsBase, InventoryInput {
  inventory?: null | undefined;
}

/** A plan over an {@link Inventory} (the fast path); the raw lists may not be given too. */
export interface InventoryPlanOptions extends PlanOptionsBase {
  /** From {@link inventory}. */
  inventory: Inventory;
  commands?: undefined;
  agents?: undefined;
  routerStems?: undefined;
  childToRouters?: undefined;
}

/** Inputs of a plan besides runtime, scope and host. */
export type PlanOptions = RawInventoryPlanOptions | InventoryPlanOptions;

/**
 * The install plan for one runtime at one scope: a frozen plain object.
 *
 * Over raw lists, `kinds`, `placements`, `uninstall`, `triggers` and `diagnostics` are
 * enumerable getters that parse their section on first read and then return the same
 * deep-frozen value. Over an {@link Inventory}, the call decides the plan (errors raise
 * there) and only the lengths cross: `placements`, `triggers` and `diagnostics` are lazy
 * frozen arrays (Proxies: `Array.isArray` is true, `length` is known at once, any other
 * access computes the list once), and `scope`, `kinds` and `uninstall` lazy frozen values
 * filled together on the first access into any of them; `structuredClone` refuses them,
 * JSON and spreading do not.
 */
export interface Plan {
  readonly runtime: string;
  readonly scope: ResolvedScope;
  readonly commandStyle: RuntimeDescriptor['commandStyle'];
  readonly config: {
    readonly installSurface: string;
    readonly configFormat: string;
    readonly writesSharedSettings: boolean;
    readonly permissionWriter: string | null;
  };
  readonly hooks: { readonly surface: string; readonly hookEvents: string | null; readonly extendedHookEvents: readonly string[] };
  readonly sandboxTier: string;
  readonly supportTier: number;
  readonly kinds: readonly ArtifactKind[];
  readonly placements: readonly {
    readonly kind: LayoutEntry['kind'];
    readonly stem: string;
    readonly source: string;
    readonly destination: string;
    readonly converter: string | null;
  }[];
  readonly uninstall: readonly { readonly kind: LayoutEntry['kind']; readonly destDir: string }[];
  readonly triggers: readonly Trigger[];
  readonly installManifest: { readonly manifestVersion: number; readonly runtime: string; readonly scope: Scope };
  readonly diagnostics: readonly Diagnostic[];
}

/** The install plan of a runtime at a scope. */
export declare function resolveInstallPlan(runtime: string, scope: Scope, host?: Host | null, options?: PlanOptions): Plan;

/** The config-writing, hooks and sandbox intent of a runtime. */
export interface InstallIntent {
  readonly runtime: string;
  readonly installSurface: string;
  readonly writesSharedSettings: boolean;
  readonly finishPermissionWriter: string | null;
  readonly hookEvents?: string;
  readonly extendedHookEvents: readonly string[];
  readonly hooksSurface: string;
  readonly sandboxTier: string;
}

/** The config-writing, hooks and sandbox intent of a runtime. */
export declare function installIntent(runtime: string, options?: RegistryOption): InstallIntent;

/**
 * Spells a GSD command for a runtime: `/gsd-plan-phase`, or `$gsd-plan-phase` for codex;
 * with `registry`, an overlay runtime's `commandStyle` counts. A runtime the registry does
 * not hold is spelled `/gsd-…`, as the peer spells it.
 */
export declare function formatGsdSlash(commandName: string, runtime?: string, options?: RegistryOption): string;

/** Validates one capability manifest (JSON text or object) against its folder id. */
export declare function validateCapability(manifest: string | object, folder: string): readonly Diagnostic[];

/** The typed warning records of one capability manifest. */
export declare function warningRecords(manifest: string | object): readonly Diagnostic[];

/** The bounds a manifest text is checked against before it is parsed. */
export declare const manifestLimits: Readonly<{ maxBytes: number; maxDepth: number }>;

/** One scope record of an installed runtime. */
export interface InstalledScope {
  readonly scope: Scope;
  readonly configHome: string;
  readonly installed: boolean;
  readonly manifestVersion: number | null;
  readonly declaredRuntime: string | null;
  readonly declaredScope: Scope | null;
  readonly declaredScopeMatchesProbe: boolean | null;
  readonly declaredRuntimeMatchesProbe: boolean | null;
  readonly stems: readonly string[];
}

/** One runtime's installed surface. */
export interface InstalledRuntimeSurface {
  readonly runtime: string;
  readonly scopes: readonly InstalledScope[];
  readonly triggers: readonly Trigger[];
}

/** What the edge found at each config home (pass as data to skip reading the disk). */
export interface SurfaceFacts {
  homes: Record<
    string,
    {
      configHomeIsSymlink?: boolean | undefined;
      manifestIsSymlink?: boolean | undefined;
      manifest?: string | null | undefined;
      /** Why a manifest that is there was not read (`a directory, not a regular file`, an OS error); reported as `install_manifest_unreadable`. */
      manifestUnreadable?: string | null | undefined;
    }
  >;
}

/** Installed surfaces of one runtime, or of every registered runtime when omitted. */
export declare function resolveInstalledSurfaces(
  runtime?: string | null,
  host?: Host | null,
  options?: RegistryOption & { facts?: SurfaceFacts | null | undefined },
): { readonly surfaces: readonly InstalledRuntimeSurface[]; readonly diagnostics: readonly Diagnostic[] };

/** Which installed triggers hide which. */
export interface ShadowReport {
  readonly runtime: string;
  readonly reason: 'not_shadowed' | 'scope_shadowed' | 'resolver_unavailable';
  readonly shadowed: boolean;
  readonly winner: { readonly kind: 'skills' | 'commands'; readonly scope: Scope } | null;
  readonly shadowedSide: { readonly kind: 'skills' | 'commands'; readonly scope: Scope } | null;
  readonly kindsDiffer: boolean;
  readonly triggers: readonly {
    readonly trigger: string;
    readonly winnerKind: 'skills' | 'commands';
    readonly winnerScope: Scope;
    readonly shadowedKind: 'skills' | 'commands';
    readonly shadowedScope: Scope;
  }[];
  readonly mismatches: readonly {
    readonly scope: Scope;
    readonly declaredRuntime: string | null;
    readonly declaredRuntimeMatchesProbe: boolean | null;
    readonly declaredScope: Scope | null;
    readonly declaredScopeMatchesProbe: boolean | null;
  }[];
}

/** The shadow report of a runtime and its rendered lines. */
export declare function buildShadowReport(
  runtime: string,
  host?: Host | null,
  options?: RegistryOption & { facts?: SurfaceFacts | null | undefined; sampleLimit?: number | null | undefined },
): { readonly report: ShadowReport; readonly lines: readonly string[] };

/** A registry: the first-party capabilities plus overlay folders (rejections in diagnostics()). */
export declare function buildRegistry(overlays: readonly OverlayFolder[], options?: RegistryOption): Registry;

/**
 * A resolved install profile. `skills` and `agents` list each stem once, in the order the
 * peer's installer collects them (each mode's list, then its `requires:` closure; agents
 * skill by skill).
 */
export interface ResolvedProfile {
  readonly name: string;
  readonly skills: '*' | readonly string[];
  readonly agents: readonly string[];
}

/**
 * Resolves an install profile over a GSD source tree given as data. As the peer installer
 * resolves it, a mode no profile knows (`'cor'`) is dropped, and modes that select
 * nothing resolve to `full` (`skills: '*'`, everything): check names against
 * `vocabulary.profileRank` first when they come from a user, as the CLI does.
 */
export declare function resolveProfile(
  modes: readonly string[],
  sources: { commands: readonly { stem: string; body: string }[]; workflows?: readonly { path: string; body: string }[] },
  options?: RegistryOption,
): ResolvedProfile;

/**
 * The `requires:` list of a command file's front matter, as the peer's pattern reads it:
 * the inline form (`requires: [a, b]`); a YAML block list is not understood (its first
 * line comes back as one item, `- a`).
 */
export declare function parseRequires(text: string): readonly string[];

/**
 * Loads an overlay root folder from disk (each entry a capability folder): symbolic links,
 * FIFOs, sockets, devices, non-UTF-8 files and oversized folders are refused with a
 * diagnostic, never followed or opened. `diagnostics` holds the loader's refusals (in
 * bytewise folder order) followed by the registry's own. Throws `INVALID_ARGUMENT`
 * (field `dir`) when `dir` is not a non-empty string without lone surrogate or NUL, or not
 * a real directory; (field `options`, or the member's name) when `options` is not an
 * object or holds a member other than `registry`, before anything is read.
 */
export declare function loadOverlayDir(dir: string, options?: RegistryOption): { readonly registry: Registry; readonly diagnostics: readonly Diagnostic[] };
