// The scenario matrix shared by the compat parity tests: every runtime × host scenarios
// (environment overrides, probe paths existing on disk, odd homes and working directories).
import { peer, probedPaths } from './helpers.mjs';

const registry = peer('capability-registry');

/** Every runtime id of the peer registry (the 19). */
export const RUNTIMES = Object.keys(registry.runtimes);

/** The environment variables a runtime's configHome names (plus XDG_CONFIG_HOME). */
function envNames(id) {
  const home = registry.runtimes[id].runtime.configHome;
  return [...new Set([...(home.env ?? []), ...(home.skillsHome?.env ?? []), 'XDG_CONFIG_HOME'])];
}

const ENV_VALUES = ['/env/dir', '/env/dir/', '~/env/rel', '~', '~user/x', '   ', '', 'rel/dir', '/env/file.json'];

/**
 * Host scenarios for one runtime: `{ label, home, cwd, env, exists }` where `exists` is
 * the set of paths existsSync reports.
 * @param {string} id
 * @param {(opts: object) => unknown} peerCall the peer call whose probes define the disk scenarios
 */
export function hostScenarios(id, peerCall) {
  const out = [];
  const homes = ['/h', '/h/', '/home/u s'];
  const base = { home: '/h', cwd: '/w', env: {} };
  for (const home of homes) {
    for (const cwd of ['/w', 'rel/w', '/w/../x/']) out.push({ label: `home=${home} cwd=${cwd}`, home, cwd, env: {}, exists: [] });
  }
  for (const name of envNames(id)) {
    for (const value of ENV_VALUES) {
      out.push({ label: `${name}=${JSON.stringify(value)}`, ...base, env: { [name]: value }, exists: [] });
    }
  }
  const probes = probedPaths((existsSync) => peerCall({ ...base, existsSync }));
  for (const path of probes) out.push({ label: `exists ${path}`, ...base, exists: [path] });
  if (probes.length > 1) {
    out.push({ label: 'all probes exist', ...base, exists: probes });
    out.push({ label: 'last two probes exist', ...base, exists: probes.slice(-2) });
  }
  return out;
}

/** The peer-style options of a scenario (existsSync answers from the scenario's set). */
export function optionsOf(scenario) {
  const exists = new Set(scenario.exists);
  return { home: scenario.home, cwd: scenario.cwd, env: { ...scenario.env }, existsSync: (p) => exists.has(p) };
}
