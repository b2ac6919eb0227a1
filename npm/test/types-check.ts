// Compile-only check that the public declarations are usable (run by `tsc --noEmit -p npm`).
import * as gsd from '../index.js';

const ids: string[] = gsd.firstPartyRegistry().runtimeIds();
const entry: gsd.RuntimeEntry | undefined = gsd.runtimes()[0];
const kind: gsd.ConfigHomeKind | undefined = entry?.descriptor.configHome.kind;
const code: gsd.ErrorCode | undefined = gsd.errorCodes[0];
export const used = [ids, kind, code];

const plan: gsd.Plan = gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w' }, { commands: ['help'] });
const shadowed: boolean = plan.triggers.some((t) => t.shadowedBy !== null);
const scope: gsd.ResolvedScope = gsd.resolveScope('codex', 'local', null, { explicitDir: '~/x' });
const source: gsd.Provenance['source'] = scope.provenance.source;
const diagnostics: readonly gsd.Diagnostic[] = gsd.validateCapability('{}', 'x');
export const more = [shadowed, source, diagnostics, gsd.formatGsdSlash('help', 'codex')];

const registry: gsd.Registry = gsd.buildRegistry([{ folder: 'x', manifest: '{}' }]);
// A read-only list of folders is taken, as the runtime takes it.
const folders: readonly gsd.OverlayFolder[] = Object.freeze([{ folder: 'y', manifest: '{}' }]);
const extended: gsd.Registry = registry.withOverlays(folders);
void gsd.buildRegistry(folders);
void extended;
const installed = gsd.resolveInstalledSurfaces(undefined, null, { registry });
const firstScope: gsd.InstalledScope | undefined = installed.surfaces[0]?.scopes[0];
const report: gsd.ShadowReport = gsd.buildShadowReport('claude', null, { sampleLimit: 3 }).report;
const profile: gsd.ResolvedProfile = gsd.resolveProfile(['core'], { commands: [{ stem: 'help', body: '' }] });
const limits: number = gsd.manifestLimits.maxBytes;
export const rest = [firstScope, report.reason, profile.skills, limits, gsd.parseRequires('---\nrequires: [a]\n---')];

const held: gsd.Inventory = gsd.inventory({ commands: ['help'], childToRouters: { help: ['ns-x'] } });
const lazyPlan: gsd.Plan = gsd.resolveInstallPlan('claude', 'global', null, { inventory: held, explicitDir: '/x' });
const count: number = lazyPlan.triggers.length + held.commands.length;
// @ts-expect-error an inventory and raw lists together are refused
gsd.resolveInstallPlan('claude', 'global', null, { inventory: held, commands: ['help'] });
// @ts-expect-error a plain object is not an inventory
gsd.resolveInstallPlan('claude', 'global', null, { inventory: { commands: [], agents: [], routerStems: [], childToRouters: {} } });
export const lazy = [count];

// Under exactOptionalPropertyTypes (on in tsconfig.json): `undefined` is accepted wherever
// the runtime reads it as absent, and an environment shaped as `process.env` is a host env.
const env: { [name: string]: string | undefined } = { HOME: '/h', UNSET: undefined };
const explicitNothing = gsd.resolveScope('claude', 'global', { home: '/h', cwd: '/w', env }, { explicitDir: undefined, registry: undefined });
const nullOptions = gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w', existingPaths: undefined }, { explicitDir: null, registry: null, profile: undefined, commands: undefined });
const shadowOptions = gsd.buildShadowReport('claude', null, { sampleLimit: undefined, facts: undefined });
export const optional = [explicitNothing.configHome, nullOptions.runtime, shadowOptions.lines];
