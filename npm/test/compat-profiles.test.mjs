// compat/install-profiles.cjs resolves the same profiles as the peer over its own sources.
import test from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { require, peer, peerRoot } from './helpers.mjs';

const ours = require('../compat/install-profiles.cjs');
const theirs = peer('install-profiles');

test('install-profiles: constants', () => {
  assert.deepStrictEqual(ours.PROFILES, theirs.PROFILES);
  assert.deepStrictEqual(ours.PROFILE_RANK, theirs.PROFILE_RANK);
  assert.ok(Object.isFrozen(ours.PROFILES) && Object.isFrozen(ours.PROFILES.core));
});

test('install-profiles: resolveProfile over the peer package for single and composed modes', () => {
  const mine = ours.loadSkillsManifest();
  const peers = theirs.loadSkillsManifest();
  const modes = [[], ['core'], ['standard'], ['full'], ['core,standard'], [' core , '], ['nope'], ['nope', 'core'], ['core', 'full'], [','], undefined];
  for (const m of modes) {
    const a = ours.resolveProfile({ modes: m, manifest: mine });
    const b = theirs.resolveProfile({ modes: m, manifest: peers });
    assert.deepStrictEqual(a, b, JSON.stringify(m));
  }
  assert.equal(ours.resolveProfile({ modes: ['core'], manifest: mine }).skills.size, 15);
});

test('install-profiles: parseRequires and mostRestrictiveProfile', () => {
  const dir = join(peerRoot, 'commands', 'gsd');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.deepStrictEqual(ours.parseRequires(text), theirs.parseRequires(text), file);
  }
  for (const names of [[], undefined, ['core'], ['standard', 'core'], ['full', 'standard'], ['core,audit'], ['x'], ['x', 'standard']]) {
    assert.equal(ours.mostRestrictiveProfile(names), theirs.mostRestrictiveProfile(names), String(names));
  }
});
