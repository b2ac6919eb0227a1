// How results cross the Node boundary: a plan is a frozen plain object whose large
// sections are read from the core on first access; validation results cross as text. The
// values are checked against the peer; these tests pin what callers may observe.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { join } from 'node:path';
import { require, peer, npmDir, thrown } from './helpers.mjs';

const gsd = require('../index.js');
const native = require('../binding.js');
const peerLayout = peer('runtime-artifact-layout');
const peerValidator = peer('capability-validator');

const host = { home: '/home/u', cwd: '/work/p', env: {} };
const stems = ['plan-phase', 'execute-phase', 'ns-workflow', 'child-a'];
const options = { commands: stems, agents: ['gsd-planner'], routerStems: ['ns-workflow'], childToRouters: { 'child-a': ['ns-workflow'] } };

test('a plan has the plan fields in the core serialization order, as enumerable own properties', () => {
  for (const plan of [gsd.resolveInstallPlan('claude', 'global', host, options), gsd.resolveInstallPlan('claude', 'global', host, { inventory: gsd.inventory(options) })]) {
    assert.deepStrictEqual(
      Object.keys(plan),
      native.planFields().map(([name]) => name),
    );
    assert.deepStrictEqual(Object.keys(plan), [
      'runtime', 'scope', 'commandStyle', 'config', 'hooks', 'sandboxTier', 'supportTier',
      'kinds', 'placements', 'uninstall', 'triggers', 'installManifest', 'diagnostics',
    ]);
    assert.equal(Object.getPrototypeOf(plan), Object.prototype);
    assert.ok(Object.isFrozen(plan));
  }
});

test('every section of a plan is deep-frozen once read, and read once', () => {
  const plan = gsd.resolveInstallPlan('claude', 'local', host, options);
  for (const key of ['triggers', 'kinds', 'placements', 'uninstall', 'diagnostics', 'scope', 'hooks']) {
    const value = plan[key];
    assert.equal(plan[key], value, `${key} is cached`);
    assert.ok(Object.isFrozen(value), key);
  }
  assert.ok(Object.isFrozen(plan.triggers[0]));
  assert.ok(Object.isFrozen(plan.placements[0]));
  assert.ok(Object.isFrozen(plan.hooks.extendedHookEvents));
  assert.throws(() => {
    'use strict';
    plan.triggers = [];
  }, TypeError);
  assert.throws(() => {
    'use strict';
    plan.triggers[0].trigger = 'x';
  }, TypeError);
});

test('the trigger section equals the peer trigger surface, whatever is read first', () => {
  const expected = peerLayout.resolveTriggerSurface('claude', ['global'], {
    stems,
    routerStems: options.routerStems,
    childToRouters: options.childToRouters,
  });
  assert.ok(expected.length > 0);
  const first = gsd.resolveInstallPlan('claude', 'global', host, options);
  assert.deepStrictEqual(first.triggers, expected);
  const second = gsd.resolveInstallPlan('claude', 'global', host, options);
  void second.placements;
  void second.diagnostics;
  assert.deepStrictEqual(second.triggers, expected);
});

test('a plan equals its JSON round trip, spreads to plain values, and inspects as values', () => {
  const plan = gsd.resolveInstallPlan('codex', 'global', host, options);
  const copy = JSON.parse(JSON.stringify(plan));
  assert.deepStrictEqual(plan, copy);
  assert.deepStrictEqual({ ...plan }, copy);
  assert.deepStrictEqual(structuredClone(plan), copy);
  const shown = inspect(plan, { depth: 0 });
  assert.doesNotMatch(shown, /Getter/);
  assert.match(shown, /triggers: \[Array\]/);
});

test('a plan over an inventory round-trips through JSON; structuredClone refuses its lazy values (Proxies)', () => {
  const plan = gsd.resolveInstallPlan('codex', 'global', host, { inventory: gsd.inventory(options) });
  const copy = JSON.parse(JSON.stringify(plan));
  assert.deepStrictEqual(plan, copy);
  assert.deepStrictEqual({ ...plan }, copy);
  // V8 cannot clone a Proxy (documented in docs/node.md): copy the lazy values, or go through JSON.
  assert.throws(() => structuredClone(plan), { name: 'DataCloneError' });
  const plain = {
    ...plan,
    scope: { ...plan.scope, provenance: { ...plan.scope.provenance } },
    kinds: plan.kinds.map((k) => ({ ...k })),
    placements: [...plan.placements],
    uninstall: [...plan.uninstall],
    triggers: [...plan.triggers],
    diagnostics: [...plan.diagnostics],
  };
  assert.deepStrictEqual(structuredClone(plain), copy);
});

test('plan inputs that JSON cannot carry, or of the wrong shape, fail on their field', () => {
  const cases = [
    [{ commands: [1n] }, 'options', /^options is invalid: /],
    [{ commands: 'plan-phase' }, 'commands', /^commands is invalid: invalid type: string "plan-phase", expected a sequence$/],
    [{ commands: ['help', 7] }, 'commands[1]', /^commands\[1\] is invalid: invalid type: integer `7`, expected a string$/],
    [{ bogus: 1 }, 'bogus', /^bogus is invalid: unknown field `bogus`/],
  ];
  for (const [opts, field, message] of cases) {
    const err = thrown(() => gsd.resolveInstallPlan('claude', 'global', host, opts));
    assert.equal(err.code, 'INVALID_ARGUMENT', err.message);
    assert.equal(err.field, field, err.message);
    assert.match(err.message, message);
    assert.doesNotMatch(err.message, / at line \d+ column \d+/);
  }
  const cyclic = { home: '/h', cwd: '/w' };
  cyclic.self = cyclic;
  const err = thrown(() => gsd.resolveInstallPlan('claude', 'global', cyclic, options));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(err.field, 'host');
});

const manifestOf = (folder) => readFileSync(join(npmDir, '..', 'capabilities', folder, 'capability.json'), 'utf8');

test('validation of a valid manifest crosses as a frozen empty list', () => {
  const text = manifestOf('claude');
  assert.deepStrictEqual(peerValidator.validateCapability(JSON.parse(text), 'claude'), []);
  const errors = gsd.validateCapability(text, 'claude');
  assert.deepStrictEqual(errors, []);
  assert.ok(Object.isFrozen(errors));
  assert.deepStrictEqual(gsd.warningRecords(text), []);
});

test('alternating manifests each get their own errors and warning records (the parse reuse is keyed on the text)', () => {
  const good = manifestOf('antigravity');
  const bad = JSON.parse(good);
  bad.id = 'Bad_Id';
  bad.reviewer.bogusField = 1;
  const badText = JSON.stringify(bad);
  const expectedErrors = peerValidator.validateCapability(JSON.parse(badText), 'antigravity');
  const expectedWarnings = peerValidator.collectReviewerWarningRecords(JSON.parse(badText)).map((w) => w.message);
  assert.ok(expectedErrors.length > 0 && expectedWarnings.length > 0);
  for (let round = 0; round < 2; round += 1) {
    assert.deepStrictEqual(gsd.validateCapability(good, 'antigravity'), []);
    const errors = gsd.validateCapability(badText, 'antigravity');
    assert.deepStrictEqual(errors.map((d) => d.message), expectedErrors);
    assert.ok(Object.isFrozen(errors[0]));
    assert.deepStrictEqual(gsd.warningRecords(good), []);
    const warnings = gsd.warningRecords(badText);
    assert.deepStrictEqual(warnings.map((d) => d.message), expectedWarnings);
    assert.ok(Object.isFrozen(warnings[0].detail.knownFields));
  }
  // A valid manifest with warning records still gets the one shared frozen empty list.
  const warnedOnly = JSON.parse(good);
  warnedOnly.reviewer.bogusField = 1;
  assert.equal(gsd.validateCapability(warnedOnly, 'antigravity'), gsd.validateCapability(good, 'antigravity'));
  assert.equal(gsd.warningRecords(warnedOnly).length, 1);
  // An object argument is read as it is at each call: changed after validation, its
  // warning records are those of its new content.
  const changing = JSON.parse(badText);
  assert.deepStrictEqual(gsd.validateCapability(changing, 'antigravity').map((d) => d.message), expectedErrors);
  changing.reviewer.otherBogus = 2;
  const expectedAfter = peerValidator.collectReviewerWarningRecords(JSON.parse(JSON.stringify(changing)));
  assert.equal(expectedAfter.length, expectedWarnings.length + 1);
  assert.deepStrictEqual(gsd.warningRecords(changing).map((d) => d.message), expectedAfter.map((w) => w.message));
});

test('text that is not ASCII crosses whole (an ASCII text is copied in one pass, any other read again)', () => {
  // Latin-1, a BMP character, an astral one; the id and the reviewer's unknown key are
  // echoed in the peer's warning, so a cut or mangled text shows.
  const bad = JSON.parse(manifestOf('antigravity'));
  bad.id = 'Bad_é→😀';
  bad.reviewer['bogus→😀é'] = 1;
  const text = JSON.stringify(bad);
  const expectedErrors = peerValidator.validateCapability(JSON.parse(text), 'antigravity');
  const expectedWarnings = peerValidator.collectReviewerWarningRecords(JSON.parse(text)).map((w) => w.message);
  assert.ok(expectedErrors.length > 0 && expectedWarnings.some((m) => m.includes('Bad_é→😀') && m.includes('bogus→😀é')));
  assert.deepStrictEqual(gsd.validateCapability(text, 'antigravity').map((d) => d.message), expectedErrors);
  assert.deepStrictEqual(gsd.warningRecords(text).map((d) => d.message), expectedWarnings);
  // Texts whose first `length` UTF-8 bytes end on a character boundary (`"€a` is five
  // bytes for the five units of `"€ab"`): as many bytes as units, yet not the whole text.
  for (const t of ['"€ab"', '"ab€"', '["é","x"]', '{"k":"😀"}', '"é"', '""', '"plain"', `"${'a'.repeat(70000)}é"`]) {
    assert.deepStrictEqual(native.parseManifest(t), JSON.parse(t), t.slice(0, 12));
  }
  // A lone surrogate reaches the core as U+FFFD, as napi writes it.
  assert.deepStrictEqual(native.parseManifest('"a\uD800b"'), 'a\uFFFDb');
  assert.equal(thrown(() => native.parseManifest(7)).message.includes('String'), true);
});

test('resolveTriggerSurface crosses as text: the peer surface across scopes, deep-frozen; errors on their field', () => {
  const input = { stems, routerStems: options.routerStems, childToRouters: options.childToRouters };
  const expected = peerLayout.resolveTriggerSurface('claude', ['global', 'local'], input);
  assert.ok(expected.some((t) => t.shadowedBy !== null));
  const ours = gsd.resolveTriggerSurface('claude', ['global', 'local'], input);
  assert.deepStrictEqual(ours, expected);
  assert.ok(Object.isFrozen(ours) && Object.isFrozen(ours[0]));
  const bad = thrown(() => gsd.resolveTriggerSurface('claude', ['global'], { stems: 'x' }));
  assert.equal(bad.code, 'INVALID_ARGUMENT');
  assert.equal(bad.field, 'stems');
  assert.doesNotMatch(bad.message, / at line \d+ column \d+/);
  assert.equal(thrown(() => gsd.resolveTriggerSurface('nope', ['global'], { stems: 'x' })).code, 'UNKNOWN_RUNTIME');
});

test('a synchronous loop of plans does not hold native memory until the event loop turns', () => {
  // A plan kept native behind a handle is freed only when Node runs finalizers, after the
  // loop: that held ~46 KB per plan here (~180 MB for this loop).
  const inventory = { commands: Array.from({ length: 72 }, (_, i) => `stem-${i}`), agents: Array.from({ length: 64 }, (_, i) => `agent-${i}`) };
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 4000; i += 1) gsd.resolveInstallPlan('claude', 'global', { home: `/home/u${i}`, cwd: '/work/p' }, inventory);
  const grown = (process.memoryUsage().rss - before) / 1e6;
  assert.ok(grown < 90, `rss grew by ${grown.toFixed(0)} MB`);
});

test('20,000 plans over one inventory, each list read, keep memory flat: a plan holds JS values and shared handles only', () => {
  // A lazy part keeps the call's inputs (texts, the shared inventory and registry handles)
  // until it is read, then its frozen values: all of it garbage-collected JS, nothing
  // native that waits for a finalizer.
  const inventory = gsd.inventory({ commands: Array.from({ length: 72 }, (_, i) => `stem-${i}`), agents: Array.from({ length: 64 }, (_, i) => `agent-${i}`) });
  let read = 0;
  const before = process.memoryUsage().rss;
  for (let i = 0; i < 20000; i += 1) {
    const plan = gsd.resolveInstallPlan('claude', i % 2 ? 'global' : 'local', { home: `/home/u${i}`, cwd: '/work/p' }, { inventory });
    read += plan.triggers.length + plan.triggers[0].trigger.length + (i % 10 === 0 ? plan.placements[0].stem.length : 0);
    // scope, kinds and uninstall are filled on every fifth plan, left unread on the others.
    if (i % 5 === 0) read += plan.scope.configHome.length + plan.uninstall[0].destDir.length;
  }
  const grown = (process.memoryUsage().rss - before) / 1e6;
  assert.ok(read > 20000 * 72);
  assert.ok(grown < 90, `rss grew by ${grown.toFixed(0)} MB`);
});
