// Plans over an inventory handle: the call decides the plan and only the lengths of the
// lists cross; scope, kinds and uninstall are filled together by one more native call on
// the first read of any of them, and placements, triggers and diagnostics are lazy lists
// (a Proxy over a frozen array) each computed by one native call on first access. Every test compares with the plan from raw arrays (which the
// parity suite compares with the peer) or with the peer itself.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { require, peer, peerInventory, thrown, callsTo } from './helpers.mjs';

const gsd = require('../index.js');
const native = require('../binding.js');
const peerLayout = peer('runtime-artifact-layout');

const raw = peerInventory();
const inventory = gsd.inventory(raw);
const host = { home: '/home/u', cwd: '/work/p', env: { XDG_CONFIG_HOME: '/home/u/.xdg' }, existingPaths: [] };
const LISTS = ['placements', 'triggers', 'diagnostics'];

/** The plan exports of the addon, in the order a plan calls them. */
const PLAN_EXPORTS = ['planHeadAt', 'planHeadFirst', 'planHead', 'planSection', 'planSectionAt'];

/**
 * Every native plan call made while `fn` runs (the addon's exports, wrapped): the export's
 * name, with the section name for a section (`planSection:<name>` through either export).
 */
function nativeCalls(fn) {
  return callsTo(native, PLAN_EXPORTS, fn, (name, args) => (name.startsWith('planSection') ? `planSection:${args[0]}` : name));
}

/** The native section calls made while `fn` runs (both section exports, wrapped). */
function sectionCalls(fn) {
  return nativeCalls(fn)
    .filter((call) => call.startsWith('planSection:'))
    .map((call) => call.slice('planSection:'.length));
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
  // scope, kinds and uninstall come together; diagnostics is the one list not read yet.
  assert.deepStrictEqual(sectionCalls(() => void JSON.stringify(plan)), ['head', 'diagnostics']);
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

test('util.inspect of one unfilled section shows its values, and the hook that does it never shows', () => {
  const options = { depth: 4, maxArrayLength: Infinity, breakLength: Infinity };
  const full = eager('claude', 'local');
  for (const key of ['placements', 'triggers', 'kinds', 'uninstall', 'scope']) {
    // Inspected first, before any other access: util.inspect looks at the Proxy's target.
    const section = lazy('claude', 'local')[key];
    assert.equal(inspect(section, options), inspect(full[key], options), key);
    // Inspecting filled it; the filled section has no symbol of its own, as the plain value.
    assert.deepStrictEqual(Object.getOwnPropertySymbols(section), [], key);
    assert.deepStrictEqual(section, full[key], key);
  }
  // Never inspected: equal at once, no symbol seen through the traps.
  const plan = lazy('claude', 'local');
  assert.deepStrictEqual(Object.getOwnPropertySymbols(plan.placements), []);
  assert.deepStrictEqual(plan, full);
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
    assert.ok(list.every((record) => record.shadowedBy == null || Object.isFrozen(record.shadowedBy)), `${key} winners`);
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
  assert.ok(plan.triggers.some((t) => t.shadowedBy !== null), 'opencode shadows some triggers');
  assert.ok(Object.isFrozen(plan.scope.provenance) && Object.isFrozen(plan.kinds[0]) && Object.isFrozen(plan.uninstall));
  assert.throws(() => {
    plan.triggers = [];
  }, TypeError);
});

/** The core's `Placement` field order (core/src/plan.rs); the peer has no placement records. */
const PLACEMENT_KEYS = ['kind', 'stem', 'source', 'destination', 'converter'];

/**
 * Asserts that `record` is what an object literal with `keys` makes, frozen. The records
 * are built by constructors (npm/index.js, PlacementRecord / TriggerRecord / ShadowedBy);
 * nothing of that may show.
 */
function assertPlainRecord(record, keys, label) {
  assert.equal(Object.getPrototypeOf(record), Object.prototype, label);
  assert.equal(record.constructor, Object, label);
  assert.deepStrictEqual(Reflect.ownKeys(record), keys, label);
  assert.ok(Object.isFrozen(record), label);
}

/** Asserts that every placement and trigger record of `plan` is plain, triggers keyed as the peer's `expected`. */
function assertPlainRecords(plan, expected, label) {
  assert.ok(plan.placements.length > 0 && plan.triggers.length === expected.length, label);
  plan.placements.forEach((p, i) => assertPlainRecord(p, PLACEMENT_KEYS, `${label} placements[${i}]`));
  plan.triggers.forEach((t, i) => {
    assertPlainRecord(t, Reflect.ownKeys(expected[i]), `${label} triggers[${i}]`);
    if (t.shadowedBy !== null) assertPlainRecord(t.shadowedBy, Reflect.ownKeys(expected[i].shadowedBy), `${label} triggers[${i}].shadowedBy`);
  });
}

test('placement and trigger records are plain objects keyed in the peer\'s and the core\'s order, whichever form they cross in', () => {
  // A home and a working directory holding U+0001 make the placements cross as JSON rows
  // instead of fields text (bindings/node/src/rows.rs). Triggers cross as JSON rows only
  // past 55,295 distinct pieces (routers, prefixes, heads), which no test plan reaches; the
  // raw-array plan's lists cross as JSON records.
  const rowsHost = { home: '/home/u\u0001v', cwd: '/work/p\u0001q', env: {}, existingPaths: [] };
  // cline routes skills through routers (routerTrigger set); opencode shadows triggers.
  for (const runtime of ['cline', 'opencode']) {
    for (const scope of ['global', 'local']) {
      const expected = peerLayout.resolveTriggerSurface(runtime, [scope], { stems: raw.commands, routerStems: raw.routerStems, childToRouters: raw.childToRouters });
      assertPlainRecords(lazy(runtime, scope), expected, `${runtime} ${scope} lazy`);
      assertPlainRecords(eager(runtime, scope), expected, `${runtime} ${scope} raw arrays`);
      const rows = gsd.resolveInstallPlan(runtime, scope, rowsHost, { inventory });
      assert.ok(rows.placements.some((p) => p.destination.includes('\u0001')), 'a destination holds U+0001');
      assertPlainRecords(rows, expected, `${runtime} ${scope} JSON rows`);
    }
  }
  assert.ok(eager('opencode', 'global').triggers.some((t) => t.shadowedBy !== null), 'opencode shadows some triggers');
  assert.ok(eager('cline', 'global').triggers.some((t) => t.routerTrigger !== null), 'cline routes some triggers');
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
    [() => gsd.inventory({ stems: [] }), 'INVALID_ARGUMENT', 'stems'],
    [() => gsd.inventory({ commands: 'help' }), 'INVALID_ARGUMENT', 'commands'],
    [() => gsd.inventory({ commands: [1n] }), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory([]), 'INVALID_ARGUMENT', 'inventory'],
    [() => gsd.inventory('help'), 'INVALID_ARGUMENT', 'inventory'],
    [() => lazy('claude', 'global', { commands: ['help'] }), 'INVALID_ARGUMENT', 'commands'],
    [() => lazy('claude', 'global', { childToRouters: {} }), 'INVALID_ARGUMENT', 'childToRouters'],
    [() => lazy('claude', 'global', { bogus: 1 }), 'INVALID_ARGUMENT', 'bogus'],
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
  // scope, kinds and uninstall are read after HOME changed: they describe the host read.
  assert.equal(plan.scope.configHome, join(first, '.claude'));
  assert.ok(plan.kinds.length > 0 && plan.uninstall.length === plan.kinds.length);
  for (const k of plan.kinds) assert.ok(k.destDir.startsWith(`${first}/.claude`), k.destDir);
  for (const u of plan.uninstall) assert.ok(u.destDir.startsWith(`${first}/.claude`), u.destDir);
  assert.ok(plan.placements.length > 0);
  for (const p of plan.placements) assert.ok(p.destination.startsWith(`${first}/.claude/`), p.destination);
  const expected = gsd.resolveInstallPlan('claude', 'global', { home: first, cwd: process.cwd(), env: {} }, raw);
  assert.deepStrictEqual(plan.placements, expected.placements);
  assert.deepStrictEqual(plan.triggers, expected.triggers);
  assert.deepStrictEqual(plan.diagnostics, expected.diagnostics);
  assert.deepStrictEqual(plan.scope, expected.scope);
  assert.deepStrictEqual(plan.kinds, expected.kinds);
  assert.deepStrictEqual(plan.uninstall, expected.uninstall);
});

test('the runtime\'s constants cross once per registry, runtime and scope, and are shared frozen values', () => {
  const firsts = [];
  const original = native.planHeadFirst;
  native.planHeadFirst = (...args) => {
    const texts = original(...args);
    firsts.push(texts);
    return texts;
  };
  let plans;
  let calls;
  const registry = gsd.buildRegistry([]);
  try {
    calls = nativeCalls(() => {
      plans = [lazy('kilo', 'local'), lazy('kilo', 'local'), lazy('kilo', 'global'), lazy('kilo', 'local', { registry })];
    });
  } finally {
    native.planHeadFirst = original;
  }
  // No earlier test of this file plans kilo: the first plan of each registry, runtime and
  // scope carries the constants, a second one crosses its lengths only.
  assert.deepStrictEqual(calls, ['planHeadFirst', 'planHeadAt', 'planHeadFirst', 'planHeadFirst']);
  assert.ok(firsts.every((texts) => texts[1] !== ''), 'each first head carries the constants');
  const last = firsts.at(-1);
  const constants = JSON.parse(last[1]);
  assert.deepStrictEqual(
    Object.keys(constants),
    native.planFields().map(([name]) => name).filter((name) => !['scope', 'kinds', 'uninstall', ...LISTS].includes(name)),
  );
  assert.equal(last[2], '', 'no host text when host data was given');
  assert.deepStrictEqual(JSON.parse(last[0]), [...LISTS, 'kinds'].map((key) => plans[3][key].length));
  assert.equal(plans[3].uninstall.length, plans[3].kinds.length);
  assert.equal(plans[0].config, plans[1].config);
  assert.ok(Object.isFrozen(plans[1].config) && Object.isFrozen(plans[1].hooks.extendedHookEvents));
  assert.deepStrictEqual(plans[1], eager('kilo', 'local'));
  assert.deepStrictEqual(plans[2], eager('kilo', 'global'));
  assert.deepStrictEqual(plans[3], eager('kilo', 'local'));
});

test('a plan crosses its lengths only: creating it and reading .length makes one native call, the head call', () => {
  for (const [runtime, scope] of [['cursor', 'global'], ['cursor', 'global'], ['opencode', 'local']]) {
    let plan;
    const calls = nativeCalls(() => {
      plan = lazy(runtime, scope);
      for (const key of [...LISTS, 'kinds', 'uninstall']) void plan[key].length;
      void plan.scope;
      void plan.runtime;
      void plan.config.installSurface;
      void plan.installManifest.scope;
    });
    assert.equal(calls.length, 1, `${runtime} ${scope}: ${calls}`);
    assert.match(calls[0], /^planHead(First|At)$/);
    const full = eager(runtime, scope);
    for (const key of LISTS) assert.equal(plan[key].length, full[key].length, key);
  }
  // The second plan of cursor global takes the lengths-only export of the planner.
  const calls = nativeCalls(() => void lazy('cursor', 'global').triggers.length);
  assert.deepStrictEqual(calls, ['planHeadAt']);
});

test('scope, kinds and uninstall: the first access into any of them makes one native call that fills all three', () => {
  const full = eager('opencode', 'global');
  for (const first of ['scope', 'kinds', 'uninstall']) {
    const plan = lazy('opencode', 'global');
    assert.deepStrictEqual(nativeCalls(() => void plan[first]), [], `${first}: the value itself`);
    assert.deepStrictEqual(nativeCalls(() => void Object.keys(plan[first])), ['planSection:head'], first);
    assert.deepStrictEqual(
      nativeCalls(() => {
        for (const key of ['scope', 'kinds', 'uninstall']) {
          assert.deepStrictEqual(plan[key], full[key], `${first} then ${key}`);
          assert.equal(plan[key], plan[key], `${key} is one value`);
          assert.ok(Object.isFrozen(plan[key]), key);
        }
        assert.ok(Object.isFrozen(plan.scope.provenance) && Object.isFrozen(plan.kinds[0]) && Object.isFrozen(plan.uninstall[0]));
      }),
      [],
      first,
    );
  }
  // Spreading, JSON and deep equality read them through the getters too (one call each).
  const filled = ['head', ...LISTS.filter((key) => full[key].length > 0)].map((name) => `planSection:${name}`);
  assert.ok(filled.length > 2, filled.join());
  const spread = lazy('opencode', 'global');
  assert.deepStrictEqual(nativeCalls(() => assert.deepStrictEqual({ ...spread }, { ...full })), filled);
  const json = lazy('opencode', 'global');
  assert.deepStrictEqual(nativeCalls(() => assert.equal(JSON.stringify(json), JSON.stringify(full))), filled);
  // They are own enumerable data properties of the frozen plan, one value each, of the
  // plan's shape before any read: kinds and uninstall know their length, scope is an object.
  const plan = lazy('opencode', 'global');
  assert.deepStrictEqual(
    nativeCalls(() => {
      for (const key of ['scope', 'kinds', 'uninstall']) {
        const own = Object.getOwnPropertyDescriptor(plan, key);
        assert.equal(own.enumerable, true, key);
        assert.equal(own.writable, false, key);
        assert.equal(own.value, plan[key], key);
      }
      assert.equal(plan.kinds.length, full.kinds.length);
      assert.equal(plan.uninstall.length, full.uninstall.length);
      assert.equal(typeof plan.scope, 'object');
    }),
    [],
  );
  assert.ok(Array.isArray(plan.kinds) && Array.isArray(plan.uninstall) && !Array.isArray(plan.scope));
  assert.equal(Object.getPrototypeOf(plan.scope), Object.prototype);
  assert.deepStrictEqual(Object.keys(plan.scope), Object.keys(full.scope));
  assert.throws(() => {
    'use strict';
    plan.scope.configHome = '/elsewhere';
  }, TypeError);
  assert.throws(() => {
    'use strict';
    plan.kinds.push(null);
  }, TypeError);
  assert.ok(Object.isFrozen(plan));
  assert.throws(() => {
    'use strict';
    plan.scope = null;
  }, TypeError);
});

test('the lazy scope equals the peer\'s resolveScope for the same host', () => {
  const peerScope = peer('install-scope');
  for (const runtime of ['claude', 'codex', 'opencode', 'kilo']) {
    for (const scope of ['global', 'local']) {
      const plan = lazy(runtime, scope);
      const expected = peerScope.resolveScope({ id: scope, runtime, home: host.home, cwd: host.cwd, env: host.env, existsSync: () => false });
      // The peer's resolveScope has no provenance; the plan adds it (see docs/node.md).
      const { provenance, ...rest } = plan.scope;
      assert.deepStrictEqual(rest, expected, `${runtime} ${scope}`);
      assert.equal(typeof provenance.source, 'string');
    }
  }
});

test('errors raise at call time through the lengths-only call too, with the same code and field', () => {
  void lazy('claude', 'global');
  void lazy('claude', 'local');
  // A host of plain strings crosses compact (planHeadAt); any other host, and any options,
  // cross as JSON (planHead). An option the call does not know is refused before any
  // crossing (null: no native call).
  const cases = [
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: 'rel' }, { inventory }), 'INVALID_HOST', 'host.cwd', 'planHeadAt'],
    [() => gsd.resolveInstallPlan('claude', 'local', { home: '/h', cwd: '/w', env: 'x' }, { inventory }), 'INVALID_ARGUMENT', 'host.env', 'planHead'],
    [() => gsd.resolveInstallPlan('claude', 'global', { cwd: '/w' }, { inventory }), 'INVALID_ARGUMENT', 'host.home', 'planHead'],
    [() => lazy('claude', 'global', { bogus: 1 }), 'INVALID_ARGUMENT', 'bogus', null],
    [() => lazy('claude', 'global', { profile: { skills: 'x' } }), 'INVALID_ARGUMENT', 'profile.skills', 'planHead'],
  ];
  for (const [call, code, field, path] of cases) {
    let err;
    assert.deepStrictEqual(
      nativeCalls(() => {
        err = thrown(call);
      }),
      path === null ? [] : [path],
    );
    assert.ok(err instanceof Error);
    assert.equal(err.code, code, err.message);
    assert.equal(err.field, field, err.message);
  }
  // The calls that never reach the lengths-only export (nothing cached for them) throw at
  // call time as well, and no lazy call follows.
  for (const [call, code, field] of [
    [() => lazy('nope', 'global'), 'UNKNOWN_RUNTIME', 'runtime'],
    [() => lazy('claude', 'GLOBAL'), 'INVALID_SCOPE', 'scope'],
    [() => lazy('vscode', 'global'), 'NO_CONFIG_HOME', 'runtime.configHome.kind'],
  ]) {
    let err;
    assert.deepStrictEqual(
      nativeCalls(() => {
        err = thrown(call);
      }),
      ['planHeadFirst'],
    );
    assert.equal(err.code, code, err.message);
    assert.equal(err.field, field, err.message);
  }
});

test('lengths too large to pack in one number cross as a list instead, with the same plan', () => {
  void lazy('claude', 'global');
  // 66,000 commands: more placements and triggers than the packed number holds (65,535).
  const commands = Array.from({ length: 66000 }, (_, i) => `c${i}`);
  const big = gsd.inventory({ commands });
  let plan;
  assert.deepStrictEqual(
    nativeCalls(() => {
      plan = gsd.resolveInstallPlan('claude', 'global', host, { inventory: big });
    }),
    ['planHeadAt', 'planHeadFirst'],
  );
  const full = gsd.resolveInstallPlan('claude', 'global', host, { commands });
  for (const key of [...LISTS, 'kinds', 'uninstall']) assert.equal(plan[key].length, full[key].length, key);
  assert.ok(plan.placements.length > 65535 && plan.triggers.length > 65535);
  assert.deepStrictEqual(plan.triggers.at(-1), full.triggers.at(-1));
  // The raw-array plan sends each of its 66,000 stems as a piece: more than segments text
  // can name, so its triggers cross as JSON rows, into records as plain as the others.
  const keys = Reflect.ownKeys(lazy('claude', 'global').triggers[0]);
  for (const record of [full.triggers[0], full.triggers.at(-1), plan.triggers.at(-1)]) assertPlainRecord(record, keys, record.trigger);
  // A small plan after it packs again.
  assert.deepStrictEqual(nativeCalls(() => void lazy('claude', 'global').triggers.length), ['planHeadAt']);
});
