// Overlay registries and the installed-surface API with facts given as data.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { require, peer, tempDir, thrown, npmDir } from './helpers.mjs';

const gsd = require('../index.js');
const peerSurfaces = peer('installed-surface-resolver');

const tdd = JSON.parse(readFileSync(join(npmDir, '..', 'capabilities', 'tdd', 'capability.json'), 'utf8'));
/** A minimal valid third-party feature: the tdd envelope with nothing it could conflict on. */
const overlayManifest = (id) =>
  JSON.stringify({ ...tdd, id, skills: [], agents: [], hooks: [], config: {}, steps: [], contributions: [], gates: [] });

test('buildRegistry: an accepted overlay joins the registry, a rejected one is a diagnostic', () => {
  const registry = gsd.buildRegistry([
    { folder: 'local-checks', manifest: overlayManifest('local-checks') },
    { folder: 'mismatch', manifest: overlayManifest('other-id') },
    { folder: 'gsd-reserved', manifest: overlayManifest('gsd-reserved') },
  ]);
  const peerJson = registry.toPeerJson();
  assert.ok('local-checks' in peerJson.capabilities);
  assert.ok(!('mismatch' in peerJson.capabilities));
  assert.ok(!('gsd-reserved' in peerJson.capabilities));
  const rejected = registry.diagnostics();
  assert.ok(rejected.length >= 2, JSON.stringify(rejected));
  assert.ok(rejected.every((d) => d.severity === 'error' && typeof d.code === 'string'));
  assert.deepStrictEqual(registry.runtimeIds(), gsd.firstPartyRegistry().runtimeIds());
  const plan = gsd.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w' }, { registry });
  assert.equal(plan.scope.configHome, '/h/.claude');
  assert.deepStrictEqual(gsd.firstPartyRegistry().diagnostics(), [], 'the first-party handle is unchanged');
});

test('buildRegistry: argument errors carry code and field', () => {
  assert.equal(thrown(() => gsd.buildRegistry('x')).field, 'overlays');
  const err = thrown(() => gsd.buildRegistry([{ folder: 'a' }]));
  assert.equal(err.code, 'INVALID_ARGUMENT');
  assert.equal(err.field, 'overlays[0].manifest');
  // A registry's own method is typed at the crossing too.
  for (const [id, shown] of [[5, '5'], [undefined, 'undefined'], [{}, '{}'], [1n, '1n']]) {
    const bad = thrown(() => gsd.firstPartyRegistry().requiresClosure(id));
    assert.deepStrictEqual([bad.code, bad.field, bad.message], ['INVALID_ARGUMENT', 'id', `id must be a capability id (a string), got ${shown}`], String(id));
  }
});

test('installed surfaces: facts as data equal reading the same files from disk, and the peer', (t) => {
  const home = tempDir(t);
  const cwd = join(home, 'p');
  const manifest = JSON.stringify({ manifestVersion: 2, runtime: 'claude', scope: 'global', files: { 'skills/gsd-help/SKILL.md': 'x' } });
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(cwd);
  writeFileSync(join(home, '.claude', 'gsd-file-manifest.json'), manifest);
  const host = { home, cwd, env: {} };
  const fromDisk = gsd.resolveInstalledSurfaces('claude', host);
  const facts = { homes: { [join(home, '.claude')]: { manifest }, [join(cwd, '.claude')]: {} } };
  const fromData = gsd.resolveInstalledSurfaces('claude', host, { facts });
  assert.deepStrictEqual(fromData, fromDisk);
  assert.deepStrictEqual(fromDisk.surfaces, peerSurfaces.resolveInstalledSurfaces('claude', host));
  assert.deepStrictEqual(fromDisk.surfaces[0].scopes[0].stems, ['help']);
  const report = gsd.buildShadowReport('claude', host, { facts });
  assert.equal(report.report.reason, 'not_shadowed');
  assert.deepStrictEqual(report.lines, []);
  assert.equal(thrown(() => gsd.buildShadowReport('claude', host, { sampleLimit: -1 })).field, 'sampleLimit');
  // A manifest that is there and unreadable: from disk (a directory) as from data, not
  // installed, as the peer reads it, and said.
  rmSync(join(home, '.claude', 'gsd-file-manifest.json'));
  mkdirSync(join(home, '.claude', 'gsd-file-manifest.json'));
  const unreadable = gsd.resolveInstalledSurfaces('claude', host);
  const reason = 'a directory, not a regular file';
  const asData = { homes: { [join(home, '.claude')]: { manifestUnreadable: reason }, [join(cwd, '.claude')]: {} } };
  assert.deepStrictEqual(gsd.resolveInstalledSurfaces('claude', host, { facts: asData }), unreadable);
  assert.deepStrictEqual(unreadable.surfaces, peerSurfaces.resolveInstalledSurfaces('claude', host));
  assert.equal(unreadable.surfaces[0].scopes[0].installed, false);
  assert.deepStrictEqual(unreadable.diagnostics.map((d) => [d.code, d.detail.reason]), [['install_manifest_unreadable', reason]]);
  // A manifest that is a link to a good one is never followed, read from disk as from data.
  rmSync(join(home, '.claude', 'gsd-file-manifest.json'), { recursive: true });
  writeFileSync(join(home, 'elsewhere.json'), manifest);
  symlinkSync(join(home, 'elsewhere.json'), join(home, '.claude', 'gsd-file-manifest.json'));
  const linked = gsd.resolveInstalledSurfaces('claude', host);
  const linkData = { homes: { [join(home, '.claude')]: { manifestIsSymlink: true }, [join(cwd, '.claude')]: {} } };
  assert.deepStrictEqual(gsd.resolveInstalledSurfaces('claude', host, { facts: linkData }), linked);
  assert.equal(linked.surfaces[0].scopes[0].installed, false);
  assert.deepStrictEqual(linked.diagnostics.map((d) => [d.code, d.field]), [['install_surface_symlink', 'gsd-file-manifest.json']]);
});
