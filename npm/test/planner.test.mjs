// The planner path of a plan over an inventory: a host of plain strings crosses as compact
// text to `planHeadAt`; every other host crosses as JSON. Whichever path a host takes, the
// plan (or the error) must be the one the JSON path gives, which the parity suites compare
// with the peer: every test here compares both paths, or a plan with the peer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, peerInventory, thrown, callsTo } from './helpers.mjs';

const gsd = require('../index.js');
const native = require('../binding.js');

const raw = peerInventory();
const inventory = gsd.inventory(raw);
const base = { home: '/home/u', cwd: '/work/p' };

/** The head exports a plan call went through while `fn` ran. */
function heads(fn) {
  return callsTo(native, ['planHeadAt', 'planHead', 'planHeadFirst'], fn);
}

const viaInventory = (runtime, scope, host) => gsd.resolveInstallPlan(runtime, scope, host, { inventory });
// The raw-array plan: the host always crosses as JSON and the whole plan is computed.
const viaJson = (runtime, scope, host) => gsd.resolveInstallPlan(runtime, scope, host, { ...raw });

/** The outcome of a call: the plan as JSON text, or the error's code, field and message. */
function planOutcome(call) {
  try {
    return { plan: JSON.stringify(call()) };
  } catch (err) {
    return { code: err.code, field: err.field, message: err.message };
  }
}

// Prime the constants of the runtimes used below, so later plans may take the planner path.
for (const runtime of ['claude', 'codex', 'opencode', 'kilo', 'cline']) {
  for (const scope of ['global', 'local']) void viaInventory(runtime, scope, base);
}

test('hosts of plain strings take the planner path and give the JSON path\'s plan', () => {
  const hosts = [
    base,
    { ...base, env: {} },
    { ...base, env: { XDG_CONFIG_HOME: '/home/u/.xdg', CODEX_HOME: '/c', OPENCODE_CONFIG_DIR: '/o', KILO_CONFIG_DIR: '' } },
    // Integer-like names, empty names and values, non-ASCII and astral characters.
    { home: '/home/ü', cwd: '/work/p 𝄞', env: { 10: 'ten', 2: 'two', '': '', CLAUDE_CONFIG_DIR: '/home/ü/.claude 𝄞' } },
    { ...base, existingPaths: [] },
    { ...base, existingPaths: ['/work/p/.claude', '/home/u/.config/opencode', '/work/p/.claude'] },
    { home: '', cwd: '' },
    // U+0001 is plain data on the way in; on the way out it stops placements crossing as
    // fields text (where it means null), so they cross as JSON rows.
    { home: '/home/u\u0001x', cwd: '/work/p' },
    { home: 'relative', cwd: '/work/p' },
  ];
  let compared = 0;
  for (const host of hosts) {
    for (const runtime of ['claude', 'codex', 'opencode', 'kilo', 'cline']) {
      for (const scope of ['global', 'local']) {
        const label = `${JSON.stringify(host)} ${runtime} ${scope}`;
        let got;
        assert.deepStrictEqual(
          heads(() => {
            got = planOutcome(() => viaInventory(runtime, scope, host));
          }),
          ['planHeadAt'],
          label,
        );
        assert.deepStrictEqual(got, planOutcome(() => viaJson(runtime, scope, host)), label);
        compared += 1;
      }
    }
  }
  assert.equal(compared, hosts.length * 10);
});

test('existing paths cross on the planner path: a probed config home, as the peer finds it', () => {
  const peerScope = peer('install-scope');
  // antigravity's global home is the first probed candidate holding its marker.
  const marker = `${base.home}/.gemini/antigravity-ide/gsd-core/VERSION`;
  const host = { ...base, existingPaths: ['/unrelated', marker] };
  void viaInventory('antigravity', 'global', base);
  let plan;
  assert.deepStrictEqual(
    heads(() => {
      plan = viaInventory('antigravity', 'global', host);
    }),
    ['planHeadAt'],
  );
  assert.deepStrictEqual(plan, viaJson('antigravity', 'global', host));
  assert.equal(plan.scope.configHome, `${base.home}/.gemini/antigravity-ide`);
  assert.notEqual(viaInventory('antigravity', 'global', base).scope.configHome, plan.scope.configHome);
  const expected = peerScope.resolveScope({
    id: 'global',
    runtime: 'antigravity',
    home: base.home,
    cwd: base.cwd,
    env: {},
    existsSync: (p) => host.existingPaths.includes(p),
  });
  const { provenance, ...rest } = plan.scope;
  assert.deepStrictEqual(rest, expected);
  assert.equal(provenance.source, 'probe');
});

test('any other host crosses as JSON and gives exactly the JSON path\'s plan or error', () => {
  class Host {
    constructor() {
      this.home = base.home;
      this.cwd = base.cwd;
    }
  }
  const withGetter = { cwd: base.cwd, get home() { return base.home; } };
  const nullEnv = Object.create(null);
  nullEnv.XDG_CONFIG_HOME = '/x';
  const cases = {
    'NUL inside a value': { ...base, env: { XDG_CONFIG_HOME: '/home/u/a\u0000b' } },
    'NUL inside a name': { ...base, env: { 'A\u0000B': '1' } },
    'NUL inside home': { home: '/home/u\u0000', cwd: base.cwd },
    'NUL inside an existing path': { ...base, existingPaths: ['/a\u0000b'] },
    'lone surrogate in home': { home: '/home/\ud800', cwd: base.cwd },
    'lone surrogate in an env value': { ...base, env: { XDG_CONFIG_HOME: '/x\udc00' } },
    'U+FFFD itself': { home: '/home/\ufffd', cwd: base.cwd },
    'unknown key': { ...base, platform: 'linux' },
    'toJSON': { ...base, toJSON: () => ({ home: '/elsewhere', cwd: '/w' }) },
    'env toJSON': { ...base, env: { toJSON: () => ({ XDG_CONFIG_HOME: '/j' }) } },
    'class instance': new Host(),
    'getter': withGetter,
    'null-prototype env': { ...base, env: nullEnv },
    'env value undefined': { ...base, env: { XDG_CONFIG_HOME: undefined } },
    'env value a number': { ...base, env: { XDG_CONFIG_HOME: 7 } },
    'env value a String object': { ...base, env: { XDG_CONFIG_HOME: new String('/s') } },
    'env null': { ...base, env: null },
    'env an array': { ...base, env: ['a'] },
    'existingPaths a Set': { ...base, existingPaths: new Set(['/work/p/.claude']) },
    'existingPaths with a hole': { ...base, existingPaths: [, '/a'] },
    'existingPaths not strings': { ...base, existingPaths: [1] },
    'existingPaths a string': { ...base, existingPaths: '/a' },
    'home a number': { home: 1, cwd: base.cwd },
    'home undefined': { home: undefined, cwd: base.cwd },
    'cwd missing': { home: base.home },
    'BigInt': { ...base, extra: 1n },
  };
  const paths = {};
  for (const [name, host] of Object.entries(cases)) {
    for (const runtime of ['claude', 'opencode']) {
      for (const scope of ['global', 'local']) {
        let got;
        const calls = heads(() => {
          got = planOutcome(() => viaInventory(runtime, scope, host));
        });
        assert.deepStrictEqual(got, planOutcome(() => viaJson(runtime, scope, host)), `${name} ${runtime} ${scope}`);
        paths[name] = calls.join(',');
      }
    }
  }
  // A NUL, a lone surrogate or U+FFFD is caught natively (planHeadAt answers -2, the JSON
  // path follows); a getter is read like any property and a Set is converted to a list, so
  // both cross compact; every other case never leaves JS as compact text.
  for (const name of Object.keys(cases)) {
    if (name === 'getter' || name === 'existingPaths a Set') {
      assert.equal(paths[name], 'planHeadAt', name);
    } else if (/NUL|surrogate|U\+FFFD/.test(name)) {
      assert.match(paths[name], /^planHeadAt,planHead$/, name);
    } else {
      assert.match(paths[name], /^(planHead|)$/, `${name}: ${paths[name]}`);
    }
  }
});

test('the plan is a snapshot: changing the host after the call changes none of its lazy parts', () => {
  const host = { ...base, env: { CLAUDE_CONFIG_DIR: '/home/u/.c1' }, existingPaths: ['/work/p/.claude'] };
  const plan = viaInventory('claude', 'global', host);
  const expected = viaJson('claude', 'global', { ...host, env: { ...host.env }, existingPaths: [...host.existingPaths] });
  host.home = '/elsewhere';
  host.env.CLAUDE_CONFIG_DIR = '/home/u/.c2';
  host.existingPaths.push('/home/u/.claude');
  assert.deepStrictEqual(plan, expected);
  assert.equal(plan.scope.configHome, '/home/u/.c1');
});

test('the planner exports check their inputs: -2 for text its header does not describe, errors naming the field', () => {
  const planner = native.planner(native.Inventory.fromJson(JSON.stringify(raw)));
  const runtimes = native.plannerRuntimes(planner);
  assert.deepStrictEqual(runtimes, gsd.runtimes().map((r) => r.id).sort());
  const target = runtimes.indexOf('claude') * 2;
  const good = `1\u00000\u0000/home/u\u0000/work/p\u0000XDG_CONFIG_HOME\u0000/x`;
  const packed = native.planHeadAt(planner, target, good);
  assert.ok(packed > 0);
  const plan = viaInventory('claude', 'global', { ...base, env: { XDG_CONFIG_HOME: '/x' } });
  assert.equal(packed % 65536, plan.placements.length);
  for (const text of ['', `0\u00000\u0000/h`, `0\u00000\u0000/h\u0000/w\u0000extra`, `2\u00000\u0000/h\u0000/w\u0000A\u00001`]) {
    assert.equal(native.planHeadAt(planner, target, text), -2, JSON.stringify(text));
  }
  const outOfRange = thrown(() => native.planHeadAt(planner, runtimes.length * 2, good));
  assert.equal(outOfRange.code, 'INVALID_ARGUMENT');
  assert.equal(outOfRange.field, 'target');
  assert.match(outOfRange.message, new RegExp(`below ${runtimes.length * 2}.*got ${runtimes.length * 2}`));
  const badSection = thrown(() => native.planSectionAt('triggers', planner, target, 'nope'));
  assert.equal(badSection.code, 'INVALID_ARGUMENT');
  assert.equal(badSection.field, 'host');
  const unknownSection = thrown(() => native.planSectionAt('bogus', planner, target, good));
  assert.equal(unknownSection.field, 'section');
  // Trigger rows cross as segments text that leaves out the stems this side holds (the
  // inventory's commands): U+0003, nine codes per trigger, then the pieces the codes name,
  // each after a NUL; index 1 is the empty slot. Trigger i bears commands[i % commands.length].
  const segments = native.planSectionAt('triggers', planner, target + 1, good);
  assert.equal(segments.charCodeAt(0), 3);
  const local = viaInventory('claude', 'local', { ...base, env: { XDG_CONFIG_HOME: '/x' } }).triggers;
  const pieces = segments.split('\u0000');
  assert.equal((pieces[0].length - 1) / 9, local.length);
  assert.equal(pieces[1], '');
  assert.ok(!pieces.includes(raw.commands[0]), 'no stem is sent');
  const prefix = pieces[pieces[0].charCodeAt(4)];
  local.forEach((t, i) => assert.equal(t.trigger, prefix + raw.commands[i % raw.commands.length]));
  const notPlanner = thrown(() => native.planHeadAt({}, target, good));
  assert.ok(notPlanner instanceof Error);
});

test('one planner per inventory and registry: other registries and inventories plan on their own', () => {
  const registry = gsd.buildRegistry([]);
  const small = gsd.inventory({ commands: ['plan-phase'] });
  for (const scope of ['global', 'local']) {
    // The first plan of a registry carries its constants; later ones take the planner path.
    void gsd.resolveInstallPlan('claude', scope, base, { inventory: small, registry });
    let plan;
    assert.deepStrictEqual(
      heads(() => {
        plan = gsd.resolveInstallPlan('claude', scope, base, { inventory: small, registry });
      }),
      ['planHeadAt'],
    );
    assert.deepStrictEqual(plan, gsd.resolveInstallPlan('claude', scope, base, { commands: ['plan-phase'], registry }));
    assert.equal(plan.triggers.length, gsd.resolveInstallPlan('claude', scope, base, { commands: ['plan-phase'] }).triggers.length);
    assert.notEqual(plan.triggers.length, viaInventory('claude', scope, base).triggers.length);
  }
});

test('trigger records are the same whether the stems cross or this side supplies them', () => {
  /** The first character of every trigger section the core sends while `fn` runs. */
  function markers(fn) {
    const seen = [];
    const originals = { planSectionAt: native.planSectionAt, planSection: native.planSection };
    for (const name of Object.keys(originals)) {
      native[name] = (section, ...args) => {
        const text = originals[name](section, ...args);
        if (section === 'triggers') seen.push(text.charCodeAt(0));
        return text;
      };
    }
    try {
      fn();
    } finally {
      Object.assign(native, originals);
    }
    return seen;
  }
  const routed = { ...raw, commands: [...raw.commands, 'zz-last'] };
  const twice = { ...raw, commands: [...raw.commands, raw.commands[3], raw.commands[0]] };
  const profile = { skills: raw.commands.slice(5, 25), agents: raw.agents.slice(0, 3) };
  const cases = [
    // The inventory's own list: the stems are left out (U+0003) on both paths.
    [routed, {}, 3],
    // A stem listed twice or a profile's pick is not the inventory's list: stems cross.
    [twice, {}, 2],
    [routed, { profile }, 2],
  ];
  let compared = 0;
  for (const [stems, options, marker] of cases) {
    const held = gsd.inventory(stems);
    for (const runtime of gsd.runtimes().map((r) => r.id)) {
      for (const scope of ['global', 'local']) {
        // Twice: the first call of a runtime and scope takes the JSON head path
        // (planSection), later ones the planner (planSectionAt) when there are no options.
        for (const home of ['/home/a', '/home/b']) {
          const host = { home, cwd: '/work/p' };
          let expected;
          try {
            expected = viaJsonOf(stems, runtime, scope, host, options).triggers;
          } catch (err) {
            // vscode has no config directory: the same error either way.
            const again = thrown(() => gsd.resolveInstallPlan(runtime, scope, host, { inventory: held, ...options }));
            assert.deepStrictEqual([again.code, again.message], [err.code, err.message], `${runtime} ${scope}`);
            continue;
          }
          let got;
          const seen = markers(() => {
            got = [...gsd.resolveInstallPlan(runtime, scope, host, { inventory: held, ...options }).triggers];
          });
          assert.deepStrictEqual(got, expected, `${runtime} ${scope} ${home}`);
          if (expected.length > 0) assert.deepStrictEqual(seen, [marker], `${runtime} ${scope} ${home}`);
          compared += expected.length;
        }
      }
    }
  }
  assert.ok(compared > 3000, `${compared}`);
});

/** The raw-array plan over `stems` with `options`. */
function viaJsonOf(stems, runtime, scope, host, options) {
  return gsd.resolveInstallPlan(runtime, scope, host, { ...stems, ...options });
}
