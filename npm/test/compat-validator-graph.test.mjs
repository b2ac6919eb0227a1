// compat/capability-validator.cjs requires graph (detectRequiresCycles,
// computeRequiresClosure) and hook run order (topoSortSteps, topoSortContributions,
// topoSortHookEntries) equal the peer's, over the registry's own capabilities and
// generated maps with chains, diamonds, cycles and odd `requires` values.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome, outcome } from './helpers.mjs';

const ours = require('../compat/capability-validator.cjs');
const theirs = peer('capability-validator');
const registry = peer('capability-registry');

/** Capability maps: the registry's, and small generated graphs. */
function maps() {
  const out = [['registry', new Map(Object.entries(registry.capabilities))]];
  const ids = ['a', 'b', 'c', 'd', 'e'];
  let seed = 7;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >>> 8) % n;
  };
  for (let m = 0; m < 150; m += 1) {
    const map = new Map();
    for (const id of ids.slice(0, 1 + rand(5))) {
      const requires = Array.from({ length: rand(4) }, () => (rand(9) === 0 ? 'outside' : ids[rand(5)]));
      map.set(id, rand(12) === 0 ? { requires: 'a' } : rand(15) === 0 ? {} : { requires });
    }
    out.push([`generated ${m}`, map]);
  }
  out.push(['self', new Map([['a', { requires: ['a'] }]])]);
  out.push(['null cap', new Map([['a', null], ['b', { requires: ['a', 5, null] }]])]);
  out.push(['empty', new Map()]);
  return out;
}

test('capability-validator: detectRequiresCycles and computeRequiresClosure over registry and generated maps', () => {
  let cases = 0;
  for (const [label, map] of maps()) {
    assertSameOutcome(() => ours.detectRequiresCycles(map), () => theirs.detectRequiresCycles(map), `cycles ${label}`);
    for (const id of [...map.keys(), 'missing', 5, undefined]) {
      const a = ours.computeRequiresClosure(id, map);
      const b = theirs.computeRequiresClosure(id, map);
      assert.deepStrictEqual([...a], [...b], `closure ${label} ${String(id)}`);
      assert.ok(a instanceof Set);
      cases += 1;
    }
  }
  assert.ok(cases > 500, `matrix too small: ${cases}`);
});

/** Hook entries at one point: registry steps/contributions, and generated produce/consume webs. */
function entrySets() {
  const sets = [];
  for (const [hookKey, group] of [['step', 'steps'], ['contrib', 'contributions']]) {
    const byPoint = new Map();
    for (const [capId, cap] of Object.entries(registry.capabilities)) {
      for (const item of cap[group] ?? []) {
        if (!byPoint.has(item.point)) byPoint.set(item.point, []);
        byPoint.get(item.point).push({ capId, [hookKey]: item });
      }
    }
    for (const [point, entries] of byPoint) sets.push([`registry ${group} ${point}`, hookKey, entries]);
  }
  const ids = ['cap-b', 'cap-a', 'cap-d', 'cap-c', 'cap-e'];
  const artifacts = ['x', 'y', 'z'];
  let seed = 11;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >>> 8) % n;
  };
  for (let m = 0; m < 200; m += 1) {
    const entries = ids.slice(0, 1 + rand(5)).map((capId) => ({
      capId,
      step: {
        point: 'plan:pre',
        produces: rand(3) === 0 ? undefined : Array.from({ length: rand(3) }, () => artifacts[rand(3)]),
        consumes: Array.from({ length: rand(3) }, () => artifacts[rand(3)]),
      },
    }));
    sets.push([`generated ${m}`, 'step', entries]);
  }
  return sets;
}

test('capability-validator: topoSortSteps / topoSortContributions / topoSortHookEntries, cycles included', () => {
  let cycles = 0;
  for (const [label, hookKey, entries] of entrySets()) {
    const sort = hookKey === 'step' ? 'topoSortSteps' : 'topoSortContributions';
    assertSameOutcome(() => ours[sort](entries), () => theirs[sort](entries), `${sort} ${label}`);
    assertSameOutcome(() => ours.topoSortHookEntries(entries, hookKey, 'things'), () => theirs.topoSortHookEntries(entries, hookKey, 'things'), `generic ${label}`);
    try {
      theirs[sort](entries);
    } catch {
      cycles += 1;
    }
  }
  assert.ok(cycles > 5, `generated webs with cycles: ${cycles}`);
  assertSameOutcome(() => ours.topoSortSteps([{ capId: 'a' }, { capId: 'b' }]), () => theirs.topoSortSteps([{ capId: 'a' }, { capId: 'b' }]), 'entries without a step');
  assert.deepStrictEqual(ours.HOOK_GROUP_KINDS, theirs.HOOK_GROUP_KINDS);
  assert.deepStrictEqual(ours._HOST_INTEGRATION_VOCAB, theirs._HOST_INTEGRATION_VOCAB);
  assert.equal(JSON.stringify(ours._HOST_INTEGRATION_VOCAB), JSON.stringify(theirs._HOST_INTEGRATION_VOCAB), 'key order');
});

/** The outcome's value, or only its error class (where our message is our own). */
function shape(fn) {
  const o = outcome(fn);
  return 'error' in o ? { threw: o.error.type } : o;
}

test('capability-validator: the requires graph of a map with ids and requires of any type', () => {
  const obj = { id: 'object' };
  const other = { id: 'object' };
  const maps = [
    ['numbers', new Map([[1, { requires: [2] }], [2, { requires: [1, 'z'] }], ['z', { requires: [obj] }], [obj, { requires: [obj, other, null] }]])],
    ['nullish', new Map([[null, { requires: [undefined] }], [undefined, { requires: [null] }]])],
    ['NaN and -0', new Map([[NaN, { requires: [NaN] }], [0, { requires: [-0] }]])],
    ['bigint', new Map([[1n, { requires: [1n, 2n] }], [2n, { requires: [1n] }]])],
    ['holes', new Map([['a', { requires: [, 'a'] }], [undefined, { requires: ['a'] }]])],
    ['spelled like a string id', new Map([['1', { requires: [1] }], [1, { requires: ['1'] }]])],
  ];
  let cycles = 0;
  for (const [label, map] of maps) {
    assertSameOutcome(() => ours.detectRequiresCycles(map), () => theirs.detectRequiresCycles(map), `cycles ${label}`);
    cycles += theirs.detectRequiresCycles(map).length;
    for (const id of [...map.keys(), obj, other, 'missing', 2n]) {
      const a = ours.computeRequiresClosure(id, map);
      const b = theirs.computeRequiresClosure(id, map);
      // Values, not their spelling: the object met is the very object required.
      assert.deepStrictEqual([...a].length, [...b].length, `closure ${label}`);
      [...a].forEach((value, i) => assert.ok(Object.is(value, [...b][i]), `closure ${label} #${i}`));
    }
  }
  assert.ok(cycles >= 6, `cycles found: ${cycles}`);
  assert.deepStrictEqual(ours.detectRequiresCycles(maps[0][1]), ['requires cycle detected: 1 → 2 → 1', 'requires cycle detected: 1 → 2 → z → [object Object] → [object Object]']);
  // Two objects that look alike are two values, as the map holds them.
  assert.deepStrictEqual([...ours.computeRequiresClosure('z', maps[0][1])], [obj, other, null]);
  // A Symbol is spelled only when it is part of a cycle, and then fails as `join` fails.
  const symbolic = new Map([[Symbol('s'), { requires: [] }], ['q', { requires: ['q'] }]]);
  assert.deepStrictEqual(ours.detectRequiresCycles(symbolic), theirs.detectRequiresCycles(symbolic));
  const looped = new Map([[Symbol.iterator, { requires: [Symbol.iterator] }]]);
  assert.deepStrictEqual(shape(() => ours.detectRequiresCycles(looped)), shape(() => theirs.detectRequiresCycles(looped)));
  assert.throws(() => ours.detectRequiresCycles(looped), TypeError);
});

test('capability-validator: the requires graph is read through the map\'s own keys, get and has', () => {
  const duck = (parts) => ({
    keys: () => ['k', 'j'].values(),
    get: (k) => ({ k: { requires: ['j', 'x'] }, j: { requires: ['k'] } })[k],
    has: (k) => k === 'k' || k === 'j',
    ...parts,
  });
  const values = [
    ['array of pairs', [['a', { requires: ['a'] }]]],
    ['empty array', []],
    ['object', { a: { requires: ['a'] } }],
    ['null', null],
    ['undefined', undefined],
    ['string', 'ab'],
    ['map-like', duck({})],
    ['no has', duck({ has: undefined })],
    ['no get', duck({ get: undefined })],
    ['no keys', duck({ keys: undefined })],
    ['nothing required', duck({ has: undefined, get: () => ({ requires: [] }) })],
  ];
  let answered = 0;
  for (const [label, map] of values) {
    assert.deepStrictEqual(shape(() => ours.detectRequiresCycles(map)), shape(() => theirs.detectRequiresCycles(map)), `cycles ${label}`);
    for (const id of ['a', 'k', 0]) {
      const a = shape(() => ours.computeRequiresClosure(id, map));
      assert.deepStrictEqual(a, shape(() => theirs.computeRequiresClosure(id, map)), `closure ${label} ${id}`);
      if (!a.threw) answered += 1;
    }
  }
  assert.ok(answered > 0, 'some maps answer');
  assert.deepStrictEqual(ours.detectRequiresCycles(duck({})), ['requires cycle detected: k → j → k']);
  assert.throws(() => ours.computeRequiresClosure('a', [['a', { requires: ['b'] }]]), TypeError);
});

/**
 * Hook entry lists whose capIds mix strings with other values, over a few artifact names so
 * that several entries become ready together (the peer sorts each such batch by capId, and
 * fails on an id without `localeCompare` that its sort calls the method on).
 */
function mixedIdLists(count) {
  const odd = [
    5,
    -1,
    10n,
    0,
    null,
    undefined,
    true,
    Symbol('s'),
    {},
    { toString: () => 'cap-c' },
    new String('cap-b'),
    { localeCompare: (other) => (String(other) < 'cap-c' ? 1 : -1) },
    ['cap-d', 'x'],
  ];
  // Ids are compared by code unit here and by locale in the peer (a documented difference):
  // these strings, and the spellings of the odd ids they are compared with, order the same
  // either way (no string of digits, which locale order puts after '[object Object]').
  const strings = ['cap-a', 'cap-b', 'cap-c', 'cap-d', 'cap-e', 'null', 'undefined'];
  const artifacts = ['x', 'y', 'z', 'w'];
  let seed = 2024;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed >>> 8) % n;
  };
  const lists = [];
  for (let m = 0; m < count; m += 1) {
    const size = 1 + rand(6);
    const names = (max) => Array.from({ length: rand(max + 1) }, () => artifacts[rand(artifacts.length)]);
    const entries = Array.from({ length: size }, () => {
      const hook = { point: 'plan:pre', produces: rand(4) === 0 ? undefined : names(2), consumes: rand(2) === 0 ? [] : names(2) };
      const capId = rand(3) === 0 ? odd[rand(odd.length)] : strings[rand(strings.length)];
      return { capId, step: hook, contrib: hook };
    });
    // Often only the first entry (first of the first ready batch) has the odd id.
    if (rand(3) === 0) {
      entries.forEach((e, i) => {
        e.capId = i === 0 ? odd[rand(odd.length)] : strings[rand(strings.length)];
      });
    }
    if (entries.some((e) => typeof e.capId !== 'string')) lists.push(entries);
  }
  return lists;
}

/** What a sort did: the indices it answered, or the class (and, for an Error, the text) it threw. */
function sortOutcome(entries, fn) {
  try {
    return { order: fn().map((e) => entries.indexOf(e)) };
  } catch (err) {
    const type = err?.constructor?.name;
    return type === 'TypeError' ? { threw: type } : { threw: type, message: err?.message };
  }
}

test('capability-validator: topoSort* with capIds that are not strings throw exactly where the peer throws', () => {
  let compared = 0;
  let answered = 0;
  let threw = 0;
  const lists = mixedIdLists(1500);
  for (const [m, entries] of lists.entries()) {
    const calls = [
      ['topoSortSteps', (mod) => () => mod.topoSortSteps(entries)],
      ['topoSortContributions', (mod) => () => mod.topoSortContributions(entries)],
      ['topoSortHookEntries', (mod) => () => mod.topoSortHookEntries(entries, 'step', 'things')],
    ];
    for (const [name, call] of calls) {
      const theirsOutcome = sortOutcome(entries, call(theirs));
      const label = `${name} #${m} [${entries.map((e) => (typeof e.capId === 'symbol' ? 'Symbol' : typeof e.capId === 'string' ? JSON.stringify(e.capId) : String(e.capId))).join(', ')}]`;
      assert.deepStrictEqual(sortOutcome(entries, call(ours)), theirsOutcome, label);
      compared += 1;
      if ('order' in theirsOutcome && entries.length > 1) answered += 1;
      if (theirsOutcome.threw === 'TypeError') threw += 1;
    }
  }
  assert.ok(compared > 1500, `cases compared: ${compared}`);
  assert.ok(answered > 150, `peer answers with an odd id: ${answered}`);
  assert.ok(threw > 150, `peer TypeErrors: ${threw}`);
  // The first entry of a ready batch is only ever the compared-to id: the peer spells it.
  const first = [{ capId: null, step: {} }, { capId: 'cap-a', step: {} }, { capId: 'nz', step: {} }];
  assert.deepStrictEqual(sortOutcome(first, () => ours.topoSortSteps(first)), { order: [1, 0, 2] });
  assert.deepStrictEqual(sortOutcome(first, () => theirs.topoSortSteps(first)), { order: [1, 0, 2] });
  const later = [{ capId: 'cap-a', step: {} }, { capId: 7, step: {} }];
  assert.throws(() => ours.topoSortSteps(later), TypeError);
  assert.throws(() => theirs.topoSortSteps(later), TypeError);
});

test('capability-validator: a cycle message repeats long ids, kinds and odd points in full, as the peer does', () => {
  const long = 'cap-'.padEnd(200, 'x');
  const cycle = (point, a = long, b = 'b') => [
    { capId: a, step: { point, produces: ['x'], consumes: ['y'] } },
    { capId: b, step: { point, produces: ['y'], consumes: ['x'] } },
  ];
  const points = [
    'p'.repeat(150),
    undefined,
    null,
    7,
    { toString: () => 'spelled' },
    { valueOf: () => 'by value', toString: () => 'by string' },
    Symbol('s'),
    'esc\u001b[31m',
  ];
  const kinds = ['steps', '', 'k'.repeat(120), undefined, 5];
  let cases = 0;
  for (const point of points) {
    for (const kind of kinds) {
      const entries = cycle(point);
      assertSameOutcome(() => ours.topoSortHookEntries(entries, 'step', kind), () => theirs.topoSortHookEntries(entries, 'step', kind), `point ${String(point)} kind ${String(kind)}`);
      cases += 1;
    }
  }
  // Ids that are not all strings take the other path and fail with the same message.
  for (const ids of [[long, null], [7, 'b'], [undefined, long]]) {
    const entries = cycle('p', ...ids).map((e, i) => (i === 0 ? { ...e, capId: ids[0] } : e));
    assertSameOutcome(() => ours.topoSortSteps(entries), () => theirs.topoSortSteps(entries), `ids ${ids.map(String)}`);
    cases += 1;
  }
  assert.equal(cases, 43);
  // What the message reads, in the order the peer reads it (ids, then kind, then point).
  const reads = [];
  const spy = (name) => ({ toString: () => (reads.push(name), name) });
  const entries = [
    { capId: 'a', step: { get point() { reads.push('point read'); return spy('point'); }, produces: ['x'], consumes: ['y'] } },
    { capId: 'b', step: { point: 'p', produces: ['y'], consumes: ['x'] } },
  ];
  const kind = spy('kind');
  reads.length = 0;
  const ourError = outcome(() => ours.topoSortHookEntries(entries, 'step', kind));
  const ourReads = [...reads];
  reads.length = 0;
  const theirError = outcome(() => theirs.topoSortHookEntries(entries, 'step', kind));
  assert.deepStrictEqual(ourError, theirError);
  assert.deepStrictEqual(ourReads, reads);
  assert.deepStrictEqual(reads.slice(-3), ['kind', 'point read', 'point']);
  const o = outcome(() => ours.topoSortSteps(cycle('p'.repeat(150))));
  assert.ok(o.error.message.includes(`[${long}, b]`), 'every id in full');
  assert.ok(o.error.message.includes(`at point "${'p'.repeat(150)}"`), 'the point in full');
});

test('topoSort*: a lone surrogate in an id or an artifact name is read as the peer reads it', () => {
  const e = (capId, produces, consumes) => ({ capId, step: { point: 'plan:pre', produces, consumes } });
  const cases = [
    [e('a\uD800', ['x'], []), e('b', [], ['x'])],
    // Two names that would both read as U+FFFD are two artifacts: no edge, no cycle.
    [e('b', ['\uD800'], ['\uD801']), e('a', ['\uD801'], ['\uD800'])],
    [e('b', ['\uD800'], []), e('a', [], ['\uD800'])],
  ];
  for (const [i, entries] of cases.entries()) {
    assertSameOutcome(() => ours.topoSortSteps(entries).map((x) => x.capId), () => theirs.topoSortSteps(entries).map((x) => x.capId), `case ${i}`);
  }
  assert.deepStrictEqual(ours.topoSortSteps(cases[2]).map((x) => x.capId), ['b', 'a']);
});
