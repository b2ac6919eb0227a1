/**
 * gsd-core: decides how GSD is installed into an AI coding host CLI.
 *
 * Every function returns deep-frozen plain objects. Failures are {@link GsdError}s.
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

/** A capability registry kept native. Obtain one from {@link firstPartyRegistry}. */
export declare class Registry {
  private constructor();
  /** Registered runtime ids, sorted. */
  runtimeIds(): string[];
  /** Diagnostics collected while building the registry. */
  diagnostics(): Diagnostic[];
}

/** The embedded first-party registry (46 capabilities, 19 runtimes), built once. */
export declare function firstPartyRegistry(): Registry;

/** Every registered runtime with its descriptor, sorted by id. */
export declare function runtimes(registry?: Registry): readonly RuntimeEntry[];
