// The package API: values, freezing, errors with code and field.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { require, peer, thrown } from './helpers.mjs';

const gsd = require('../index.js');
const peerRegistry = peer('capability-registry');

test('runtimes() lists exactly the peer registry runtimes, each with its descriptor', () => {
  const ids = gsd.runtimes().map((r) => r.id);
  assert.deepStrictEqual(ids, Object.keys(peerRegistry.runtimes).sort());
  for (const { id, descriptor } of gsd.runtimes()) {
    const theirs = peerRegistry.runtimes[id].runtime;
    assert.deepStrictEqual(descriptor.configHome.kind, theirs.configHome.kind, id);
    assert.deepStrictEqual(descriptor.localConfigDir ?? null, theirs.localConfigDir ?? null, id);
    assert.deepStrictEqual(descriptor.commandStyle, theirs.commandStyle, id);
    assert.deepStrictEqual(descriptor.installSurface, theirs.installSurface, id);
    assert.deepStrictEqual(descriptor.supportTier, theirs.supportTier, id);
  }
});

test('results are deep-frozen plain objects', () => {
  const [first] = gsd.runtimes();
  assert.equal(Object.getPrototypeOf(first), Object.prototype);
  assert.ok(Object.isFrozen(first));
  assert.ok(Object.isFrozen(first.descriptor.artifactLayout.global[0]));
  assert.throws(() => {
    'use strict';
    first.descriptor.commandStyle = 'x';
  }, TypeError);
});

test('firstPartyRegistry() is one handle with 19 runtime ids and no diagnostics', () => {
  const registry = gsd.firstPartyRegistry();
  assert.equal(registry, gsd.firstPartyRegistry());
  assert.equal(registry.runtimeIds().length, 19);
  assert.deepStrictEqual(registry.diagnostics(), []);
});

test('errorCodes is the core table, frozen', () => {
  assert.ok(Object.isFrozen(gsd.errorCodes));
  for (const code of ['UNKNOWN_RUNTIME', 'INVALID_SCOPE', 'NO_CONFIG_HOME', 'INVALID_ARGUMENT', 'PANIC']) {
    assert.ok(gsd.errorCodes.includes(code), code);
  }
  assert.equal(new Set(gsd.errorCodes).size, gsd.errorCodes.length);
});

test('a registry argument that is not a Registry fails with INVALID_ARGUMENT on field registry', () => {
  const err = thrown(() => gsd.runtimes({}));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(err.field, 'registry');
});

test('data that cannot cross, misspelt members and unsafe values fail on their field', () => {
  const host = { home: '/h', cwd: '/w' };
  const cyclic = { ...host };
  cyclic.self = cyclic;
  const facts = { homes: {} };
  facts.homes.loop = facts;
  const cases = [
    [() => gsd.resolveScope('claude', 'global', cyclic), 'INVALID_ARGUMENT', 'host'],
    [() => gsd.resolveConfigHome('claude', { ...host, env: { X: 1n } }), 'INVALID_ARGUMENT', 'host'],
    [() => gsd.resolveConfigHome('claude', { ...host, env: { CLAUDE_CONFIG_DIR: 5 } }), 'INVALID_ARGUMENT', 'host.env.CLAUDE_CONFIG_DIR'],
    [() => gsd.resolveLayout('claude', '/h/.claude', 'global', { ...host, existingPaths: [1] }), 'INVALID_ARGUMENT', 'host.existingPaths[0]'],
    [() => gsd.resolveInstalledSurfaces('claude', host, { facts }), 'INVALID_ARGUMENT', 'facts'],
    [() => gsd.buildShadowReport('claude', host, { facts: { homes: { '/h/.claude': { manifestText: '' } } } }), 'INVALID_ARGUMENT', 'facts.homes["/h/.claude"].manifestText'],
    [() => gsd.buildRegistry([{ folder: 'a', manifest: 1n }]), 'INVALID_ARGUMENT', 'overlays'],
    [() => gsd.resolveProfile(['core'], { commands: [{ stem: 'a', body: 1n }] }), 'INVALID_ARGUMENT', 'sources'],
    [() => gsd.validateCapability({ id: 1n }, 'x'), 'INVALID_ARGUMENT', 'manifest'],
    [() => gsd.resolveInstallPlan('claude', 'global', { ...host, enviroment: {} }), 'INVALID_ARGUMENT', 'host.enviroment'],
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '', cwd: '/w' }), 'INVALID_HOST', 'host.home'],
    [() => gsd.resolveInstallPlan('claude', 'local', { home: 'h', cwd: '/w' }), 'INVALID_HOST', 'host.home'],
    [() => gsd.resolveInstallPlan('claude', 'global', { ...host, env: { CLAUDE_CONFIG_DIR: '/c\u0000x' } }), 'INVALID_HOST', 'host.env.CLAUDE_CONFIG_DIR'],
    [() => gsd.resolveInstallPlan('claude', 'global', host, { explicitDir: '/c\u0000x' }), 'INVALID_ARGUMENT', 'explicitDir'],
    [() => gsd.resolveTriggerSurface('claude', ['global'], { stems: ['ok', '../../etc/x'] }), 'INVALID_ARGUMENT', 'stems[1]'],
    [() => gsd.resolveTriggerSurface('claude', ['global'], { stems: ['a'], childToRouters: { a: ['ns/x'] } }), 'INVALID_ARGUMENT', 'childToRouters.a'],
    [() => gsd.resolveTriggerSurface('claude', ['global', 'Local'], { stems: ['a'] }), 'INVALID_SCOPE', 'scopes[1]'],
    [() => gsd.resolveTriggerSurface('claude', ['global'], 5), 'INVALID_ARGUMENT', 'input'],
    // A lone surrogate has no UTF-8 form: refused, never turned into U+FFFD on the way,
    // naming the string at fault whichever way the data crosses.
    [() => gsd.resolveScope('claude', 'global', { home: '/h\ud800', cwd: '/w' }), 'INVALID_ARGUMENT', 'host.home'],
    [() => gsd.resolveConfigHome('claude', { ...host, env: { ['X\udc00']: '1' } }), 'INVALID_ARGUMENT', 'host.env["X\ufffd"]'],
    // Through the calls that send JSON text, and an object manifest.
    [() => gsd.resolveInstallPlan('claude', 'global', { home: '/h\ud800', cwd: '/w' }), 'INVALID_ARGUMENT', 'host.home'],
    [() => gsd.inventory({ commands: ['a\ud800'] }), 'INVALID_ARGUMENT', 'commands[0]'],
    [() => gsd.validateCapability({ id: '\ud800' }, 'a'), 'INVALID_ARGUMENT', 'manifest.id'],
    // A bare argument JSON cannot spell is described, not a TypeError of JSON.stringify.
    [() => gsd.validateCapability(1n, 'a'), 'INVALID_ARGUMENT', 'manifest'],
    [() => gsd.formatGsdSlash(1n), 'INVALID_ARGUMENT', 'commandName'],
    [() => gsd.resolveInstallPlan('claude', 1n, host), 'INVALID_ARGUMENT', 'scope'],
    [() => gsd.resolveScope(Symbol('x'), 'global', host), 'INVALID_ARGUMENT', 'runtime'],
    [() => gsd.resolveTriggerSurface('claude', cyclic, { stems: [] }), 'INVALID_ARGUMENT', 'scopes'],
  ];
  for (const [call, code, field] of cases) {
    const err = thrown(call);
    assert.equal(err.code, code, err.message);
    assert.equal(err.field, field, err.message);
    // A scope error keeps the peer's wording; every other message names its field.
    if (code !== 'INVALID_SCOPE') assert.ok(err.message.includes(field), err.message);
    assert.ok(err.message.isWellFormed(), err.message);
  }
  assert.equal(thrown(() => gsd.resolveScope('claude', 'global', { home: '/h\ud800', cwd: '/w' })).message, 'host.home is invalid: it holds a lone surrogate, which UTF-8 cannot carry');
  assert.equal(thrown(() => gsd.resolveInstallPlan('claude', 'global', { home: '/h\ud800', cwd: '/w' })).message, 'host.home is invalid: it holds a lone surrogate, which UTF-8 cannot carry');
  assert.equal(thrown(() => gsd.validateCapability(1n, 'a')).message, 'manifest must be JSON text or an object, got 1n');
  assert.equal(thrown(() => gsd.validateCapability({ id: '\ud800' }, 'a')).message, 'manifest.id is invalid: it holds a lone surrogate, which UTF-8 cannot carry');
  // Other errors keep their own message, whatever word the caller's key or value holds.
  assert.match(thrown(() => gsd.inventory({ surrogate: 1 })).message, /^surrogate is invalid: unknown field `surrogate`/);
  assert.match(thrown(() => gsd.inventory({ commands: 'no surrogate here' })).message, /^commands is invalid: invalid type/);
  // A surrogate pair is a character like any other.
  assert.equal(gsd.resolveScope('claude', 'global', { home: '/h\ud83d\ude00', cwd: '/w' }).configHome, '/h\u{1f600}/.claude');
});

test('a sample limit past 32 bits means every sample, as any limit past the count does', () => {
  const host = { home: '/h', cwd: '/w' };
  const installed = (scope, files) => ({ manifest: JSON.stringify({ manifestVersion: 2, runtime: 'claude', scope, files }) });
  const stems = ['help', 'plan-phase', 'verify'];
  const facts = {
    homes: {
      '/h/.claude': installed('global', Object.fromEntries(stems.map((s) => [`skills/gsd-${s}/SKILL.md`, '0']))),
      '/w/.claude': installed('local', Object.fromEntries(stems.map((s) => [`commands/gsd-${s}.md`, '0']))),
    },
  };
  const all = gsd.buildShadowReport('claude', host, { facts, sampleLimit: 1000 });
  const one = gsd.buildShadowReport('claude', host, { facts, sampleLimit: 1 });
  assert.equal(all.report.shadowed, true);
  assert.notDeepStrictEqual(all.lines, one.lines, 'the limit shows in the lines');
  for (const sampleLimit of [2 ** 32, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER]) {
    assert.deepStrictEqual(gsd.buildShadowReport('claude', host, { facts, sampleLimit }), all, String(sampleLimit));
  }
});

test('runtimes() is built once per registry: the same frozen array on every call, a new one for a new registry', () => {
  const first = gsd.runtimes();
  assert.equal(gsd.runtimes(), first);
  assert.equal(gsd.firstPartyRegistry().runtimes(), first);
  assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0].descriptor));
  const other = gsd.buildRegistry(Object.freeze([]));
  assert.notEqual(other.runtimes(), first);
  assert.equal(other.runtimes(), other.runtimes());
  assert.deepStrictEqual(other.runtimes(), first);
});

test('formatGsdSlash spells an overlay runtime by its registry', () => {
  const codex = gsd.firstPartyRegistry().runtimes().find((r) => r.id === 'codex').descriptor;
  assert.equal(codex.commandStyle, 'shell-var');
  const manifest = JSON.parse(readFileSync(new URL('../../capabilities/codex/capability.json', import.meta.url), 'utf8'));
  delete manifest.config;
  delete manifest.reviewer;
  const mine = { ...manifest, id: 'myshell', title: 'My shell', runtime: { ...manifest.runtime, configHome: { kind: 'dot-home', name: '.myshell', env: [] }, localConfigDir: '.myshell' } };
  const registry = gsd.buildRegistry([{ folder: 'myshell', manifest: JSON.stringify(mine) }]);
  assert.deepStrictEqual(registry.diagnostics().filter((d) => d.severity === 'error'), []);
  assert.equal(gsd.formatGsdSlash('help', 'myshell', { registry }), '$gsd-help');
  // Without it, the first-party registry does not hold the runtime: the peer's default.
  assert.equal(gsd.formatGsdSlash('help', 'myshell'), '/gsd-help');
  assert.equal(gsd.formatGsdSlash('help', 'codex', { registry }), '$gsd-help');
  assert.equal(thrown(() => gsd.formatGsdSlash('help', 'codex', { registy: registry })).field, 'registy');
});
