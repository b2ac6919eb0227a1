// compat/capability-validator.cjs equals the peer's validator on the shipped manifests and
// on mutations of them (errors in order, warning records with their key order).
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome } from './helpers.mjs';

const ours = require('../compat/capability-validator.cjs');
const theirs = peer('capability-validator');
const registry = peer('capability-registry');

/**
 * Peer exports the module does not provide (its header says why): per-entry validators and
 * cross-capability checks (functions), the regular expressions, and these tables, which
 * the core holds as rules rather than as data. Listed so that a new peer export, or one
 * we stop providing, fails the test instead of passing unseen.
 */
const NOT_PROVIDED_TABLES = [
  'CLAUDE_FAMILY_EVENTS',
  'GEMINI_AGENT_EVENTS',
  'HOST_ARTIFACT_EARLIEST_POINT_IDX',
  'INSTALL_SURFACE_TO_ALLOWED_HOOKS_SURFACES',
  'INSTALL_SURFACE_TO_CONFIG_FORMAT',
  'MAX_REPORTED_KEY_CHARS',
  'MAX_REPORTED_UNKNOWN_KEYS',
  'POINT_TO_CONTRACT',
];

test('capability-validator: every export we provide equals the peer; the ones we do not are named', () => {
  const missing = Object.keys(theirs).filter((name) => !(name in ours));
  const tables = missing.filter((name) => typeof theirs[name] !== 'function' && !(theirs[name] instanceof RegExp));
  assert.deepStrictEqual(tables.sort(), NOT_PROVIDED_TABLES);
  assert.deepStrictEqual(Object.keys(ours).filter((name) => !(name in theirs)), [], 'nothing the peer lacks');
  for (const [name, value] of Object.entries(ours)) {
    if (typeof value === 'function') {
      assert.equal(typeof theirs[name], 'function', name);
      continue;
    }
    assert.deepStrictEqual(value, theirs[name], name);
    if (value instanceof Set) assert.deepStrictEqual([...value], [...theirs[name]], `${name} order`);
    assert.equal(Object.isFrozen(value), Object.isFrozen(theirs[name]), `${name} frozenness`);
  }
});

const clone = (v) => JSON.parse(JSON.stringify(v));

/** Mutations applied to every shipped manifest: each returns a new manifest. */
const MUTATIONS = {
  asIs: (c) => c,
  noId: (c) => ({ ...c, id: undefined }),
  badId: (c) => ({ ...c, id: 'Bad_Id' }),
  badRole: (c) => ({ ...c, role: 'plugin' }),
  badTier: (c) => ({ ...c, tier: 7 }),
  badVersion: (c) => ({ ...c, version: 'v1.0' }),
  requiresNumber: (c) => ({ ...c, requires: [1, 'x'] }),
  enginesString: (c) => ({ ...c, engines: '>=1' }),
  unknownHostBehavior: (c) => (c.runtime ? { ...c, runtime: { ...c.runtime, hostBehaviors: { ...c.runtime.hostBehaviors, zz: 1, reviewerCli: 'x' } } } : c),
  badConfigHome: (c) => (c.runtime ? { ...c, runtime: { ...c.runtime, configHome: { kind: 'nowhere' } } } : c),
  badLayout: (c) => (c.runtime ? { ...c, runtime: { ...c.runtime, artifactLayout: { global: [{ kind: 'skills', destSubpath: 'x', prefix: 'gsd-', nesting: 'flat' }], local: 'x' } } } : c),
  badSurface: (c) => (c.runtime ? { ...c, runtime: { ...c.runtime, installSurface: 'codex-toml', hooksSurface: 'settings-json' } } : c),
  reviewerJunk: (c) => ({ ...c, reviewer: { slug: 'A', bogus: 1 } }),
  noTitle: (c) => ({ ...c, title: '' }),
};

test('capability-validator: 46 manifests × mutations give the same errors and warning records', () => {
  let cases = 0;
  for (const [id, cap] of Object.entries(registry.capabilities)) {
    for (const [name, mutate] of Object.entries(MUTATIONS)) {
      const manifest = mutate(clone(cap));
      const label = `${id} ${name}`;
      assertSameOutcome(() => ours.validateCapability(clone(manifest), id), () => theirs.validateCapability(clone(manifest), id), label);
      assertSameOutcome(() => ours.collectReviewerWarningRecords(clone(manifest)), () => theirs.collectReviewerWarningRecords(clone(manifest)), `${label} warnings`);
      assertSameOutcome(() => ours.collectReviewerWarnings(clone(manifest)), () => theirs.collectReviewerWarnings(clone(manifest)), `${label} warning messages`);
      cases += 1;
    }
  }
  assert.equal(cases, 46 * Object.keys(MUTATIONS).length);
});

test('capability-validator: non-objects and folder mismatches', () => {
  for (const value of [null, undefined, 1, 'x', [], [1]]) {
    assertSameOutcome(() => ours.validateCapability(value, 'x'), () => theirs.validateCapability(value, 'x'), String(value));
  }
  const claude = clone(registry.capabilities.claude);
  assertSameOutcome(() => ours.validateCapability(claude, 'codex'), () => theirs.validateCapability(claude, 'codex'), 'folder');
});

test('capability-validator: deliberate difference — a destSubpath leaving the config directory is an error here', () => {
  const cap = clone(registry.capabilities.claude);
  cap.runtime.artifactLayout.global[0].destSubpath = '../outside';
  const peerErrors = theirs.validateCapability(clone(cap), 'claude');
  const ourErrors = ours.validateCapability(clone(cap), 'claude');
  assert.deepStrictEqual(peerErrors, [], 'the peer accepts it');
  assert.deepStrictEqual(ourErrors, ['capability "claude" runtime.artifactLayout.global[0].destSubpath "../outside" must stay inside the config directory: it contains a ".." segment']);
});

test('capability-validator: a lone surrogate in a manifest string is one odd character, as for the peer', () => {
  const base = registry.capabilities.tdd;
  const cases = [
    { ...clone(base), description: 'a\ud800b' },
    { ...clone(base), title: '\udc00' },
    { ...clone(base), id: 'x\ud800' },
    { ...clone(base), skills: ['ok', 'bad\ud800'] },
  ];
  for (const manifest of cases) {
    assertSameOutcome(() => ours.validateCapability(structuredClone(manifest), 'tdd'), () => theirs.validateCapability(structuredClone(manifest), 'tdd'), JSON.stringify(manifest).slice(0, 80));
  }
  // A key holding one: read, never refused as text (the peer reads it too).
  const keyed = { ...clone(base), config: { ...base.config, ['workflow.x\ud800']: { type: 'boolean', default: true, description: 'd' } } };
  assert.equal(ours.validateCapability(keyed, 'tdd').length, theirs.validateCapability(keyed, 'tdd').length);
});
