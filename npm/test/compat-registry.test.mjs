// compat/capability-registry.cjs has the peer's compiled-registry shape and facts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer } from './helpers.mjs';

const ours = require('../compat/capability-registry.cjs');
const theirs = peer('capability-registry');

/** Blanks the prose this project wrote in its own words (descriptions, fragment bodies). */
function withoutProse(value) {
  if (Array.isArray(value)) return value.map(withoutProse);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = (k === 'description' || k === 'inline') && typeof v === 'string' ? '<prose>' : withoutProse(v);
  }
  return out;
}

test('capability-registry: same exports in the same order', () => {
  assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
});

test('capability-registry: every structural fact equals the peer (prose aside)', () => {
  for (const key of Object.keys(theirs)) {
    if (typeof theirs[key] === 'function') continue;
    assert.deepStrictEqual(withoutProse(ours[key]), withoutProse(theirs[key]), key);
    assert.equal(JSON.stringify(withoutProse(ours[key])), JSON.stringify(withoutProse(theirs[key])), `${key}: key order`);
  }
});

test('capability-registry: the prose differs on purpose, only in descriptions and fragment bodies', () => {
  assert.notEqual(ours.capabilities.claude.description, theirs.capabilities.claude.description);
  assert.equal(typeof ours.capabilities.claude.description, 'string');
});

test('capability-registry: requiresClosure returns the same Sets', () => {
  for (const id of [...Object.keys(theirs.capabilities), 'nope']) {
    assert.deepStrictEqual(ours.requiresClosure(id), theirs.requiresClosure(id), id);
  }
  assert.deepStrictEqual([...ours.requiresClosure('pattern-mapper')], ['research']);
});

test('capability-registry: requiresClosure of an Object.prototype name is a TypeError, as the peer fails on it', () => {
  for (const id of Object.getOwnPropertyNames(Object.prototype)) {
    assert.throws(() => theirs.requiresClosure(id), TypeError, id);
    assert.throws(() => ours.requiresClosure(id), { name: 'TypeError', message: new RegExp(`'${id}' is an Object.prototype member`) }, id);
  }
  // Other keys the peer reads as property names: a Symbol, a number, an object spelled as an id.
  for (const id of [Symbol('s'), 5, null, undefined, ['pattern-mapper'], { toString: () => 'pattern-mapper' }, 10n, 'pattern-mapper ']) {
    assert.deepStrictEqual(ours.requiresClosure(id), theirs.requiresClosure(id), String(typeof id === 'symbol' ? 'symbol' : id));
  }
  assert.deepStrictEqual([...ours.requiresClosure(['pattern-mapper'])], ['research']);
});
