// compat/install-profiles.cjs profile marker (readActiveProfile, resolveEffectiveProfile),
// isMinimalMode, isSafeCapabilitySkillStem and the marker / allowlist constants equal the
// peer's, over marker files on disk with odd contents.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { require, peer, assertSameOutcome, tempDir } from './helpers.mjs';

const ours = require('../compat/install-profiles.cjs');
const theirs = peer('install-profiles');

const MARKER_TEXTS = ['core\n', ' standard ', 'full\n', 'core,review', 'core_x-1', 'CORE', '', '   \n', '../x', 'core review', 'café', '\uFEFFcore', 'core\r\n', 'a'.repeat(300)];

test('install-profiles: readActiveProfile and resolveEffectiveProfile over marker files × requested names', (t) => {
  const root = tempDir(t, 'gsd-core-marker-');
  const dirs = [join(root, 'none')];
  MARKER_TEXTS.forEach((text, i) => {
    const dir = join(root, `m${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, '.gsd-profile'), text);
    dirs.push(dir);
  });
  const asDir = join(root, 'dir-marker');
  mkdirSync(join(asDir, '.gsd-profile'), { recursive: true });
  dirs.push(asDir);
  let cases = 0;
  for (const dir of [...dirs, undefined, 5]) {
    assertSameOutcome(() => ours.readActiveProfile(dir), () => theirs.readActiveProfile(dir), `read ${String(dir)}`);
    for (const requestedProfileName of [undefined, null, 'core', '', 0, 'weird']) {
      const args = { requestedProfileName, targetDir: dir };
      assertSameOutcome(() => ours.resolveEffectiveProfile(args), () => theirs.resolveEffectiveProfile(args), `effective ${String(requestedProfileName)} ${String(dir)}`);
      cases += 1;
    }
  }
  assert.ok(cases > 90, `matrix too small: ${cases}`);
});

test('install-profiles: isMinimalMode, isSafeCapabilitySkillStem and constants', () => {
  for (const mode of ['minimal', 'core-only', 'core', 'full', 'Minimal', '', undefined, null, 1, ['minimal']]) {
    assert.equal(ours.isMinimalMode(mode), theirs.isMinimalMode(mode), String(mode));
  }
  for (const stem of ['gsd-plan', 'a.b', '', '.', '..', '...', 'a/b', 'a\\b', '/abs', 'a\0b', ' ', 'C:x', undefined, 5, null]) {
    assert.equal(ours.isSafeCapabilitySkillStem(stem), theirs.isSafeCapabilitySkillStem(stem), JSON.stringify(stem));
  }
  assert.equal(ours.CAPABILITY_SKILL_MARKER, theirs.CAPABILITY_SKILL_MARKER);
  assert.deepStrictEqual(ours.MINIMAL_SKILL_ALLOWLIST, theirs.MINIMAL_SKILL_ALLOWLIST);
  assert.ok(Object.isFrozen(ours.MINIMAL_SKILL_ALLOWLIST));
});
