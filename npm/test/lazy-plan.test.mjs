// Plans over an inventory handle: the head crosses at once, and placements, triggers and
// diagnostics are lazy lists (a Proxy over a frozen array) computed by a second native
// call on first access. Every test compares with the plan from raw arrays (which the
// parity suite compares with the peer) or with the peer itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { require, peer, peerInventory, thrown } from './helpers.mjs';

const gsd = require('../index.js');
const native = require('../binding.js');
const peerLayout = peer('runtime-artifact-layout');

const raw = peerInventory();
const inventory = gsd.inventory(raw);
const host = { home: '/home/u', cwd: '/work/p', env: { XDG_CONFIG_HOME: '/home/u/.xdg' }, existingPaths: [] };
const LISTS = ['placements', 'triggers', 'diagnostics'];

/** Counts the native section calls made while `fn` runs (the addon's export, wrapped). */
function sectionCalls(fn) {
  const original = native.planSection;
  const seen = [];
  native.planSection = (...args) => {
    seen.push(args[0]);
    return original(...args);
  };
  try {
    fn();
  } finally {
    native.planSection = original;
  }
  return seen;
}

const lazy = (runtime, scope, options = {}) => gsd.resolveInstallPlan(runtime, scope, host, { ...options, inventory });
const eager = (runtime, scope, options = {}) => gsd.resolveInstallPlan(runtime, scope, host, { ...options, ...raw });

test('a plan over inventory() equals the plan from raw arrays and the peer trigger surface: 6 runtimes × 2 scopes', () => {
  assert.ok(Object.keys(raw.childToRouters).length > 0 && raw.routerStems.length > 0, 'the peer inventory has nested routers');
  let checked = 0;
  const sizes = { placements: 0, triggers: 0, diagnostics: 0 };
  // cline nests routed skills under their routers; opencode has shadowed triggers (diagnostics).
  for (const runtime of ['claude', 'codex', 'kimi', 'copilot', 'cline', 'opencode']) {
    for (const scope of ['global', 'local']) {
      const label = `${runtime} ${scope}`;
      // Fresh, unread plans on either side of the comparison.
      assert.deepStrictEqual(lazy(runtime, scope), eager(runtime, scope), label);
      assert.deepStrictEqual(eager(runtime, scope), lazy(runtime, scope), label);
      assert.equal(JSON.stringify(lazy(runtime, scope)), JSON.stringify(eager(runtime, scope)), label);
      const plan = lazy(runtime, scope);
      for (const key of LISTS) sizes[key] += plan[key].length;
      const expected = peerLayout.resolveTriggerSurface(runtime, [scope], { stems: raw.commands, routerStems: raw.routerStems, childToRouters: raw.childToRouters });
      assert.deepStrictEqual(plan.triggers, expected, `${label}: triggers`);
      checked += 1;
    }
  }
  assert.equal(checked, 12);
  assert.ok(sizes.placements > 0 && sizes.triggers > 0 && sizes.diagnostics > 0, JSON.stringify(sizes));
});

test('the nested routers of cline cross lazily: routed triggers name their router', () => {
  const plan = lazy('cline', 'global');
  const routed = plan.triggers.filter((t) => t.registration !== 'direct');
  assert.ok(routed.length > 0);
  assert.deepStrictEqual(routed, eager('cline', 'global').triggers.filter((t) => t.registration !== 'direct'));
});

test('.length of a lazy list does not call the core; the first other access calls it once per list', () => {
  const plan = lazy('opencode', 'global');
  const counts = {};
  assert.deepStrictEqual(
    sectionCalls(() => {
      for (const key of LISTS) counts[key] = plan[key].length;
    }),
    [],
  );
  const full = eager('opencode', 'global');
  for (const key of LISTS) assert.equal(counts[key], full[key].length, key);
  assert.ok(counts.triggers > 0 && counts.placements > 0 && counts.diagnostics > 0);
  assert.deepStrictEqual(
    sectionCalls(() => {
      void plan.triggers[0];
      void plan.triggers[1];
      void [...plan.triggers];
      void plan.triggers.length;
    }),
    ['triggers'],
  );
  assert.deepStrictEqual(sectionCalls(() => void plan.placements.map((p) => p.stem)), ['placements']);
  assert.deepStrictEqual(sectionCalls(() => void JSON.stringify(plan)), ['diagnostics']);
  assert.deepStrictEqual(sectionCalls(() => void JSON.stringify(plan)), []);
});

test('any access but .length fills the list, once, with the values of the raw-array plan', () => {
  const full = eager('codex', 'local');
  const accesses = {
    index: (list) => list[0],
    iteration: (list) => [...list],
    'for-of': (list) => {
      const out = [];
      for (const item of list) out.push(item);
      return out;
    },
    'Object.keys': (list) => Object.keys(list),
    'JSON.stringify': (list) => JSON.stringify(list),
    'Object.isFrozen': (list) => Object.isFrozen(list),
    'in': (list) => 0 in list,
    'Object.getOwnPropertyDescriptor': (list) => Object.getOwnPropertyDescriptor(list, 0),
    'Array.prototype.slice': (list) => list.slice(1, 3),
    deepStrictEqual: (list) => assert.deepStrictEqual(list, full.triggers),
    'Array.from': (list) => Array.from(list),
  };
  for (const [name, access] of Object.entries(accesses)) {
    const plan = lazy('codex', 'local');
    assert.deepStrictEqual(sectionCalls(() => access(plan.triggers)), ['triggers'], name);
    assert.deepStrictEqual(plan.triggers, full.triggers, name);
    assert.ok(Object.isFrozen(plan.triggers), name);
    assert.deepStrictEqual(sectionCalls(() => access(plan.triggers)), [], `${name}: second access`);
  }
});

test('util.inspect of a plan shows every list\'s values (through the plan\'s custom inspect)', () => {
  const plan = lazy('claude', 'local');
  const shown = inspect(plan, { depth: 4, maxArrayLength: Infinity, breakLength: Infinity });
  assert.doesNotMatch(shown, /empty item/);
  assert.equal(shown, inspect(eager('claude', 'local'), { depth: 4, maxArrayLength: Infinity, breakLength: Infinity }));
  assert.match(inspect(lazy('claude', 'local'), { depth: 0 }), /triggers: \[Array\]/);
});

test('lazy lists are frozen arrays of frozen records: isArray, order, out of range, strict-mode writes throw', () => {
  'use strict';
  const plan = lazy('opencode', 'global');
  const full = eager('opencode', 'global');
  assert.ok(Object.isFrozen(plan));
  assert.equal(Object.getPrototypeOf(plan), Object.prototype);
  assert.deepStrictEqual(Object.keys(plan), native.planFields().map(([name]) => name));
  for (const key of LISTS) {
    const list = plan[key];
    assert.ok(Array.isArray(list), key);
    assert.ok(list instanceof Array, key);
    assert.equal(Object.getPrototypeOf(list), Array.prototype, key);
    assert.equal(plan[key], list, `${key} is one value`);
    assert.ok(Object.isFrozen(list), key);
    assert.ok(list.every((record) => Object.isFrozen(record)), `${key} records`);
    assert.equal(list[list.length], undefined, key);
    assert.equal(list[-1], undefined, key);
    assert.deepStrictEqual(list.at(-1), full[key].at(-1), key);
    assert.throws(() => {
      list[0] = null;
    }, TypeError);
    assert.throws(() => {
      list.push(null);
    }, TypeError);
    assert.throws(() => {
      delete list[0];
    }, TypeError);
    assert.throws(() => {
      list.length = 0;
    }, TypeError);
    assert.throws(() => {
      list[0].kind = 'x';
    }, TypeError);
    assert.throws(() => Object.defineProperty(list, 'extra', { value: 1 }), TypeError);
    assert.equal(list.length, full[key].length, key);
  }
  assert.deepStrictEqual(plan.triggers.map((t) => t.trigger), full.triggers.map((t) => t.trigger));
  assert.deepStrictEqual([...plan.placements.entries()].map(([i, p]) => [i, p.destination]), full.placements.map((p, i) => [i, p.destination]));
  assert.ok(Object.isFrozen(plan.scope.provenance) && Object.isFrozen(plan.kinds[0]) && Object.isFrozen(plan.uninstall));
  assert.throws(() => {
    plan.triggers = [];
  }, TypeError);
});

test('an empty list is a frozen [] without a native call', () => {
  const small = gsd.inventory({ commands: [], agents: [] });
  const plan = gsd.resolveInstallPlan('claude', 'global', host, { inventory: small });
  assert.deepStrictEqual(
    sectionCalls(() => {
      for (const key of LISTS) assert.deepStrictEqual(plan[key], [], key);
    }),
    [],
  );
  assert.ok(Object.isFrozen(plan.triggers));
});

test('explicitDir and profile with an inventory give the raw-array plan', () => {
  const profile = { skills: raw.commands.slice(0, 10), agents: raw.agents.slice(0, 3) };
  for (const options of [{ explicitDir: '/opt/claude-alt' }, { profile }, { explicitDir: '/opt/x', profile }]) {
    assert.deepStrictEqual(lazy('claude', 'global', options), eager('claude', 'global', options), JSON.stringify(options));
  }
  const registry = gsd.firstPartyRegistry();
  assert.deepStrictEqual(lazy('codex', 'global', { registry }), eager('codex', 'global'));
});

test('inventory(): a frozen copy, checked once; errors name their field', () => {
  const commands = ['plan-phase', 'help'];
  const made = gsd.inventory({ commands });
  assert.ok(Object.isFrozen(made) && Object.isFrozen(made.commands) && Object.isFrozen(made.childToRouters));
  assert.deepStrictEqual(made, { commands: ['plan-phase', 'help'], agents: [], routerStems: [], childToRouters: {} });
  commands.push('execute-phase');
  const plan = gsd.resolveInstallPlan('claude', 'global', host, { inventory: made });
  assert.deepStrictEqual(plan.triggers.map((t) => t.trigger), ['gsd-plan-phase', 'gsd-help']);
  assert.deepStrictEqual(gsd.inventory(), { commands: [], agents: [], routerStems: [], childToRouters: {} });

  const cases = [
    [() => gsd.inventory({ commands: ['ok', '../evil'] }), 'INVALID_ARGUMENT', 'commands[1]'],
    [() => gsd.inventory({ childToRouters: { 'a/b': ['ns-x'] } }), 'INVALID_ARGUMENT', 'childToRouters'],
    [() => gsd.inventory({ stems: [] }), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory({ commands: 'help' }), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory({ commands: [1n] }), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory([]), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory('help'), 'INVALID_ARGUMENT', 'inventory'],
    [() => lazy('claude', 'global', { commands: ['help'] }), 'INVALID_ARGUMENT', 'commands'],
    [() => lazy('claude', 'global', { childToRouters: {} }), 'INVALID_ARGUMENT', 'childToRouters'],
    [() => lazy('claude', 'global', { bogus: 1 }), 'INVALID_ARGUMENT', 'options'],
    [() => gsd.resolveInstallPlan('claude', 'global', host, { inventory: { ...raw } }), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.resolveInstallPlan('claude', 'global', host, { inventory: 'x' }), 'INVALID_ARGUMENT', 'inventory'],
    [() => lazy('nope', 'global'), 'UNKNOWN_RUNTIME', 'runtime'],
    [() => lazy('claude', 'GLOBAL'), 'INVALID_SCOPE', 'scope'],
    [() => lazy('vscode', 'global'), 'NO_CONFIG_HOME', 'runtime.configHome.kind'],
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: 'rel' }, { inventory }), 'INVALID_HOST', 'host.cwd'],
  ];
  for (const [call, code, field] of cases) {
    const err = thrown(call);
    assert.ok(err instanceof Error);
    assert.equal(err.code, code, err.message);
    assert.equal(err.field, field, err.message);
  }
  // The raw-array form reports a bad stem the same way.
  assert.equal(thrown(() => gsd.resolveInstallPlan('claude', 'global', host, { commands: ['ok', '../evil'] })).field, 'commands[1]');
});

test('without host data the machine is read once: the lists describe the host the head read', (t) => {
  const first = mkdtempSync(join(tmpdir(), 'gsd-lazy-home-a-'));
  const second = mkdtempSync(join(tmpdir(), 'gsd-lazy-home-b-'));
  const saved = { HOME: process.env.HOME, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };
  t.after(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  });
  delete process.env.CLAUDE_CONFIG_DIR;
  process.env.HOME = first;
  const plan = gsd.resolveInstallPlan('claude', 'global', undefined, { inventory });
  process.env.HOME = second;
  assert.equal(plan.scope.configHome, join(first, '.claude'));
  assert.ok(plan.placements.length > 0);
  for (const p of plan.placements) assert.ok(p.destination.startsWith(`${first}/.claude/`), p.destination);
  const expected = gsd.resolveInstallPlan('claude', 'global', { home: first, cwd: process.cwd(), env: {} }, raw);
  assert.deepStrictEqual(plan.placements, expected.placements);
  assert.deepStrictEqual(plan.triggers, expected.triggers);
  assert.deepStrictEqual(plan.diagnostics, expected.diagnostics);
});

test('the runtime\'s constants cross once per registry, runtime and scope, and are shared frozen values', () => {
  const heads = [];
  const original = native.planHead;
  native.planHead = (...args) => {
    const texts = original(...args);
    heads.push(JSON.parse(texts[0]));
    return texts;
  };
  let plans;
  const registry = gsd.buildRegistry([]);
  try {
    plans = [lazy('kilo', 'local'), lazy('kilo', 'local'), lazy('kilo', 'global'), lazy('kilo', 'local', { registry })];
  } finally {
    native.planHead = original;
  }
  assert.deepStrictEqual(heads.map((h) => 'config' in h), [true, false, true, true]);
  assert.deepStrictEqual(Object.keys(heads[1]), ['scope', 'kinds', 'placements', 'uninstall', 'triggers', 'diagnostics']);
  assert.equal(plans[0].config, plans[1].config);
  assert.ok(Object.isFrozen(plans[1].config) && Object.isFrozen(plans[1].hooks.extendedHookEvents));
  assert.deepStrictEqual(plans[1], eager('kilo', 'local'));
  assert.deepStrictEqual(plans[2], eager('kilo', 'global'));
  assert.deepStrictEqual(plans[3], eager('kilo', 'local'));
});
