// compat/runtime-artifact-install-plan.cjs equals the peer's: destination confinement, the
// install plan (results, path prefix and agent context handed to `stage`, the calls made
// back into the installer and their order) and the uninstall plan, for every runtime ×
// scope layout and odd layouts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome, outcome } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';

const ours = require('../compat/runtime-artifact-install-plan.cjs');
const theirs = peer('runtime-artifact-install-plan');
const layouts = peer('runtime-artifact-layout');

const ROOTS = ['/c', '/c/', 'rel/c', '/', '', '/home/u s/.x', '/c/../d', undefined, 5];
const SUBS = ['x', 'skills/', './skills/', '../c/x', '../d', '/c/x', '/etc', '.', '..', 'x/..', '', 'a\0b', 'C:\\x', 'a/b/../c', undefined, null, 5, ['a'], { toString: () => 'x' }];

test('runtime-artifact-install-plan: assertDestWithinConfigHome over roots × subpaths', () => {
  for (const root of ROOTS) {
    for (const sub of SUBS) {
      assertSameOutcome(() => ours.assertDestWithinConfigHome(root, sub), () => theirs.assertDestWithinConfigHome(root, sub), `${JSON.stringify(root)} ${JSON.stringify(sub)}`);
    }
  }
});

/**
 * A layout whose `stage` and rewriters record every call into `log` and behave as `plan`
 * says (`stageThrows`, `rewriteThrows`, `rewriteReturns` per kind name).
 */
function instrumented(layout, log, plan = {}) {
  const kinds = layout.kinds.map(({ stage, ...kind }) => ({
    ...kind,
    stage(profile, ctx) {
      log.push(['stage', kind.kind, profile, { ...ctx }]);
      if (plan.stageThrows === kind.kind) throw plan.stageError ?? new Error(`stage ${kind.kind} failed`);
      return `/staged/${kind.kind}`;
    },
  }));
  const rewriter = (name) => (dir, opts) => {
    log.push([name, dir, { ...opts }]);
    if (plan.rewriteThrows && dir.endsWith(plan.rewriteThrows)) throw 'rewrite refused';
    return plan.rewriteReturns?.[dir.split('/').pop()];
  };
  return {
    layout: { ...layout, kinds },
    deps: { rewriteStagedSkillBodies: rewriter('skills'), rewriteStagedCommandBodies: rewriter('commands') },
  };
}

/** Runs both modules' `createRuntimeArtifactInstallPlan` and compares results and call logs. */
function comparePlans(layout, args, plan, label) {
  const logs = [[], []];
  const run = (mod, log) => () => {
    const { layout: l, deps } = instrumented(layout, log, plan);
    return mod.createRuntimeArtifactInstallPlan({ ...args, layout: l, deps });
  };
  assertSameOutcome(run(ours, logs[0]), run(theirs, logs[1]), label);
  assert.deepStrictEqual(logs[0], logs[1], `${label}: calls into the installer`);
}

test('runtime-artifact-install-plan: install plans for every runtime × scope × home', () => {
  let cases = 0;
  for (const runtime of RUNTIMES) {
    for (const scope of ['global', 'local']) {
      for (const configDir of ['/h/.cfg', 'rel/cfg', '/h2/.cfg', '/h']) {
        const layout = layouts.resolveRuntimeArtifactLayout(runtime, configDir, scope);
        for (const home of ['/h', '/h/', '/other']) {
          const args = { resolvedProfile: { name: 'full' }, homedir: () => home, platform: 'linux', resolveAttribution: (r) => `attr:${r}`, projectDir: '/p' };
          comparePlans(layout, args, { rewriteReturns: { commands: '/rewritten/commands' } }, `${runtime} ${scope} ${configDir} ${home}`);
          comparePlans(layout, { ...args, projectDir: undefined, resolveAttribution: undefined }, {}, `${runtime} ${scope} ${configDir} ${home} bare`);
          cases += 2;
        }
        for (const kind of layout.kinds) {
          const args = { resolvedProfile: 'p', homedir: () => '/h' };
          comparePlans(layout, args, { stageThrows: kind.kind }, `${runtime} ${scope} stage ${kind.kind} throws`);
          comparePlans(layout, args, { stageThrows: kind.kind, stageError: 42 }, `${runtime} ${scope} stage ${kind.kind} throws a non-Error`);
          comparePlans(layout, args, { rewriteThrows: kind.kind, rewriteReturns: { commands: '/r/c' } }, `${runtime} ${scope} rewrite ${kind.kind} throws`);
          cases += 3;
        }
        assertSameOutcome(() => ours.createRuntimeArtifactUninstallPlan(layout), () => theirs.createRuntimeArtifactUninstallPlan(layout), `uninstall ${runtime} ${scope} ${configDir}`);
      }
    }
  }
  assert.ok(cases > 600, `matrix too small: ${cases}`);
});

test('runtime-artifact-install-plan: odd layouts (escaping destinations, homes, scopes, kinds)', () => {
  const base = { runtime: 'claude', configDir: '/c', scope: 'global' };
  const odd = [
    { ...base, kinds: [{ kind: 'commands', destSubpath: 'ok' }, { kind: 'agents', destSubpath: '../out' }] },
    { ...base, kinds: [{ kind: 'skills', destSubpath: 'skills', home: '/alt' }, { kind: 'kimi-agents', destSubpath: '' }] },
    { ...base, kinds: [{ kind: 'mystery', destSubpath: 'm' }, { kind: 'skills', destSubpath: 5 }] },
    { ...base, kinds: [{ kind: 'agents', destSubpath: 'a', home: null }] },
    { ...base, scope: undefined, kinds: [{ kind: 'commands', destSubpath: 'c' }] },
    { ...base, scope: 'LOCAL', kinds: [{ kind: 'commands', destSubpath: 'c' }] },
    { ...base, runtime: 'opencode', kinds: [{ kind: 'commands', destSubpath: 'c' }] },
    { ...base, configDir: undefined, kinds: [{ kind: 'commands', destSubpath: 'c' }] },
    { ...base, kinds: [] },
  ];
  for (const layout of odd) {
    const label = JSON.stringify(layout);
    comparePlans(layout, { resolvedProfile: null, homedir: () => '/c' }, {}, label);
    comparePlans(layout, { resolvedProfile: null }, {}, `${label} real home`);
    assertSameOutcome(() => ours.createRuntimeArtifactUninstallPlan(layout), () => theirs.createRuntimeArtifactUninstallPlan(layout), `uninstall ${label}`);
  }
});

test('runtime-artifact-install-plan: every peer export is provided', () => {
  assert.deepStrictEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
});

test('runtime-artifact-install-plan: a homedir() that is not a string fails where the peer fails on it', () => {
  const layout = layouts.resolveRuntimeArtifactLayout('claude', '/h/.claude', 'global');
  const kinds = layout.kinds.map(({ stage, ...kind }) => ({ ...kind, stage: () => '/staged' }));
  const deps = { rewriteStagedSkillBodies: () => null, rewriteStagedCommandBodies: () => null };
  for (const [i, home] of [5, null, undefined, {}, ['/h'], true, Symbol('s'), 10n, new String('/h')].entries()) {
    for (const scope of ['global', 'nope']) {
      const args = { layout: { ...layout, kinds, scope }, resolvedProfile: 'p', homedir: () => home, deps };
      const a = outcome(() => ours.createRuntimeArtifactInstallPlan(args));
      const b = outcome(() => theirs.createRuntimeArtifactInstallPlan(args));
      // The home is read before the scope: a bad home is the error even with a bad scope.
      assert.deepStrictEqual('error' in a ? a.error.type : a, 'error' in b ? b.error.type : b, `home #${i} ${scope}`);
      if (scope === 'nope' && 'error' in b && /scope|global/.test(b.error.message)) assert.equal(a.error.message, b.error.message);
    }
  }
  const args = { layout: { ...layout, kinds }, resolvedProfile: 'p', homedir: () => 5, deps };
  assert.throws(() => ours.createRuntimeArtifactInstallPlan(args), { name: 'TypeError', message: /homedir\(\) must be a string \(got number\)/ });
});

test('install plans: a lone surrogate in a kind name is read as the peer reads it', () => {
  const layout = { runtime: 'claude', configDir: '/home/u/.claude', scope: 'global', kinds: [{ kind: 'skills\uD800', destSubpath: 'skills', prefix: 'gsd-' }] };
  assertSameOutcome(() => ours.createRuntimeArtifactUninstallPlan(layout), () => theirs.createRuntimeArtifactUninstallPlan(layout), 'uninstall');
  assert.equal(ours.createRuntimeArtifactUninstallPlan(layout).items[0].kind, 'skills\uD800');
});

test('install plans: a kind or runtime that is not a string names no kind and no runtime, and the uninstall plan never reads the runtime', () => {
  const base = { configDir: '/h/.config/opencode', scope: 'global' };
  const odd = [
    { ...base, runtime: 'claude', kinds: [{ kind: ['commands'], destSubpath: 'c' }] },
    { ...base, runtime: 'claude', kinds: [{ kind: new String('skills'), destSubpath: 's' }] },
    { ...base, runtime: ['opencode'], kinds: [{ kind: 'agents', destSubpath: 'agents' }] },
    { ...base, runtime: new String('opencode'), kinds: [{ kind: 'agents', destSubpath: 'agents' }] },
    { ...base, runtime: Object.create(null), kinds: [{ kind: 'commands', destSubpath: 'c' }] },
  ];
  for (const layout of odd) {
    comparePlans(layout, { resolvedProfile: null, homedir: () => '/h' }, {}, String(layout.kinds[0].kind) + typeof layout.runtime);
    assertSameOutcome(() => ours.createRuntimeArtifactUninstallPlan(layout), () => theirs.createRuntimeArtifactUninstallPlan(layout), `uninstall ${typeof layout.runtime}`);
  }
  const throwing = { configDir: '/c', kinds: [{ kind: 'commands', destSubpath: 'c' }], get runtime() { throw new Error('runtime read'); } };
  assert.deepStrictEqual(ours.createRuntimeArtifactUninstallPlan(throwing), theirs.createRuntimeArtifactUninstallPlan(throwing));
});
