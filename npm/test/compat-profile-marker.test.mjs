// compat/install-profiles.cjs profile marker (readActiveProfile, resolveEffectiveProfile),
// isMinimalMode, isSafeCapabilitySkillStem and the marker / allowlist constants equal the
// peer's, over marker files on disk with odd contents.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
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

test('install-profiles: a marker path holding no marker is passed over without blocking or reading on (ours: profileMarker says why)', { skip: process.platform === 'win32' && 'FIFOs and /dev/zero are POSIX' }, (t) => {
  const root = tempDir(t, 'gsd-core-marker-odd-');
  const at = (name) => {
    const dir = join(root, name);
    mkdirSync(dir);
    return dir;
  };
  // A FIFO with no writer: the peer's readFileSync would wait for one for ever.
  const fifo = at('fifo');
  execFileSync('mkfifo', [join(fifo, '.gsd-profile')]);
  // A link to an endless device: the peer would read until memory runs out.
  const device = at('device');
  symlinkSync('/dev/zero', join(device, '.gsd-profile'));
  // One byte past the bound: never a marker the installer wrote.
  const huge = at('huge');
  writeFileSync(join(huge, '.gsd-profile'), `core${' '.repeat(64 * 1024 - 3)}`);
  const bytes = at('not-utf8');
  writeFileSync(join(bytes, '.gsd-profile'), Buffer.from([0x63, 0x6f, 0x72, 0x65, 0xff]));
  for (const [dir, why] of [
    [fifo, 'is not a regular file'],
    [device, 'is not a regular file'],
    [huge, `is ${64 * 1024 + 1} bytes, more than a profile marker's ${64 * 1024}`],
    [bytes, 'is not valid UTF-8 (invalid byte at offset 4)'],
  ]) {
    const file = join(dir, '.gsd-profile');
    assert.deepStrictEqual(ours.profileMarker(dir), { file, refused: why }, dir);
    assert.equal(ours.readActiveProfile(dir), null, dir);
    assert.equal(ours.resolveEffectiveProfile({ targetDir: dir }), 'full', dir);
  }
  // The largest marker is read; a link to a marker is followed, as the peer follows it.
  const largest = at('largest');
  writeFileSync(join(largest, '.gsd-profile'), `core${' '.repeat(64 * 1024 - 4)}`);
  assert.deepStrictEqual(ours.profileMarker(largest), { file: join(largest, '.gsd-profile'), name: 'core' });
  const linked = at('linked');
  symlinkSync(join(largest, '.gsd-profile'), join(linked, '.gsd-profile'));
  assert.equal(ours.readActiveProfile(linked), theirs.readActiveProfile(linked));
  assert.equal(ours.readActiveProfile(linked), 'core');
  // No marker at all, or one that cannot be opened (a loop of links): a first install,
  // as for the peer.
  assert.equal(ours.profileMarker(at('none')), null);
  const loop = at('loop');
  symlinkSync(join(loop, '.gsd-profile'), join(loop, '.gsd-profile'));
  assert.equal(ours.profileMarker(loop), null);
  assert.equal(ours.readActiveProfile(loop), theirs.readActiveProfile(loop));
});
