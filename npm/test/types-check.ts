// Compile-only check that the public declarations are usable (run by `tsc --noEmit -p npm`).
import * as gsd from '../index.js';

const ids: string[] = gsd.firstPartyRegistry().runtimeIds();
const entry: gsd.RuntimeEntry | undefined = gsd.runtimes()[0];
const kind: gsd.ConfigHomeKind | undefined = entry?.descriptor.configHome.kind;
const code: gsd.ErrorCode | undefined = gsd.errorCodes[0];
export const used = [ids, kind, code];
