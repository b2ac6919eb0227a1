// compat/runtime-slash.cjs install-marker functions (resolveRuntime, formatGsdSlashFor,
// readInstallRuntimeMarker and its test hooks) and
// compat/runtime-config-adapter-registry.cjs resolveInstallPlanFromRuntimes equal the peer's.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { require, peer, assertSameOutcome, outcome, tempDir } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';

const slash = require('../compat/runtime-slash.cjs');
const peerSlash = peer('runtime-slash');
const adapter = require('../compat/runtime-config-adapter-registry.cjs');
const peerAdapter = peer('runtime-config-adapter-registry');
const registry = peer('capability-registry');

const MARKERS = [undefined, null, '', 'codex', ' Kimi_Code ', 'CLAUDE-CODE', 'future_thing', 'pi', '   ', 5, {}];
const ENV_RUNTIMES = [undefined, '', 'codex', ' OpenCode ', 'nope'];

/** Project folders: none, missing, and configs naming a runtime in odd ways. */
function projects(t) {
  const root = tempDir(t, 'gsd-core-choice-');
  const out = [undefined, null, '', join(root, 'missing')];
  const configs = [{ runtime: 'cursor' }, { runtime: ' Codex_App ' }, { runtime: 5 }, { runtime: '' }, { other: 1 }, [], 'not json', null];
  configs.forEach((config, i) => {
    const dir = join(root, `p${i}`);
    mkdirSync(join(dir, '.planning'), { recursive: true });
    writeFileSync(join(dir, '.planning', 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
    out.push(dir);
  });
  return out;
}

test('runtime-slash: resolveRuntime / formatGsdSlashFor over markers × GSD_RUNTIME × project configs', (t) => {
  const saved = process.env.GSD_RUNTIME;
  t.after(() => {
    if (saved === undefined) delete process.env.GSD_RUNTIME;
    else process.env.GSD_RUNTIME = saved;
    slash._resetInstallRuntimeMarkerCacheForTests();
    peerSlash._resetInstallRuntimeMarkerCacheForTests();
  });
  let cases = 0;
  for (const marker of MARKERS) {
    slash._setInstallRuntimeMarkerForTests(marker);
    peerSlash._setInstallRuntimeMarkerForTests(marker);
    assertSameOutcome(() => slash.readInstallRuntimeMarker(), () => peerSlash.readInstallRuntimeMarker(), `marker ${String(marker)}`);
    for (const envRuntime of ENV_RUNTIMES) {
      if (envRuntime === undefined) delete process.env.GSD_RUNTIME;
      else process.env.GSD_RUNTIME = envRuntime;
      for (const project of projects(t)) {
        const label = `marker=${JSON.stringify(marker)} GSD_RUNTIME=${JSON.stringify(envRuntime)} ${String(project)}`;
        assertSameOutcome(() => slash.resolveRuntime(project), () => peerSlash.resolveRuntime(project), `resolveRuntime ${label}`);
        assertSameOutcome(() => slash.resolveExplicitRuntime(project), () => peerSlash.resolveExplicitRuntime(project), `explicit ${label}`);
        for (const command of ['/gsd:Plan-Phase 1', 'help', 42]) {
          assertSameOutcome(() => slash.formatGsdSlashFor(project, command), () => peerSlash.formatGsdSlashFor(project, command), `for ${label} ${command}`);
        }
        cases += 1;
      }
    }
  }
  assert.ok(cases > 500, `matrix too small: ${cases}`);
});

test('runtime-slash: readInstallRuntimeMarker reads the same marker file, once per process', () => {
  slash._resetInstallRuntimeMarkerCacheForTests();
  peerSlash._resetInstallRuntimeMarkerCacheForTests();
  assertSameOutcome(() => slash.readInstallRuntimeMarker(), () => peerSlash.readInstallRuntimeMarker(), 'the pinned peer install (no marker)');
  slash._setInstallRuntimeMarkerForTests('codex');
  assert.equal(slash.readInstallRuntimeMarker(), 'codex');
  slash._resetInstallRuntimeMarkerCacheForTests();
  assert.equal(slash.readInstallRuntimeMarker(), peerSlash.readInstallRuntimeMarker());
});

test('runtime-config-adapter-registry: resolveInstallPlanFromRuntimes over the registry and odd maps', () => {
  const runtimes = registry.runtimes;
  const ids = [...RUNTIMES, 'nope', '__proto__', 'constructor', '', undefined, 42];
  for (const id of ids) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes(runtimes, id), () => peerAdapter.resolveInstallPlanFromRuntimes(runtimes, id), `registry ${String(id)}`);
  }
  const claude = runtimes.claude.runtime;
  const odd = {
    noHooks: { runtime: { ...claude, hooksSurface: null } },
    absentHooks: { runtime: { ...claude, hooksSurface: undefined } },
    badTier: { runtime: { ...claude, sandboxTier: 'NONE' } },
    numTier: { runtime: { ...claude, sandboxTier: 3 } },
    noTier: { runtime: { ...claude, sandboxTier: undefined } },
    objTier: { runtime: { ...claude, sandboxTier: { a: [1, 'x'] } } },
    extended: { runtime: { ...claude, extendedHookEvents: 'x', hookEvents: null, permissionWriter: undefined } },
    extendedArray: { runtime: { ...claude, extendedHookEvents: ['a', 1], writesSharedSettings: 'yes' } },
    falsy: { runtime: 0 },
    empty: {},
    bare: { runtime: { hooksSurface: 'none', sandboxTier: 'none' } },
  };
  for (const id of [...Object.keys(odd), 'missing']) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes(odd, id), () => peerAdapter.resolveInstallPlanFromRuntimes(odd, id), `odd ${id}`);
    const a = adapter.resolveInstallPlanFromRuntimes.length;
    assert.equal(a, peerAdapter.resolveInstallPlanFromRuntimes.length);
  }
  for (const map of [undefined, null, 'str', []]) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes(map, 'claude'), () => peerAdapter.resolveInstallPlanFromRuntimes(map, 'claude'), `map ${String(map)}`);
  }
});

test('runtime-slash and runtime-config-adapter-registry: every peer export is provided', () => {
  for (const name of Object.keys(peerSlash)) assert.equal(typeof slash[name], typeof peerSlash[name], name);
  assert.deepStrictEqual(Object.keys(adapter).sort(), Object.keys(peerAdapter).sort());
});

test('runtime-config-adapter-registry: a refusal repeats a long id and tier in full, as the peer does', () => {
  const claude = registry.runtimes.claude.runtime;
  const longId = 'runtime-'.padEnd(160, 'r');
  const maps = [
    { [longId]: { runtime: { ...claude, sandboxTier: 'tier-'.padEnd(300, 't') } } },
    { [longId]: { runtime: { ...claude, sandboxTier: { nested: ['a'.repeat(100), { b: 'c'.repeat(100) }] } } } },
    { [longId]: { runtime: { ...claude, hooksSurface: null } } },
    { [longId]: { runtime: null } },
    { [longId]: { runtime: { ...claude, sandboxTier: 'esc\u001b[31m\u202e' } } },
  ];
  for (const map of maps) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes(map, longId), () => peerAdapter.resolveInstallPlanFromRuntimes(map, longId), JSON.stringify(map).slice(0, 60));
  }
  const o = outcome(() => adapter.resolveInstallPlanFromRuntimes(maps[0], longId));
  assert.equal(o.error.message, `Runtime '${longId}' has a missing or invalid sandboxTier descriptor axis: "${'tier-'.padEnd(300, 't')}"`);
});

test('runtime-config-adapter-registry: resolveInstallPlanFromRuntimes reads only the descriptor asked for, by property access', () => {
  const desc = () => ({ hooksSurface: 'h', sandboxTier: 'none', installSurface: 'settings-json', writesSharedSettings: true, hookEvents: ['PreToolUse'] });
  const cyclic = { x: { runtime: desc() }, y: {} };
  cyclic.y.back = cyclic;
  const maps = {
    'an unrelated cyclic entry': cyclic,
    'an unrelated BigInt': { x: { runtime: desc() }, y: { runtime: { sandboxTier: 1n } } },
    'an inherited descriptor': Object.create({ x: { runtime: desc() } }),
    'a descriptor behind a getter': { x: new (class { get runtime() { return desc(); } })() },
    'no descriptor': { x: {} },
    'a cycle inside the descriptor': (() => {
      const d = desc();
      d.self = d;
      return { x: { runtime: d } };
    })(),
    'a descriptor with toJSON': { x: { runtime: { ...desc(), toJSON: () => ({}) } } },
    'a member the peer does not read that throws': { x: { runtime: Object.defineProperty(desc(), 'other', { enumerable: true, get() { throw new Error('read'); } }) } },
  };
  for (const [label, map] of Object.entries(maps)) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes(map, 'x'), () => peerAdapter.resolveInstallPlanFromRuntimes(map, 'x'), label);
  }
  assert.equal(adapter.resolveInstallPlanFromRuntimes(cyclic, 'x').hooksSurface, 'h');
});

/** `descriptor` behind a proxy that logs each member read, in order. */
function logged(descriptor) {
  const reads = [];
  const proxy = new Proxy(descriptor, {
    get(target, key, receiver) {
      reads.push(String(key));
      return Reflect.get(target, key, receiver);
    },
  });
  return { reads, proxy };
}

test('runtime-config-adapter-registry: resolveInstallPlanFromRuntimes reads the members the peer reads, in its order, and stops where it stops', () => {
  const full = { hooksSurface: 'h', sandboxTier: 'none', permissionWriter: 'w', installSurface: 'settings-json', writesSharedSettings: true, hookEvents: ['PreToolUse'], extendedHookEvents: ['Stop'] };
  const descriptors = {
    'every member, extendedHookEvents an array': full,
    'no extendedHookEvents': { ...full, extendedHookEvents: undefined },
    'hooksSurface null': { ...full, hooksSurface: null },
    'hooksSurface absent': { sandboxTier: 'none' },
    'sandboxTier unknown': { ...full, sandboxTier: 'bogus' },
    'sandboxTier absent': { hooksSurface: 'h' },
  };
  for (const [label, descriptor] of Object.entries(descriptors)) {
    const ours = logged(descriptor);
    const theirs = logged(descriptor);
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes({ x: { runtime: ours.proxy } }, 'x'), () => peerAdapter.resolveInstallPlanFromRuntimes({ x: { runtime: theirs.proxy } }, 'x'), label);
    assert.deepEqual(ours.reads, theirs.reads, label);
  }
  // A member past a refusal is never read: its getter would throw, and the refusal is said.
  const trap = (d) => Object.defineProperty(d, 'installSurface', { enumerable: true, get() { throw new Error('installSurface read'); } });
  for (const d of [{ hooksSurface: null }, { hooksSurface: 'h', sandboxTier: 'bogus' }]) {
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes({ x: { runtime: trap({ ...d }) } }, 'x'), () => peerAdapter.resolveInstallPlanFromRuntimes({ x: { runtime: trap({ ...d }) } }, 'x'), JSON.stringify(d));
    assert.throws(() => adapter.resolveInstallPlanFromRuntimes({ x: { runtime: trap({ ...d }) } }, 'x'), TypeError);
  }
});

test('runtime-config-adapter-registry: resolveInstallPlanFromRuntimes passes the members it does not check through as the caller gave them', () => {
  const base = { hooksSurface: 'h', sandboxTier: 'none' };
  const odd = [
    { hookEvents: [undefined, 1n] },
    { hookEvents: [NaN, -0, Infinity] },
    { hookEvents: () => 1 },
    { installSurface: Symbol('s') },
    { installSurface: new Date(0) },
    { writesSharedSettings: 1n },
    { permissionWriter: 0 },
    { extendedHookEvents: [1n, undefined] },
    { hooksSurface: 1n },
    { hooksSurface: () => 'h' },
    { sandboxTier: 1n },
    // A tier is a string: not a String object, nor a value whose toJSON gives one.
    { sandboxTier: new String('none') },
    { sandboxTier: { toJSON: () => 'none' } },
  ];
  for (const extra of odd) {
    const d = { ...base, ...extra };
    assertSameOutcome(() => adapter.resolveInstallPlanFromRuntimes({ x: { runtime: d } }, 'x'), () => peerAdapter.resolveInstallPlanFromRuntimes({ x: { runtime: d } }, 'x'), String(Object.keys(extra)));
  }
  // The same values, not copies: `hookEvents` is the caller's array, `extendedHookEvents` a
  // new one with the same items.
  const hookEvents = ['PreToolUse'];
  const extended = [{ name: 'Stop' }];
  const ours = adapter.resolveInstallPlanFromRuntimes({ x: { runtime: { ...base, hookEvents, extendedHookEvents: extended } } }, 'x');
  const theirs = peerAdapter.resolveInstallPlanFromRuntimes({ x: { runtime: { ...base, hookEvents, extendedHookEvents: extended } } }, 'x');
  assert.equal(ours.hookEvents, hookEvents);
  assert.equal(theirs.hookEvents, hookEvents);
  assert.notEqual(ours.extendedHookEvents, extended);
  assert.equal(ours.extendedHookEvents[0], extended[0]);
  assert.equal(theirs.extendedHookEvents[0], extended[0]);
});
