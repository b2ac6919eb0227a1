// compat/runtime-artifact-layout.cjs equals the peer's pure layout / trigger functions.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome, outcome, thrown } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';

const ours = require('../compat/runtime-artifact-layout.cjs');
const theirs = peer('runtime-artifact-layout');
const registry = peer('capability-registry');

/** A layout with the IO `stage` functions dropped (ours are the installer's own, see below). */
function withoutStage(layout) {
  return { ...layout, kinds: layout.kinds.map(({ stage, ...kind }) => kind) };
}

test('runtime-artifact-layout: layouts for 19 runtimes × scopes × config dirs', () => {
  for (const runtime of [...RUNTIMES, 'nope', '__proto__', 42]) {
    for (const scope of ['global', 'local', undefined, 'GLOBAL', 1]) {
      for (const configDir of ['/h/.claude', 'rel/dir', '/h/x/../y/', '', 7, undefined]) {
        assertSameOutcome(
          () => withoutStage(ours.resolveRuntimeArtifactLayoutFromRegistry(registry, runtime, configDir, scope)),
          () => withoutStage(theirs.resolveRuntimeArtifactLayoutFromRegistry(registry, runtime, configDir, scope)),
          `${String(runtime)} ${String(scope)} ${String(configDir)}`,
        );
        assertSameOutcome(
          () => withoutStage(ours.resolveRuntimeArtifactLayout(runtime, configDir, scope)),
          () => withoutStage(theirs.resolveRuntimeArtifactLayout(runtime, configDir, scope)),
          `plain ${String(runtime)} ${String(scope)} ${String(configDir)}`,
        );
      }
    }
  }
});

const STEM_SETS = [
  { stems: ['plan-phase', 'help'] },
  { stems: [] },
  {},
  { stems: ['ns-review', 'code-review', 'help'], routerStems: ['ns-review'], childToRouters: { 'code-review': ['ns-review', 'ns-other'] } },
  { stems: ['ns-a', 'x', 'y'], routerStems: ['ns-a'], childToRouters: { x: ['ns-missing'], y: ['ns-a'] } },
];
const SCOPE_SETS = [['global'], ['local'], ['global', 'local'], ['local', 'global', 'local'], [], ['project'], ['global', undefined], [1]];

test('runtime-artifact-layout: trigger surfaces with shadowing and routers', () => {
  for (const runtime of [...RUNTIMES, 'nope']) {
    for (const scopes of SCOPE_SETS) {
      for (const opts of STEM_SETS) {
        assertSameOutcome(
          () => ours.resolveTriggerSurface(runtime, scopes, opts),
          () => theirs.resolveTriggerSurface(runtime, scopes, opts),
          `${runtime} ${JSON.stringify(scopes)} ${JSON.stringify(opts)}`,
        );
      }
    }
  }
  assertSameOutcome(() => ours.resolveTriggerSurface('claude', ['global']), () => theirs.resolveTriggerSurface('claude', ['global']), 'no opts');
});

test('runtime-artifact-layout: childToRouters is read as the peer reads it, whatever its shape', () => {
  // The peer reads a stem's member only for a kind that nests, takes its first item, and
  // routes the stem when that item is a router stem (compared as given): every other
  // shape is "not routed", never an error.
  const shapes = [{ y: 'zz' }, { x: null }, { x: 'r' }, { x: [5] }, { x: ['5'] }, { x: { 0: 'r', length: 1 } }, [['r']], 'str', 7, null, { x: ['q', 'r'] }, { x: ['r'], constructor: ['r'] }, { x: [] }];
  const routers = [['r'], [5], ['r', 'q'], []];
  for (const runtime of ['claude', 'zcode', 'augment', 'opencode']) {
    for (const childToRouters of shapes) {
      for (const routerStems of routers) {
        const opts = { stems: ['x', 'r', 5, 'constructor'], routerStems, childToRouters };
        assertSameOutcome(
          () => ours.resolveTriggerSurface(runtime, ['global', 'local'], opts),
          () => theirs.resolveTriggerSurface(runtime, ['global', 'local'], opts),
          `${runtime} ${JSON.stringify(routerStems)} ${JSON.stringify(childToRouters)}`,
        );
      }
    }
  }
  // A runtime given as another type is handed back as it was given, as the peer does.
  assertSameOutcome(
    () => withoutStage(ours.resolveRuntimeArtifactLayout(['claude'], '/cfg', 'global')),
    () => withoutStage(theirs.resolveRuntimeArtifactLayout(['claude'], '/cfg', 'global')),
    "['claude']",
  );
});

test('runtime-artifact-layout: command file-name rules', () => {
  for (const kind of ['commands', 'skills', 'agents', 'kimi-agents', 'x']) {
    for (const dest of ['commands/gsd', 'commands/gsd/', 'commands', 'gsd', 'command\\gsd', 'prompts']) {
      for (const prefix of ['gsd-', 'gsd', '', undefined, 'gsd--']) {
        assert.equal(ours.isNamespacedByDir(kind, dest, prefix), theirs.isNamespacedByDir(kind, dest, prefix), `${kind} ${dest} ${prefix}`);
      }
    }
  }
  for (const ns of [true, false]) {
    assert.equal(ours.composeCommandFilename(ns, 'gsd-', 'help'), theirs.composeCommandFilename(ns, 'gsd-', 'help'));
  }
});

test("runtime-artifact-layout: kinds carry the installer's stage at the peer's key position", () => {
  let staged = 0;
  for (const runtime of RUNTIMES) {
    for (const scope of ['global', 'local']) {
      const a = ours.resolveRuntimeArtifactLayout(runtime, '/h/x', scope);
      const b = theirs.resolveRuntimeArtifactLayout(runtime, '/h/x', scope);
      assert.deepStrictEqual(a.kinds.map((k) => Object.keys(k)), b.kinds.map((k) => Object.keys(k)), `${runtime} ${scope}`);
      for (const k of a.kinds) {
        assert.equal(typeof k.stage, 'function', `${runtime} ${scope} ${k.kind}`);
        staged += 1;
      }
    }
  }
  assert.ok(staged > 40, `kinds with a stage: ${staged}`);
});

/** The outcome's value, or only its error class (where our message is our own). */
function shape(fn) {
  const o = outcome(fn);
  return 'error' in o ? { threw: o.error.type } : o;
}

test('runtime-artifact-layout: resolveTriggerSurface looks the runtime and scopes up before it reads the stems', () => {
  const notIterable = [5, {}, true];
  let answered = 0;
  for (const runtime of ['claude', 'codex', 'opencode', 'nope']) {
    for (const scopes of [[], ['global'], ['local'], ['project'], ['global', 'local']]) {
      for (const [i, stems] of [...notIterable, [Symbol('s')], ['help', 7]].entries()) {
        for (const routerStems of [undefined, 5, ['ns-a']]) {
          const opts = { stems, routerStems };
          const label = `${runtime} ${JSON.stringify(scopes)} stems#${i} ${String(routerStems)}`;
          const a = outcome(() => ours.resolveTriggerSurface(runtime, scopes, opts));
          const b = outcome(() => theirs.resolveTriggerSurface(runtime, scopes, opts));
          assert.equal(a.error?.type, b.error?.type, label);
          // Our own checks come last: until the stems are read, each error is the peer's.
          if (b.error && !/iterable|Symbol/.test(b.error.message)) assert.deepStrictEqual(a, b, label);
          if (!b.error) {
            assert.deepStrictEqual(a, b, label);
            answered += 1;
          }
        }
      }
    }
  }
  // An unknown runtime is named as unknown whatever the stems are.
  assert.match(thrown(() => ours.resolveTriggerSurface('nope', ['global'], { stems: 5 })).message, /Unknown runtime: 'nope'/);
  // With no scope selected the stems are never read: the peer answers [] for any stems.
  assert.deepStrictEqual(ours.resolveTriggerSurface('claude', [], { stems: 5 }), []);
  assert.ok(answered > 0, 'some calls answer');
});

test('runtime-artifact-layout: file-name rules fail on the values the peer fails on', () => {
  const values = [5, 0, true, {}, ['commands/gsd'], null, undefined, Symbol('s'), 10n, new String('commands/gsd'), '', 'gsd-'];
  for (const v of values) {
    for (const kind of ['commands', new String('commands'), 5]) {
      assert.deepStrictEqual(shape(() => ours.isNamespacedByDir(kind, v, 'gsd-')), shape(() => theirs.isNamespacedByDir(kind, v, 'gsd-')), `dest ${String(v)}`);
      assert.deepStrictEqual(shape(() => ours.isNamespacedByDir(kind, 'commands/gsd', v)), shape(() => theirs.isNamespacedByDir(kind, 'commands/gsd', v)), `prefix ${String(v)}`);
    }
    for (const ns of [true, false]) {
      assert.deepStrictEqual(shape(() => ours.composeCommandFilename(ns, v, 'help')), shape(() => theirs.composeCommandFilename(ns, v, 'help')), `${ns} prefix ${String(v)}`);
      assert.deepStrictEqual(shape(() => ours.composeCommandFilename(ns, 'gsd-', v)), shape(() => theirs.composeCommandFilename(ns, 'gsd-', v)), `${ns} stem ${String(v)}`);
    }
  }
  assert.throws(() => ours.isNamespacedByDir('commands', 5, 'gsd-'), { name: 'TypeError', message: /destSubpath must be a string \(got number\)/ });
  assert.throws(() => ours.isNamespacedByDir('commands', 'commands/gsd', 5), { name: 'TypeError', message: /prefix must be a string/ });
  assert.throws(() => ours.composeCommandFilename(false, 'gsd-', Symbol('s')), TypeError);
  assert.equal(ours.composeCommandFilename(true, Symbol('unused'), 'help'), 'help.md');
});

test('resolveTriggerSurface: a router stem is told as given, so the number 5 is not the stem "5"', () => {
  const cases = [
    { stems: ['5'], routerStems: [5, 'r'], childToRouters: { 5: ['r'] } },
    { stems: [5], routerStems: [5, 'r'], childToRouters: { 5: ['r'] } },
    { stems: ['5', 'x'], routerStems: ['5'], childToRouters: { x: ['5'] } },
    { stems: ['x'], routerStems: [5], childToRouters: { x: [5] } },
  ];
  for (const runtime of ['hermes', 'claude']) {
    for (const opts of cases) {
      assertSameOutcome(() => ours.resolveTriggerSurface(runtime, ['global'], opts), () => theirs.resolveTriggerSurface(runtime, ['global'], opts), `${runtime} ${JSON.stringify(opts)}`);
    }
  }
});
