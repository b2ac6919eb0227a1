// resolveInstallPlan against the peer for the same runtime, scope, host and source inventory
// (the peer package's own commands and agents): the scope (provenance is ours: the peer has
// none), config intent, hooks, sandbox tier, command style, support tier, layout kinds,
// uninstall items, triggers and install manifest equal what the peer computes. Placements
// are the core's, compared file by file with the peer's real staging in
// core/tests/peer_placements.rs; here one is checked against the peer's layout by hand.
import test from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { require, peer, peerInventory, thrown, tempDir, npmDir } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';

const gsd = require('../index.js');
const peerScope = peer('install-scope');
const peerLayout = peer('runtime-artifact-layout');
const peerPlan = peer('runtime-artifact-install-plan');
const peerAdapter = peer('runtime-config-adapter-registry');
const peerRegistry = peer('capability-registry');

const inventory = peerInventory();
const { commands, routerStems, childToRouters } = inventory;

const HOSTS = [
  { label: 'plain', home: homedir(), cwd: '/work/project', env: {}, existingPaths: [] },
  { label: 'env overrides', home: homedir(), cwd: '/work/project', env: { CLAUDE_CONFIG_DIR: '~/alt-claude', CODEX_HOME: '/opt/codex', XDG_CONFIG_HOME: '/xdg', KIMI_CONFIG_DIR: '  ' }, existingPaths: [] },
  { label: 'probes exist', home: homedir(), cwd: '/work/project', env: {}, existingPaths: [join(homedir(), '.gemini/antigravity-cli/gsd-core/VERSION'), join(homedir(), '.agents/skills')] },
];

function peerScopeOf(runtime, scope, host) {
  const exists = new Set(host.existingPaths);
  return peerScope.resolveScope({ id: scope, runtime, home: host.home, cwd: host.cwd, env: host.env, existsSync: (p) => exists.has(p) });
}

test('plans equal the peer part by part: 18 runtimes × 2 scopes × 3 hosts, full inventory', () => {
  let plans = 0;
  for (const runtime of RUNTIMES.filter((r) => r !== 'vscode')) {
    for (const scope of ['global', 'local']) {
      for (const { label: hostLabel, ...host } of HOSTS) {
        const label = `${runtime} ${scope} ${hostLabel}`;
        const plan = gsd.resolveInstallPlan(runtime, scope, host, inventory);
        const { provenance, ...resolved } = plan.scope;
        assert.deepStrictEqual(resolved, { ...peerScopeOf(runtime, scope, host) }, `${label}: scope`);
        assert.equal(typeof provenance.source, 'string');

        const intent = peerAdapter.resolveInstallPlan(runtime);
        assert.deepStrictEqual(
          { installSurface: plan.config.installSurface, writesSharedSettings: plan.config.writesSharedSettings, permissionWriter: plan.config.permissionWriter },
          { installSurface: intent.installSurface, writesSharedSettings: intent.writesSharedSettings, permissionWriter: intent.finishPermissionWriter },
          `${label}: config`,
        );
        assert.deepStrictEqual(
          { ...plan.hooks, hookEvents: plan.hooks.hookEvents ?? undefined },
          { surface: intent.hooksSurface, hookEvents: intent.hookEvents, extendedHookEvents: intent.extendedHookEvents },
          `${label}: hooks`,
        );
        assert.equal(plan.sandboxTier, intent.sandboxTier);
        const descriptor = peerRegistry.runtimes[runtime].runtime;
        assert.equal(plan.commandStyle, descriptor.commandStyle, `${label}: command style`);
        assert.equal(plan.supportTier, descriptor.supportTier, `${label}: support tier`);

        const layout = peerLayout.resolveRuntimeArtifactLayout(runtime, plan.scope.configHome, scope);
        assert.deepStrictEqual(
          plan.kinds.map((k) => ({ kind: k.kind, destSubpath: k.destSubpath, prefix: k.prefix, ...(k.kind === 'skills' ? { converter: k.converter } : {}), ...(k.home ? { home: k.home } : {}) })),
          layout.kinds.map(({ stage, ...k }) => k),
          `${label}: kinds`,
        );
        assert.deepStrictEqual(plan.uninstall, peerPlan.createRuntimeArtifactUninstallPlan(layout).items, `${label}: uninstall`);
        assert.deepStrictEqual(plan.triggers, peerLayout.resolveTriggerSurface(runtime, [scope], { stems: commands, routerStems, childToRouters }), `${label}: triggers`);
        assert.deepStrictEqual(plan.installManifest, { manifestVersion: 2, runtime, scope });
        plans += 1;
      }
    }
  }
  assert.equal(plans, 18 * 2 * HOSTS.length);
});

test('a plan is a deep-frozen plain value, identical for identical input', () => {
  const { label: _label, ...host } = HOSTS[0];
  const a = gsd.resolveInstallPlan('codex', 'global', host, inventory);
  const b = gsd.resolveInstallPlan('codex', 'global', host, inventory);
  assert.deepStrictEqual(a, b);
  assert.equal(JSON.stringify(a), JSON.stringify(b));
  assert.ok(Object.isFrozen(a.placements[0]));
  assert.equal(Object.getPrototypeOf(a), Object.prototype);
});

test('placements: codex global skills go under the home .agents root with the codex converter', () => {
  const plan = gsd.resolveInstallPlan('codex', 'global', { home: '/h', cwd: '/w' }, { commands: ['help'], agents: ['gsd-planner'] });
  assert.deepStrictEqual(plan.placements[0], {
    kind: 'skills',
    stem: 'help',
    source: 'commands/gsd/help.md',
    destination: '/h/.agents/skills/gsd-help/SKILL.md',
    converter: 'convertClaudeCommandToCodexSkill',
  });
});

test('errors carry code and field', () => {
  const cases = [
    [() => gsd.resolveInstallPlan('nope', 'global'), 'UNKNOWN_RUNTIME', 'runtime'],
    [() => gsd.resolveInstallPlan('claude', 'GLOBAL'), 'INVALID_SCOPE', 'scope'],
    [() => gsd.resolveInstallPlan('vscode', 'global'), 'NO_CONFIG_HOME', 'runtime.configHome.kind'],
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w' }, { commands: ['../evil'] }), 'INVALID_ARGUMENT', null],
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w' }, { bogus: 1 }), 'INVALID_ARGUMENT', 'bogus'],
    [() => gsd.resolveInstallPlan('claude', 'global', { cwd: '/w' }), 'INVALID_ARGUMENT', 'host.home'],
    [() => gsd.resolveInstallPlan('claude', 'global', 'home'), 'INVALID_ARGUMENT', 'host'],
    [() => gsd.resolveInstallPlan(7, 'global'), 'INVALID_ARGUMENT', 'runtime'],
  ];
  for (const [call, code, field] of cases) {
    const err = thrown(call);
    assert.ok(err instanceof Error);
    assert.equal(err.code, code, err.message);
    if (field !== null) assert.equal(err.field, field, err.message);
    assert.ok(gsd.errorCodes.includes(err.code));
  }
});

test('the real host is read when none is given: HOME, environment and cwd of this process', (t) => {
  // In a process of our own, so the environment is known: a home, no override, then one.
  const home = tempDir(t);
  const cwd = tempDir(t);
  const script = `const g = require(${JSON.stringify(join(npmDir, 'index.js'))});
console.log(JSON.stringify([g.resolveInstallPlan('claude', 'local').scope.configHome, g.resolveScope('claude', 'global').configHome]));`;
  const run = (env) => {
    const child = spawnSync(process.execPath, ['-e', script], { cwd, env: { PATH: process.env.PATH, HOME: home, ...env }, encoding: 'utf8' });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout);
  };
  const expected = (env) =>
    ['local', 'global'].map((id) => peerScope.resolveScope({ id, runtime: 'claude', home, cwd, env, existsSync }).configHome);
  assert.deepStrictEqual(run({}), expected({}));
  assert.deepStrictEqual(run({}), [join(cwd, '.claude'), join(home, '.claude')]);
  assert.deepStrictEqual(run({ CLAUDE_CONFIG_DIR: '/elsewhere/claude' }), expected({ CLAUDE_CONFIG_DIR: '/elsewhere/claude' }));
});

test('shadowed triggers across scopes name their winner', () => {
  const triggers = gsd.resolveTriggerSurface('claude', ['local', 'global'], { stems: ['help'] });
  assert.deepStrictEqual(triggers, peerLayout.resolveTriggerSurface('claude', ['global', 'local'], { stems: ['help'] }));
  assert.deepStrictEqual(triggers[1].shadowedBy, { kind: 'skills', scope: 'global' });
});

test('an explicit config directory: the kinds the peer roots in the home directory, and only those, are said to be outside it', () => {
  const sandbox = '/tmp/gsd-core-sandbox';
  const host = { home: homedir(), cwd: '/work/project', env: {}, existingPaths: [] };
  let outside = 0;
  for (const runtime of RUNTIMES) {
    let plan;
    try {
      plan = gsd.resolveInstallPlan(runtime, 'global', host, { explicitDir: sandbox });
    } catch (err) {
      if (err.code === 'NO_CONFIG_HOME') continue;
      throw err;
    }
    // The peer installs a kind with a `home` root under it, whatever the config directory.
    const expected = peerLayout
      .resolveRuntimeArtifactLayout(runtime, sandbox, 'global')
      .kinds.filter((k) => k.home !== undefined)
      .map((k) => ({ kind: k.kind, destDir: join(k.home, k.destSubpath) }));
    const said = plan.diagnostics.filter((d) => d.code === 'placement_outside_explicit_dir');
    assert.deepStrictEqual(said.map((d) => d.detail), expected, runtime);
    for (const d of said) {
      assert.equal(d.field, 'explicitDir');
      assert.equal(d.message, `the ${d.detail.kind} directory "${d.detail.destDir}" is outside the explicit config directory "${sandbox}": the runtime's layout roots it in the home directory`);
    }
    outside += said.length;
  }
  // antigravity's skills and agents, codex's skills.
  assert.equal(outside, 3);
});
