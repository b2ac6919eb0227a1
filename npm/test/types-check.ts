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
