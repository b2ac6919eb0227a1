// Asks the peer for install-resolution values: scopes, config homes, layouts, trigger
// surfaces, install intents and slash spellings. Input: { area, cases }; output: one result
// per case, in order. Each result is { ok: <value> } or { err: { class, message } }.
'use strict';
const path = require('node:path');
const lib = process.env.GSD_PEER_LIB;
const registry = require(path.join(lib, 'capability-registry.cjs'));
const scopeMod = require(path.join(lib, 'install-scope.cjs'));
const homes = require(path.join(lib, 'runtime-homes.cjs'));
const layoutMod = require(path.join(lib, 'runtime-artifact-layout.cjs'));
const adapter = require(path.join(lib, 'runtime-config-adapter-registry.cjs'));
const slash = require(path.join(lib, 'runtime-slash.cjs'));
const names = require(path.join(lib, 'runtime-name-policy.cjs'));
const installPlan = require(path.join(lib, 'runtime-artifact-install-plan.cjs'));

// existsSync built from the same set the Rust side passes as host.existingPaths; every
// probe is recorded so the test can compare it with our probe list.
function probeFrom(existing, calls) {
  const set = new Set(existing || []);
  return (p) => { calls.push(p); return set.has(p); };
}

function attempt(fn) {
  try {
    return { ok: fn() };
  } catch (err) {
    return { err: { class: err && err.constructor ? err.constructor.name : typeof err, message: String(err && err.message) } };
  }
}

const areas = {
  scope(c) {
    const calls = [];
    const input = { id: c.id, runtime: c.runtime, env: c.env, home: c.home, cwd: c.cwd, existsSync: probeFrom(c.existing, calls) };
    if (c.explicitDir !== null && c.explicitDir !== undefined) input.explicitDir = c.explicitDir;
    const result = attempt(() => ({ ...scopeMod.resolveScope(input) }));
    result.probes = calls;
    return result;
  },
  configHome(c) {
    const calls = [];
    const configHome = registry.runtimes[c.runtime].runtime.configHome;
    const result = attempt(() => homes.resolveConfigHomeFromDescriptor(configHome, { env: c.env, home: c.home, existsSync: probeFrom(c.existing, calls) }));
    result.probes = calls;
    return result;
  },
  layout(c) {
    // The peer reads the real home directory for layout `home`; point it at the case's home.
    process.env.HOME = c.home;
    return attempt(() => {
      const layout = layoutMod.resolveRuntimeArtifactLayoutFromRegistry(registry, c.runtime, c.configDir, c.scope);
      const kinds = layout.kinds.map((k) => { const { stage, ...rest } = k; return rest; });
      return { ...layout, kinds };
    });
  },
  trigger(c) {
    const opts = { stems: c.stems, routerStems: c.routerStems, childToRouters: c.childToRouters };
    return attempt(() => layoutMod.resolveTriggerSurface(c.runtime, c.scopes, opts));
  },
  intent(c) {
    return attempt(() => adapter.resolveInstallPlan(c.runtime));
  },
  confine(c) {
    const result = attempt(() => installPlan.assertDestWithinConfigHome(c.configDir, c.destSubpath));
    result.cwd = process.cwd();
    return result;
  },
  uninstall(c) {
    // The scope's config directory and the layout are the peer's own; HOME feeds layout `home`.
    process.env.HOME = c.home;
    return attempt(() => {
      const scope = scopeMod.resolveScope({ id: c.id, runtime: c.runtime, env: c.env, home: c.home, cwd: c.cwd, existsSync: () => false });
      const layout = layoutMod.resolveRuntimeArtifactLayoutFromRegistry(registry, c.runtime, scope.configHome, c.id);
      return installPlan.createRuntimeArtifactUninstallPlan(layout);
    });
  },
  names(c) {
    return attempt(() => ({
      canonical: names.canonicalizeRuntimeName(c.name),
      resolved: names.resolveRuntimeNameFromCandidates(c.name),
    }));
  },
  slash(c) {
    return attempt(() => slash.formatGsdSlash(c.name, c.runtime === null ? undefined : c.runtime));
  },
};

let raw = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const { area, cases } = JSON.parse(raw);
  const run = areas[area];
  if (!run) throw new Error(`unknown area ${area}`);
  process.stdout.write(JSON.stringify(cases.map(run)));
});
