// The package API: values, freezing, errors with code and field.
import test from 'node:test';
import assert from 'node:assert/strict';
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
