// The per-body validators of compat/capability-validator.cjs (validateVersionEnvelope,
// validateFeatureBody, validateRuntimeBody, validateReviewerBody) equal the peer's on the
// shipped manifests of every role and on mutations of their top-level and body-level fields.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, outcome } from './helpers.mjs';

const ours = require('../compat/capability-validator.cjs');
const theirs = peer('capability-validator');
const registry = peer('capability-registry');

const BODIES = ['validateVersionEnvelope', 'validateFeatureBody', 'validateRuntimeBody', 'validateReviewerBody'];
const clone = (v) => JSON.parse(JSON.stringify(v));
const manifests = Object.entries(registry.capabilities);

/** Values of the wrong type or outside a vocabulary, put in place of a field. */
const WRONG = [null, 0, -1, 1.5, true, '', 'x', 'plugin', '__proto__', '1.2.3', '>=1.0.0', [], [null], ['x'], [1], {}, { a: 1 }];

/** Fields of the bodies that the shipped manifests may not carry, added to each. */
const ADDED = {
  engines: { gsd: '>=1.6.0' },
  compatVersions: { '1.0.0': '>=1.0.0' },
  integrity: 'sha512-' + 'A'.repeat(86) + '==',
  provenance: { sourceRepo: 'r', commit: 'c' },
  reviewer: { slug: 'a' },
  runtime: {},
  commands: [{ family: 'f', module: 'f.cjs', router: 'r' }],
  taskContentResolver: {},
  runtimeCompat: ['claude'],
  steps: [{}],
};

/**
 * Every mutation of `cap`: each top-level field deleted or replaced by each WRONG value,
 * each field of an object-valued field (and of the first element of an array of objects,
 * one level further for `runtime.artifactLayout`) deleted or replaced likewise, and each
 * field of ADDED added.
 */
function* mutations(cap) {
  yield ['asIs', cap];
  const keys = [...new Set([...Object.keys(cap), ...Object.keys(ADDED)])];
  for (const key of keys) {
    if (!(key in cap)) yield [`+${key}`, { ...cap, [key]: clone(ADDED[key]) }];
    const { [key]: _, ...rest } = cap;
    yield [`-${key}`, rest];
    for (const w of WRONG) yield [`${key}=${JSON.stringify(w)}`, { ...cap, [key]: w }];
  }
  for (const [path, holder] of nested(cap)) {
    const at = path.join('.');
    for (const key of Object.keys(holder)) {
      yield [`-${at}.${key}`, edit(cap, path, (h) => delete h[key])];
      for (const w of WRONG) yield [`${at}.${key}=${JSON.stringify(w)}`, edit(cap, path, (h) => (h[key] = w))];
    }
  }
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The object-valued places below the top level, as key paths with their objects. */
function nested(cap) {
  const out = [];
  const visit = (path, value, depth) => {
    if (Array.isArray(value)) {
      if (isObject(value[0])) visit([...path, 0], value[0], depth);
      return;
    }
    if (!isObject(value)) return;
    out.push([path, value]);
    if (depth === 0) return;
    for (const [k, v] of Object.entries(value)) visit([...path, k], v, depth - 1);
  };
  for (const [k, v] of Object.entries(cap)) visit([k], v, k === 'runtime' || k === 'reviewer' || k === 'taskContentResolver' ? 2 : 1);
  return out;
}

/** A copy of `cap` with `change` applied to the object at `path`. */
function edit(cap, path, change) {
  const copy = clone(cap);
  let h = copy;
  for (const part of path) h = h[part];
  change(h);
  return copy;
}

/** Our message for a null hook element, where the peer throws (docs/validation.md). */
const NULL_ELEMENT = /^(steps|contributions|gates)\[\d+\] must be an object \(got: null\)$/;

/** Messages of our own path-safety rules, where the peer accepts the value (docs/validation.md). */
const OWN_RULE = / (must stay inside the (config directory|capability directory|project|probed directory)|is not a safe (directory name|path under the home directory)|must be a relative path inside the home directory|must be a file inside the config directory|must be part of one file name|must be a file suffix starting with "\."): it | a skills entry needs a converter /;

function compare(name, manifest, label, counts) {
  const a = outcome(() => ours[name](clone(manifest)));
  const b = outcome(() => theirs[name](clone(manifest)));
  if (b.error && !a.error) {
    // Deliberate difference: the peer throws a TypeError on a null hook element; we report it.
    assert.equal(b.error.type, 'TypeError', `${label}: the peer throws only TypeErrors here`);
    assert.ok(a.value.some((m) => NULL_ELEMENT.test(m)), `${label}: ours reports the null element (${b.error.message})`);
    counts.nullElement += 1;
    return;
  }
  if (a.value && b.value && a.value.length !== b.value.length) {
    // Deliberate difference: our own path-safety rules add errors the peer does not report.
    const kept = a.value.filter((m) => !OWN_RULE.test(m));
    assert.ok(kept.length < a.value.length, `${label}: only our own rules may add errors\n${JSON.stringify(a.value)}\n${JSON.stringify(b.value)}`);
    assert.deepStrictEqual(kept, b.value, label);
    counts.ownRule += 1;
    return;
  }
  assert.deepStrictEqual(a, b, label);
  counts.compared += 1;
  counts.messages += a.value ? a.value.length : 0;
}

test('per-body validators: every body on each of the 46 manifests and its mutations', () => {
  assert.equal(manifests.length, 46);
  const roles = new Set(manifests.map(([, c]) => c.role));
  assert.deepStrictEqual([...roles].sort(), ['feature', 'reviewer', 'runtime']);
  const counts = { compared: 0, messages: 0, nullElement: 0, ownRule: 0, mutations: 0 };
  for (const [id, cap] of manifests) {
    for (const [name, manifest] of mutations(clone(cap))) {
      counts.mutations += 1;
      for (const body of BODIES) compare(body, manifest, `${id} ${name} ${body}`, counts);
    }
  }
  // Every body sees its own role's manifests and the other roles' ones, with errors.
  assert.equal(counts.compared + counts.nullElement + counts.ownRule, counts.mutations * BODIES.length);
  assert.ok(counts.messages > 10000, `messages compared: ${counts.messages}`);
  assert.ok(counts.nullElement > 0, 'the null-element difference is exercised');
  assert.ok(counts.ownRule > 0, 'the path-safety difference is exercised');
  console.log(`per-body validators: ${counts.mutations} manifests × 4 bodies, ${counts.compared} equal outcomes, ${counts.messages} messages, ${counts.nullElement} null-element and ${counts.ownRule} path-safety differences`);
});

test('per-body validators: non-objects (the peer throws a TypeError on null/undefined except for the reviewer body)', () => {
  for (const body of BODIES) {
    for (const value of [null, undefined, 0, 1, 'x', '', true, [], [1], {}, () => 1]) {
      const a = outcome(() => ours[body](value));
      const b = outcome(() => theirs[body](value));
      assert.deepStrictEqual(a, b, `${body}(${String(value)})`);
    }
  }
  assert.equal(outcome(() => theirs.validateVersionEnvelope(null)).error.type, 'TypeError');
  assert.deepStrictEqual(ours.validateReviewerBody(null), []);
});

test('per-body validators: a manifest of another role gets the body errors the peer gives it', () => {
  const feature = clone(registry.capabilities[manifests.find(([, c]) => c.role === 'feature')[0]]);
  const runtime = clone(registry.capabilities.claude);
  const runtimeOnFeature = theirs.validateRuntimeBody(clone(feature));
  assert.ok(runtimeOnFeature.length > 0);
  assert.deepStrictEqual(ours.validateRuntimeBody(clone(feature)), runtimeOnFeature);
  // A command entry names its capability by `id`, else by `role` (whatever the role is).
  for (const role of ['runtime', 'reviewer', undefined, 7]) {
    const noId = { role, commands: [{ family: 'f' }] };
    const expected = theirs.validateFeatureBody(clone(noId));
    assert.ok(expected.some((m) => m.startsWith(`capability "${role}" commands[0]`)), String(role));
    assert.deepStrictEqual(ours.validateFeatureBody(clone(noId)), expected, String(role));
  }
  const featureOnRuntime = theirs.validateFeatureBody(clone(runtime));
  assert.ok(featureOnRuntime.length > 0);
  assert.deepStrictEqual(ours.validateFeatureBody(clone(runtime)), featureOnRuntime);
});

test('per-body validators: deliberate difference — a null step is our error where the peer throws', () => {
  const feature = clone(registry.capabilities[manifests.find(([, c]) => c.role === 'feature')[0]]);
  feature.steps = [null];
  assert.equal(outcome(() => theirs.validateFeatureBody(clone(feature))).error.type, 'TypeError');
  assert.ok(ours.validateFeatureBody(clone(feature)).includes('steps[0] must be an object (got: null)'));
});

test('per-body validators: manifest text past the bounds is an Error from the core', () => {
  let deep = {};
  for (let i = 0; i < 100; i++) deep = { a: deep };
  const err = outcome(() => ours.validateVersionEnvelope({ version: '1.0.0', engines: deep }));
  assert.equal(err.error?.type, 'Error');
  assert.match(err.error.message, /deep/i);
});

test('per-body validators: a BigInt in a manifest reads as absent (our rule for values JSON cannot carry)', () => {
  let compared = 0;
  for (const [id, cap] of manifests) {
    for (const field of [...Object.keys(cap), 'unknownField']) {
      const withBigInt = { ...clone(cap), [field]: 10n };
      const without = clone(cap);
      delete without[field];
      for (const body of [...BODIES, 'validateCapability']) {
        // Never a TypeError of our own: the manifest is read, and what the field holds
        // counts as absent, so the answer is the peer's for the manifest without it.
        const expected = outcome(() => theirs[body](clone(without), id));
        if (expected.error) continue;
        const got = ours[body](withBigInt, id);
        const kept = got.filter((m) => !OWN_RULE.test(m));
        assert.deepStrictEqual(kept, expected.value, `${id} ${field} ${body}`);
        compared += 1;
      }
      // A field no body reads: the peer's answer too.
      if (field === 'unknownField') {
        for (const body of BODIES) assert.deepStrictEqual(ours[body](withBigInt), theirs[body](withBigInt), `${id} ${body}`);
      }
    }
  }
  assert.ok(compared > 1000, `compared: ${compared}`);
  // Deliberate difference: where the peer's own message serializes the value, it throws.
  const manifest = { ...clone(registry.capabilities.claude), version: 10n };
  assert.equal(outcome(() => theirs.validateVersionEnvelope(manifest)).error.type, 'TypeError');
  assert.ok(ours.validateVersionEnvelope(manifest).some((m) => m.startsWith('version must be a semver string')));
});
