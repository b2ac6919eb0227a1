// Argument checking of the main API: every error the package throws is typed (a `code` of
// `errorCodes`, a `field` naming the argument or member), an unknown option is refused by
// name, and one bad input gets one refusal whichever call or path it goes through.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { require, thrown } from './helpers.mjs';

const gsd = require('../index.js');
const native = require('../binding.js');

const h = { home: '/h', cwd: '/w' };

/** Asserts the exact code, field and message of what `call` throws. */
function refused(call, code, field, message) {
  const err = thrown(call);
  assert.ok(err instanceof Error, String(err));
  assert.deepStrictEqual({ code: err.code, field: err.field, message: err.message }, { code, field, message });
  assert.ok(gsd.errorCodes.includes(err.code), err.code);
}

test('an option a call does not know is refused by name, never ignored', (t) => {
  const registry = gsd.firstPartyRegistry();
  const unknown = (key, expected) => `${key} is invalid: unknown field \`${key}\`, ${expected}`;
  const cases = [
    [() => gsd.resolveScope('claude', 'global', h, { explictDir: '/x' }), 'explictDir', 'expected `explicitDir` or `registry`'],
    [() => gsd.resolveConfigHome('claude', h, { registy: registry }), 'registy', 'expected `registry`'],
    [() => gsd.resolveLayout('claude', '/h/.claude', 'global', h, { scope: 'local' }), 'scope', 'expected `registry`'],
    [() => gsd.resolveTriggerSurface('claude', ['global'], { stems: ['a'] }, { routerStems: [] }), 'routerStems', 'expected `registry`'],
    [() => gsd.installIntent('claude', { runtime: 'codex' }), 'runtime', 'expected `registry`'],
    [() => gsd.resolveInstalledSurfaces('claude', h, { fact: { homes: {} } }), 'fact', 'expected `facts` or `registry`'],
    [() => gsd.buildShadowReport('claude', h, { samplelimit: 1 }), 'samplelimit', 'expected one of `facts`, `sampleLimit`, `registry`'],
    [() => gsd.buildRegistry([], { base: registry }), 'base', 'expected `registry`'],
    [() => gsd.resolveProfile(['core'], { commands: [] }, { mode: 'full' }), 'mode', 'expected `registry`'],
  ];
  for (const [call, key, expected] of cases) refused(call, 'INVALID_ARGUMENT', key, unknown(key, expected));
  // Before anything is read from disk: the directory does not even exist.
  const dir = mkdtempSync(join(tmpdir(), 'gsd-args-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  refused(() => gsd.loadOverlayDir(join(dir, 'missing'), { regsitry: registry }), 'INVALID_ARGUMENT', 'regsitry', unknown('regsitry', 'expected `registry`'));
  // A member whose value is undefined is absent, as JSON leaves it out (what the plan does).
  assert.deepStrictEqual(gsd.resolveScope('claude', 'global', h, { explictDir: undefined }), gsd.resolveScope('claude', 'global', h));
  assert.equal(gsd.resolveInstallPlan('claude', 'global', h, { explictDir: undefined }).scope.configHome, '/h/.claude');
});

test('values napi cannot convert are typed errors naming the member, never napi\'s own', () => {
  const symbolIn = (field) => `${field} is invalid: a symbol is not JSON data`;
  const functionIn = (field) => `${field} is invalid: a function is not JSON data`;
  const toJSONIn = (field) => `${field} is invalid: it has a toJSON method: pass the data itself`;
  const facts = (home) => ({ homes: { '/h/.claude': home } });
  const cases = [
    [() => gsd.resolveScope('claude', 'global', { ...h, env: { X: Symbol('x') } }), 'host.env.X', symbolIn('host.env.X')],
    [() => gsd.resolveScope('claude', 'global', { ...h, home: () => '/h' }), 'host.home', functionIn('host.home')],
    [() => gsd.resolveScope('claude', 'global', { ...h, toJSON: () => h }), 'host', toJSONIn('host')],
    [() => gsd.resolveConfigHome('claude', { ...h, env: { toJSON: () => ({}) } }), 'host.env', toJSONIn('host.env')],
    [() => gsd.resolveConfigHome('claude', { ...h, env: { X: () => 1 } }), 'host.env.X', functionIn('host.env.X')],
    [() => gsd.resolveInstalledSurfaces('claude', { ...h, env: { X: Symbol('x') } }), 'host.env.X', symbolIn('host.env.X')],
    [() => gsd.buildShadowReport('claude', { ...h, toJSON: () => h }), 'host', toJSONIn('host')],
    [() => gsd.resolveInstalledSurfaces('claude', h, { facts: facts({ manifest: Symbol('m') }) }), 'facts.homes["/h/.claude"].manifest', symbolIn('facts.homes["/h/.claude"].manifest')],
    [
      () => gsd.buildShadowReport('claude', h, { facts: facts({ configHomeIsSymlink: NaN }) }),
      'facts.homes["/h/.claude"].configHomeIsSymlink',
      'facts.homes["/h/.claude"].configHomeIsSymlink is invalid: NaN is not a JSON number',
    ],
    // eslint-disable-next-line no-sparse-arrays
    [() => gsd.buildRegistry([, { folder: 'a', manifest: '{}' }]), 'overlays[0]', 'overlays[0] is invalid: an item of a list may not be undefined or a hole (JSON would write null)'],
    [() => gsd.buildRegistry([{ folder: 'a', manifest: '{}', fragments: { 'x.md': () => '' } }]), 'overlays[0].fragments["x.md"]', functionIn('overlays[0].fragments["x.md"]')],
    [() => gsd.resolveProfile(['core'], { commands: [{ stem: 'a', body: Infinity }] }), 'sources.commands[0].body', 'sources.commands[0].body is invalid: Infinity is not a JSON number'],
    // eslint-disable-next-line no-sparse-arrays
    [() => gsd.resolveTriggerSurface('claude', [, 'global'], { stems: ['a'] }), 'scopes[0]', 'scopes[0] must be a string, got undefined'],
    // eslint-disable-next-line no-sparse-arrays
    [() => gsd.resolveProfile([, 'core'], { commands: [] }), 'modes[0]', 'modes[0] must be a string, got undefined'],
    [() => gsd.firstPartyRegistry().withOverlays(5), 'overlays', 'overlays must be an array, got 5'],
    [() => gsd.firstPartyRegistry().withOverlays([{ folder: Symbol('a'), manifest: '{}' }]), 'overlays[0].folder', symbolIn('overlays[0].folder')],
    [() => gsd.resolveScope('claude', 'global', { ...h, env: new Map([['X', '1']]) }), 'host.env', 'host.env is invalid: a Map is not JSON data (JSON would write {})'],
  ];
  for (const [call, field, message] of cases) refused(call, 'INVALID_ARGUMENT', field, message);
  // A Proxy over an array is read as the array it shows (napi saw an object).
  const overlays = [{ folder: 'x-overlay', manifest: '{}' }];
  assert.deepStrictEqual(gsd.buildRegistry(new Proxy(overlays, {})).diagnostics(), gsd.buildRegistry(overlays).diagnostics());
  assert.deepStrictEqual(
    gsd.resolveTriggerSurface('claude', new Proxy(['global', 'local'], {}), { stems: ['help'] }),
    gsd.resolveTriggerSurface('claude', ['global', 'local'], { stems: ['help'] }),
  );
  assert.deepStrictEqual(gsd.resolveProfile(new Proxy(['core'], {}), { commands: [] }), gsd.resolveProfile(['core'], { commands: [] }));
  // The registry's own method checks what it is given as buildRegistry does.
  assert.deepStrictEqual(gsd.firstPartyRegistry().withOverlays(new Proxy(overlays, {})).diagnostics(), gsd.buildRegistry(overlays).diagnostics());
});

test('one bad input, one refusal: the plan refuses what the other calls refuse', () => {
  const inventory = gsd.inventory({ commands: ['help'] });
  const symbolEnv = { ...h, env: { CLAUDE_CONFIG_DIR: Symbol('dir') } };
  const envMessage = 'host.env.CLAUDE_CONFIG_DIR is invalid: a symbol is not JSON data';
  for (const call of [
    () => gsd.resolveScope('claude', 'global', symbolEnv),
    () => gsd.resolveInstallPlan('claude', 'global', symbolEnv),
    () => gsd.resolveInstallPlan('claude', 'global', symbolEnv, { commands: ['help'] }),
    () => gsd.resolveInstallPlan('claude', 'global', symbolEnv, { inventory }),
  ]) {
    refused(call, 'INVALID_ARGUMENT', 'host.env.CLAUDE_CONFIG_DIR', envMessage);
  }
  for (const [explicitDir, message] of [
    [NaN, 'explicitDir is invalid: NaN is not a JSON number'],
    [-Infinity, 'explicitDir is invalid: -Infinity is not a JSON number'],
    [Symbol('dir'), 'explicitDir is invalid: a symbol is not JSON data'],
    [() => '/x', 'explicitDir is invalid: a function is not JSON data'],
  ]) {
    refused(() => gsd.resolveInstallPlan('claude', 'global', h, { explicitDir }), 'INVALID_ARGUMENT', 'explicitDir', message);
    refused(() => gsd.resolveInstallPlan('claude', 'global', h, { inventory, explicitDir }), 'INVALID_ARGUMENT', 'explicitDir', message);
  }
  refused(() => gsd.inventory({ commands: Symbol('c') }), 'INVALID_ARGUMENT', 'commands', 'commands is invalid: a symbol is not JSON data');
  refused(() => gsd.inventory({ agents: ['a', undefined] }), 'INVALID_ARGUMENT', 'agents[1]', 'agents[1] is invalid: an item of a list may not be undefined or a hole (JSON would write null)');
  refused(() => gsd.resolveTriggerSurface('claude', ['global'], { stems: () => 1 }), 'INVALID_ARGUMENT', 'stems', 'stems is invalid: a function is not JSON data');
  // A BigInt or a cycle still fails on the argument (JSON cannot write it), the member named.
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { explicitDir: 1n }), 'INVALID_ARGUMENT', 'options', 'options is invalid: explicitDir is a bigint (1n), which JSON cannot carry');
  refused(() => gsd.resolveScope('claude', 'global', { ...h, extra: 2n }), 'INVALID_ARGUMENT', 'host', 'host is invalid: host.extra is a bigint (2n), which JSON cannot carry');
});

test('a lone surrogate in a string argument is refused, and NUL in a path argument', () => {
  const surrogate = (field) => `${field} is invalid: it holds a lone surrogate, which UTF-8 cannot carry`;
  const cases = [
    [() => gsd.resolveScope('claude', 'global', h, { explicitDir: '/x\ud800' }), 'explicitDir', surrogate('explicitDir')],
    [() => gsd.resolveScope('claude', 'global', h, { explicitDir: '/x\u0000y' }), 'explicitDir', 'explicitDir must not contain NUL, got "/x\ufffdy"'],
    [() => gsd.resolveLayout('claude', '/c\udc00', 'global', h), 'configDir', surrogate('configDir')],
    [() => gsd.resolveLayout('claude', '/c\u0000\u001b[2J', 'global', h), 'configDir', 'configDir must not contain NUL, got "/c\ufffd\ufffd[2J"'],
    [() => gsd.validateCapability('{}', 'a\ud800'), 'folder', surrogate('folder')],
    [() => gsd.formatGsdSlash('help\udfff'), 'commandName', surrogate('commandName')],
    [() => gsd.resolveConfigHome('claude\ud800', h), 'runtime', surrogate('runtime')],
    [() => gsd.loadOverlayDir('/tmp\ud800'), 'dir', surrogate('dir')],
    [() => gsd.firstPartyRegistry().requiresClosure('claude\ud800'), 'id', surrogate('id')],
    [() => gsd.loadOverlayDir('/tmp/\u0000x'), 'dir', "dir must not contain NUL, got '/tmp/\\u{0}x'"],
  ];
  for (const [call, field, message] of cases) refused(call, 'INVALID_ARGUMENT', field, message);
  // The plan refuses the same explicit directories with the same errors.
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { explicitDir: '/x\ud800' }), 'INVALID_ARGUMENT', 'explicitDir', surrogate('explicitDir'));
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { explicitDir: '/x\u0000y' }), 'INVALID_ARGUMENT', 'explicitDir', 'explicitDir must not contain NUL, got "/x\ufffdy"');
  // A surrogate pair is one character like any other.
  assert.equal(gsd.resolveScope('claude', 'global', h, { explicitDir: '/x\ud83d\ude00' }).configHome, '/x\u{1f600}');
});

test('a resolveProfile result is a plan profile as it is; the allow-lists still are', () => {
  const sources = {
    commands: [
      { stem: 'help', body: '' },
      { stem: 'plan-phase', body: '' },
      { stem: 'extra-thing', body: '' },
    ],
  };
  const commands = sources.commands.map((c) => c.stem);
  const agents = ['gsd-planner'];
  const inventory = gsd.inventory({ commands, agents });
  const full = gsd.resolveProfile(['full'], sources);
  const core = gsd.resolveProfile(['core'], sources);
  assert.equal(full.skills, '*');
  assert.ok(Array.isArray(core.skills));
  const stems = (plan) => plan.placements.map((p) => `${p.kind}:${p.stem}`);
  for (const via of [{ commands, agents }, { inventory }]) {
    const everything = gsd.resolveInstallPlan('claude', 'global', h, via);
    // `skills: '*'` is the full profile: nothing is restricted.
    assert.deepStrictEqual(stems(gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: full })), stems(everything));
    // Any other result is its allow-lists, as given by hand before.
    const lists = { skills: [...core.skills], agents: [...core.agents] };
    const byResult = gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: core });
    assert.deepStrictEqual(stems(byResult), stems(gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: lists })));
    assert.ok(stems(byResult).length < stems(everything).length, 'the core profile leaves stems out');
    refused(
      () => gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: { skills: '*', agents: ['gsd-planner'] } }),
      'INVALID_ARGUMENT',
      'profile.agents',
      'profile.agents must be empty or null when profile.skills is "*" (the full profile restricts nothing)',
    );
    refused(
      () => gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: { skills: 'all' } }),
      'INVALID_ARGUMENT',
      'profile.skills',
      'profile.skills is invalid: invalid value: string "all", expected "*" or a list of skill stems',
    );
    refused(
      () => gsd.resolveInstallPlan('claude', 'global', h, { ...via, profile: { ...core, mode: 'core' } }),
      'INVALID_ARGUMENT',
      'profile.mode',
      'profile.mode is invalid: unknown field `mode`, expected one of `name`, `skills`, `agents`',
    );
  }
});

test('loadOverlayDir names dir and options and spells what they are', () => {
  const cases = [
    [() => gsd.loadOverlayDir(1n), 'dir', 'dir must be a non-empty string, got 1n'],
    [() => gsd.loadOverlayDir(Symbol('d')), 'dir', 'dir must be a non-empty string, got a symbol'],
    [() => gsd.loadOverlayDir(() => '/tmp'), 'dir', 'dir must be a non-empty string, got a function'],
    [() => gsd.loadOverlayDir(NaN), 'dir', 'dir must be a non-empty string, got NaN'],
    [() => gsd.loadOverlayDir(''), 'dir', 'dir must be a non-empty string, got ""'],
    [() => gsd.loadOverlayDir('/tmp', 1n), 'options', 'options must be an object, got 1n'],
    [() => gsd.loadOverlayDir('/tmp', Symbol('o')), 'options', 'options must be an object, got a symbol'],
    [() => gsd.loadOverlayDir('/tmp', 'x'), 'options', 'options must be an object, got "x"'],
  ];
  for (const [call, field, message] of cases) refused(call, 'INVALID_ARGUMENT', field, message);
});

test('a host that throws or has toJSON gets the same typed error on the fast path, the JSON path and resolveScope', () => {
  const inventory = gsd.inventory({ commands: ['help'] });
  // Prime the constants so the fast path is taken for a plain host.
  for (const scope of ['global', 'local']) void gsd.resolveInstallPlan('claude', scope, h, { inventory });
  const throwing = () => ({
    ...h,
    env: {
      get CLAUDE_CONFIG_DIR() {
        throw new Error('boom');
      },
    },
  });
  const withToJSON = () => ({ ...h, toJSON: () => ({ home: '/elsewhere', cwd: '/w' }) });
  for (const [host, field, message] of [
    [throwing, 'host.env.CLAUDE_CONFIG_DIR', 'host.env.CLAUDE_CONFIG_DIR is invalid: reading it threw: boom'],
    [withToJSON, 'host', 'host is invalid: it has a toJSON method: pass the data itself'],
  ]) {
    for (const scope of ['global', 'local']) {
      refused(() => gsd.resolveInstallPlan('claude', scope, host(), { inventory }), 'INVALID_ARGUMENT', field, message);
      refused(() => gsd.resolveInstallPlan('claude', scope, host(), { commands: ['help'] }), 'INVALID_ARGUMENT', field, message);
      refused(() => gsd.resolveScope('claude', scope, host()), 'INVALID_ARGUMENT', field, message);
    }
  }
  // A throwing getter of an option is named too.
  const options = {
    get explicitDir() {
      throw new Error('boom');
    },
  };
  for (const call of [
    () => gsd.resolveInstallPlan('claude', 'global', h, Object.defineProperties({ inventory }, Object.getOwnPropertyDescriptors(options))),
    () => gsd.resolveInstallPlan('claude', 'global', h, options),
    () => gsd.resolveScope('claude', 'global', h, options),
  ]) {
    refused(call, 'INVALID_ARGUMENT', 'explicitDir', 'explicitDir is invalid: reading it threw: boom');
  }
});

test('small things: NaN is spelled NaN, a null sampleLimit is absent, registry values are frozen', () => {
  refused(() => gsd.resolveScope(NaN, 'global', h), 'INVALID_ARGUMENT', 'runtime', 'runtime must be a string, got NaN');
  refused(() => gsd.resolveScope('claude', Infinity, h), 'INVALID_ARGUMENT', 'scope', 'scope must be a string, got Infinity');
  const facts = { homes: {} };
  assert.deepStrictEqual(gsd.buildShadowReport('claude', h, { facts, sampleLimit: null }), gsd.buildShadowReport('claude', h, { facts }));
  const registry = gsd.buildRegistry([{ folder: 'x-overlay', manifest: '{}' }]);
  const diagnostics = registry.diagnostics();
  assert.ok(diagnostics.length > 0);
  assert.ok(Object.isFrozen(diagnostics) && diagnostics.every((d) => Object.isFrozen(d)));
  const closure = gsd.firstPartyRegistry().requiresClosure('claude');
  assert.ok(Object.isFrozen(closure));
  assert.deepStrictEqual([...closure], [...native.Registry.firstParty().requiresClosure('claude')]);
  // runtimes() is deep-frozen on the class as in the package function, and the same data.
  const rows = gsd.firstPartyRegistry().runtimes();
  assert.ok(Object.isFrozen(rows) && rows.every((r) => Object.isFrozen(r) && Object.isFrozen(r.descriptor)));
  assert.equal(rows.length, 19);
  assert.deepStrictEqual(rows, gsd.runtimes());
  assert.deepStrictEqual(rows.map((r) => r.id), [...gsd.firstPartyRegistry().runtimeIds()]);
  // runtimeIds() and toPeerJson() are fresh copies, as documented.
  const ids = gsd.firstPartyRegistry().runtimeIds();
  assert.ok(!Object.isFrozen(ids));
  assert.notEqual(ids, gsd.firstPartyRegistry().runtimeIds());
  assert.ok(!Object.isFrozen(gsd.firstPartyRegistry().toPeerJson()));
});

test('caller text in an error is safe to print and bounded, whichever side refuses it', () => {
  // Refused by the package (an unknown option, a member napi cannot carry)...
  refused(() => gsd.resolveScope('claude', 'global', h, { '\u001b[31m\u202ex': 1 }), 'INVALID_ARGUMENT', '\ufffd\ufffdx', '\ufffd\ufffdx is invalid: unknown field `\ufffd\ufffdx`, expected `explicitDir` or `registry`');
  refused(() => gsd.resolveScope('claude', 'global', { ...h, env: { '\u001b]0;title\u0007': Symbol('s') } }), 'INVALID_ARGUMENT', 'host.env["\\u001b]0;title\\u0007"]', 'host.env["\\u001b]0;title\\u0007"] is invalid: a symbol is not JSON data');
  const long = thrown(() => gsd.resolveScope('claude', { a: 'x'.repeat(10000) }, h));
  assert.equal(long.code, 'INVALID_ARGUMENT');
  assert.equal(long.message.length, 2049, 'clipped at 2,048 characters and an ellipsis');
  assert.ok(long.message.endsWith('x…'));
  // ...and by the core reading the JSON text (a plan's options cross as text).
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { commands: ['help'], profile: { skills: ['help'], agents: [], '\u001b[2J': 1 } }), 'INVALID_ARGUMENT', 'profile["\\u001b[2J"]', 'profile["\\u001b[2J"] is invalid: unknown field `\ufffd`, expected one of `name`, `skills`, `agents`');
});

test('a record given as an array is refused, never read by position', () => {
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { commands: ['help'], profile: [['help'], []] }), 'INVALID_ARGUMENT', 'profile', 'profile is invalid: invalid type: sequence, expected struct ProfileInput');
});

test('review fixes: nesting, inherited options, records read as objects, a profile name, revoked proxies', () => {
  const deep = (n) => {
    let v = 'x';
    for (let i = 0; i < n; i += 1) v = { a: v };
    return v;
  };
  // Too deep for the reader: refused on the argument by the package, never napi's own error.
  const tooDeep = thrown(() => gsd.resolveScope('claude', 'global', { ...h, env: { X: deep(200) } }));
  assert.equal(tooDeep.code, 'INVALID_ARGUMENT');
  assert.equal(tooDeep.field, 'host');
  assert.match(tooDeep.message, /nests deeper than 127 levels, which the core does not read/);
  // Options an object inherits are read, as they always were.
  assert.equal(gsd.resolveScope('claude', 'global', h, Object.create({ explicitDir: '/x' })).configHome, '/x');
  // The plan reads its options the same way, on both paths (raw lists and an inventory).
  const inherited = gsd.resolveInstallPlan('claude', 'global', h, Object.create({ explicitDir: '/x', commands: ['help'] }));
  assert.equal(inherited.scope.configHome, '/x');
  assert.deepStrictEqual(inherited.placements.map((p) => p.destination), ['/x/skills/gsd-help/SKILL.md']);
  const viaInventory = gsd.resolveInstallPlan('claude', 'global', h, Object.create({ explicitDir: '/x', inventory: gsd.inventory({ commands: ['help'] }) }));
  assert.deepStrictEqual(viaInventory.placements.map((p) => p.destination), ['/x/skills/gsd-help/SKILL.md']);
  class Getters {
    get explicitDir() {
      return '/y';
    }
  }
  assert.equal(gsd.resolveInstallPlan('claude', 'global', h, new Getters()).scope.configHome, '/y');
  // Only own members are checked for unknown names.
  assert.equal(gsd.resolveInstallPlan('claude', 'global', h, Object.create({ extra: 1 })).scope.configHome, '/h/.claude');
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { extra: 1 }), 'INVALID_ARGUMENT', 'extra', 'extra is invalid: unknown field `extra`, expected one of `explicitDir`, `inventory`, `commands`, `agents`, `routerStems`, `childToRouters`, `profile`, `registry`');
  // Calls that cross objects (not text) read records as objects and render keys safely too.
  refused(() => gsd.resolveProfile(['core'], { commands: [['help', '']] }), 'INVALID_ARGUMENT', 'sources.commands[0]', 'sources.commands[0] is invalid: invalid type: sequence, expected struct CommandSource');
  refused(() => gsd.resolveScope('claude', 'global', { ...h, env: { 'X\u001b[2J\u202eY': 5 } }), 'INVALID_ARGUMENT', 'host.env["X\\u001b[2J\ufffdY"]', 'host.env["X\\u001b[2J\ufffdY"] is invalid: invalid type: integer `5`, expected a string');
  // A profile name selects nothing by itself, and `full` means every skill.
  const inventory = gsd.inventory({ commands: ['help'] });
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { inventory, profile: { name: 'core' } }), 'INVALID_ARGUMENT', 'profile.skills', "profile.skills is required with profile.name: the name selects nothing itself (pass resolveProfile's result whole)");
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { inventory, profile: { name: 'full', skills: ['help'] } }), 'INVALID_ARGUMENT', 'profile.skills', 'profile.skills must be "*" when profile.name is "full"');
  // A revoked Proxy is a typed error wherever it is given.
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  assert.equal(thrown(() => gsd.inventory(revocable.proxy)).code, 'INVALID_ARGUMENT');
  assert.equal(thrown(() => gsd.loadOverlayDir('/tmp', revocable.proxy)).code, 'INVALID_ARGUMENT');
  // A huge wrong argument is still a bounded message.
  const huge = thrown(() => gsd.resolveScope('claude', 'global', Array.from({ length: 200000 }, () => 'abc')));
  assert.equal(huge.code, 'INVALID_ARGUMENT');
  assert.ok(huge.message.length <= 2049);
});

test('a registry must be one the addon made: lookalikes are refused by name, never with napi\'s error', () => {
  const real = gsd.firstPartyRegistry();
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  class Sub extends gsd.Registry {}
  const lookalikes = [Object.create(gsd.Registry.prototype), Object.create(Sub.prototype), new Proxy(real, {}), revocable.proxy, {}];
  const inventory = gsd.inventory({ commands: ['help'] });
  for (const registry of lookalikes) {
    for (const call of [
      () => gsd.resolveScope('claude', 'global', h, { registry }),
      () => gsd.resolveInstallPlan('claude', 'global', h, { registry }),
      () => gsd.resolveInstallPlan('claude', 'global', h, { registry, inventory }),
      () => gsd.runtimes(registry),
      () => gsd.buildRegistry([], { registry }),
    ]) {
      const err = thrown(call);
      assert.deepStrictEqual([err.code, err.field], ['INVALID_ARGUMENT', 'registry'], String(call));
      assert.match(err.message, /^registry must be a Registry from firstPartyRegistry\(\) or buildRegistry\(\), got /);
    }
  }
  // The real ones, built or not, still pass (and are remembered, not asked again).
  const built = gsd.buildRegistry([]);
  for (let i = 0; i < 2; i += 1) {
    assert.equal(gsd.resolveScope('claude', 'global', h, { registry: built }).configHome, '/h/.claude');
    assert.equal(gsd.resolveScope('claude', 'global', h, { registry: real }).configHome, '/h/.claude');
  }
});

test('a plan over an inventory reads each host property once, whichever path it takes', () => {
  const inventory = gsd.inventory({ commands: ['help'] });
  // With an option the plan crosses as JSON after the compact read: the getter is not read again.
  for (const [runtime, scope, options, expected] of [
    ['codex', 'local', { inventory }, '/w/.codex'],
    ['kilo', 'global', { inventory, explicitDir: undefined }, '/h/.config/kilo'],
    ['claude', 'global', { inventory, profile: null }, '/h/.claude'],
  ]) {
    let reads = 0;
    const host = {
      get home() {
        reads += 1;
        if (reads > 1) throw new Error('read twice');
        return '/h';
      },
      cwd: '/w',
    };
    const plan = gsd.resolveInstallPlan(runtime, scope, host, options);
    assert.equal(plan.scope.configHome, expected, runtime);
    assert.equal(reads, 1, `${runtime}: home read ${reads} times`);
  }
});

test('an options bag that is a Map or Set is refused, never read as empty; a Number object counts as its value', () => {
  for (const bag of [new Map([['commands', ['help']]]), new Set(['x'])]) {
    const kind = bag instanceof Map ? 'Map' : 'Set';
    refused(() => gsd.resolveInstallPlan('claude', 'global', h, bag), 'INVALID_ARGUMENT', 'options', `options must be an object of options, got a ${kind} (its entries are not members)`);
    refused(() => gsd.resolveScope('claude', 'global', h, bag), 'INVALID_ARGUMENT', 'options', `options must be an object of options, got a ${kind} (its entries are not members)`);
  }
  // eslint-disable-next-line no-new-wrappers
  assert.deepStrictEqual(gsd.buildShadowReport('claude', h, { sampleLimit: new Number(1) }), gsd.buildShadowReport('claude', h, { sampleLimit: 1 }));
});

test('a host with a Set of paths is judged whole, as without one: no class instance or toJSON slips through the copy', () => {
  class Host {
    constructor(paths) {
      this.home = '/h';
      this.cwd = '/w';
      this.existingPaths = paths;
    }
    toJSON() {
      return {};
    }
  }
  for (const paths of [new Set(), []]) {
    refused(() => gsd.resolveInstallPlan('claude', 'global', new Host(paths)), 'INVALID_ARGUMENT', 'host', 'host is invalid: it has a toJSON method: pass the data itself');
    refused(() => gsd.resolveScope('claude', 'global', new Host(paths)), 'INVALID_ARGUMENT', 'host', 'host is invalid: it has a toJSON method: pass the data itself');
  }
  // A plain host with a Set still crosses as its list.
  const found = gsd.resolveInstallPlan('claude', 'local', { home: '/h', cwd: '/w', existingPaths: new Set(['/w/.claude']) });
  assert.equal(found.scope.configHome, '/w/.claude');
});

test('a list claiming more items than a list may have is refused by name before it is copied', () => {
  const huge = new Proxy([], { get: (target, key) => (key === 'length' ? 2 ** 32 - 1 : typeof key === 'string' && /^\d+$/.test(key) ? 'a' : target[key]) });
  const too = (field) => `${field} is invalid: it has 4294967295 items, more than the 16777216 a list may have`;
  refused(() => gsd.resolveInstallPlan('claude', 'global', h, { commands: huge }), 'INVALID_ARGUMENT', 'commands', too('commands'));
  refused(() => gsd.inventory({ agents: huge }), 'INVALID_ARGUMENT', 'agents', too('agents'));
  refused(() => gsd.resolveTriggerSurface('claude', huge, { stems: [] }), 'INVALID_ARGUMENT', 'scopes', too('scopes'));
  const inventory = gsd.inventory({});
  refused(() => gsd.resolveInstallPlan('claude', 'global', { ...h, existingPaths: huge }, { inventory }), 'INVALID_ARGUMENT', 'host.existingPaths', too('host.existingPaths'));
});

test('data copies inherit nothing: a polluted Object.prototype adds no member to a host or sources', () => {
  Object.prototype.CLAUDE_CONFIG_DIR = '/polluted';
  try {
    assert.equal(gsd.resolveScope('claude', 'global', { ...h, env: {} }).configHome, '/h/.claude');
    assert.equal(gsd.resolveConfigHome('claude', { ...h, env: {} }).configHome, '/h/.claude');
    assert.equal(gsd.buildShadowReport('claude', { ...h, env: {} }).report.reason, 'not_shadowed');
    assert.equal(gsd.resolveProfile(['core'], { commands: [] }).name, 'core');
  } finally {
    delete Object.prototype.CLAUDE_CONFIG_DIR;
  }
});

test('an option only a polluted Object.prototype holds is never read; one the caller\'s own prototype holds is', () => {
  const inventory = gsd.inventory({ commands: ['help'] });
  const pollute = { explicitDir: '/polluted', registry: {}, profile: { skills: [], agents: [] }, inventory: {}, commands: ['x'], facts: {} };
  for (const [key, value] of Object.entries(pollute)) {
    Object.prototype[key] = value;
    try {
      // No options bag, an empty one, and one with other members: the same answers.
      assert.equal(gsd.resolveScope('claude', 'global', h).configHome, '/h/.claude', key);
      assert.equal(gsd.resolveScope('claude', 'global', h, {}).configHome, '/h/.claude', key);
      assert.equal(gsd.resolveInstallPlan('claude', 'global', h).scope.configHome, '/h/.claude', key);
      const plan = gsd.resolveInstallPlan('claude', 'global', h, { inventory });
      assert.deepStrictEqual(plan.placements.map((p) => p.destination), ['/h/.claude/skills/gsd-help/SKILL.md'], key);
      // With another option beside the inventory too (a polluted `commands` is not "given
      // together with inventory").
      const beside = gsd.resolveInstallPlan('claude', 'global', h, { inventory, explicitDir: '/x' });
      assert.deepStrictEqual(beside.placements.map((p) => p.destination), ['/x/skills/gsd-help/SKILL.md'], key);
      assert.equal(gsd.resolveInstallPlan('claude', 'global', h, { commands: ['help'] }).placements.length, 1, key);
      assert.equal(gsd.installIntent('claude').runtime, 'claude', key);
      assert.equal(gsd.buildShadowReport('claude', { ...h, env: {} }).report.reason, 'not_shadowed', key);
    } finally {
      delete Object.prototype[key];
    }
  }
  // The inventory copy says what the native side holds: an inherited list is not given.
  Object.prototype.commands = ['evil'];
  let copy;
  try {
    copy = gsd.inventory({ agents: [] });
  } finally {
    delete Object.prototype.commands;
  }
  assert.deepStrictEqual(copy.commands, []);
  // A prototype the caller built still counts, as documented.
  class Options {
    get explicitDir() {
      return '/from/a/class';
    }
  }
  assert.equal(gsd.resolveScope('claude', 'global', h, new Options()).configHome, '/from/a/class');
  assert.equal(gsd.resolveScope('claude', 'global', h, Object.create({ explicitDir: '/from/a/prototype' })).configHome, '/from/a/prototype');
});

test('a revoked Proxy or a throwing getPrototypeOf trap in a host is named as what threw', () => {
  const revocable = Proxy.revocable([], {});
  revocable.revoke();
  const revoked = "host.existingPaths is invalid: reading it threw: Cannot perform 'IsArray' on a proxy that has been revoked";
  refused(() => gsd.resolveInstallPlan('claude', 'global', { ...h, existingPaths: revocable.proxy }), 'INVALID_ARGUMENT', 'host.existingPaths', revoked);
  refused(() => gsd.resolveInstallPlan('claude', 'global', { ...h, existingPaths: revocable.proxy }, { inventory: gsd.inventory({}) }), 'INVALID_ARGUMENT', 'host.existingPaths', revoked);
  const env = new Proxy({}, {
    getPrototypeOf() {
      throw new Error('no prototype');
    },
  });
  refused(() => gsd.resolveScope('claude', 'global', { ...h, env }), 'INVALID_ARGUMENT', 'host.env', 'host.env is invalid: reading it threw: no prototype');
});

test('an env member named __proto__ is a member on every path of a plan; a revoked sampleLimit is named', () => {
  const env = JSON.parse('{"__proto__":"a\\u0000b"}');
  for (const options of [undefined, { inventory: gsd.inventory({}) }, { inventory: gsd.inventory({}) }]) {
    const err = thrown(() => gsd.resolveInstallPlan('claude', 'global', { ...h, env }, options));
    assert.deepStrictEqual([err.code, err.field], ['INVALID_HOST', 'host.env.__proto__']);
  }
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const err = thrown(() => gsd.buildShadowReport('claude', h, { sampleLimit: revocable.proxy }));
  assert.deepStrictEqual([err.code, err.field], ['INVALID_ARGUMENT', 'sampleLimit']);
});

test('a host whose existingPaths is a Set has it read once', () => {
  for (const options of [undefined, { inventory: gsd.inventory({}) }]) {
    let reads = 0;
    const host = {
      home: '/h',
      cwd: '/w',
      get existingPaths() {
        reads += 1;
        return new Set(['/w/.claude']);
      },
    };
    assert.equal(gsd.resolveInstallPlan('claude', 'local', host, options).scope.configHome, '/w/.claude');
    assert.equal(reads, 1);
  }
});

test('a manifest given as an object is checked as data: what JSON would drop or change is refused by its member', () => {
  const claude = JSON.parse(readFileSync(new URL('../../capabilities/claude/capability.json', import.meta.url), 'utf8'));
  assert.deepStrictEqual(gsd.validateCapability(claude, 'claude'), []);
  const runtime = (member) => ({ ...claude, runtime: { ...claude.runtime, ...member } });
  for (const [manifest, field, why] of [
    // JSON.stringify would drop the function, and the manifest would read as valid.
    [runtime({ hostBehaviors: () => 1 }), 'manifest.runtime.hostBehaviors', 'a function is not JSON data'],
    // ... write NaN as null, and the message would say "got: null".
    [runtime({ supportTier: Number.NaN }), 'manifest.runtime.supportTier', 'NaN is not a JSON number'],
    [{ ...claude, tier: new Map() }, 'manifest.tier', 'a Map is not JSON data (JSON would write {})'],
    [{ toJSON: () => claude }, 'manifest', 'it has a toJSON method: pass the data itself'],
  ]) {
    refused(() => gsd.validateCapability(manifest, 'claude'), 'INVALID_ARGUMENT', field, `${field} is invalid: ${why}`);
    refused(() => gsd.warningRecords(manifest), 'INVALID_ARGUMENT', field, `${field} is invalid: ${why}`);
  }
  refused(() => gsd.validateCapability({ ...claude, version: 1n }, 'claude'), 'INVALID_ARGUMENT', 'manifest', 'manifest is invalid: manifest.version is a bigint (1n), which JSON cannot carry');
});

test('a member that is missing is named itself, not the object that lacks it', () => {
  refused(() => gsd.resolveScope('claude', 'global', { cwd: '/w' }), 'INVALID_ARGUMENT', 'host.home', 'host.home is invalid: missing field `home`');
  refused(() => gsd.resolveInstallPlan('claude', 'global', { home: '/h' }), 'INVALID_ARGUMENT', 'host.cwd', 'host.cwd is invalid: missing field `cwd`');
  refused(() => gsd.buildRegistry([{ folder: 'x' }]), 'INVALID_ARGUMENT', 'overlays[0].manifest', 'overlays[0].manifest is invalid: missing field `manifest`');
});
