// The drop-in test: the peer's own installer, run for every installable runtime × both scopes
// into a temporary HOME and project — once as shipped, once with every axis module we
// provide swapped for our compat module — writes the same tree byte for byte (file modes
// included; timestamps and the temporary base path aside) and prints the same output. A
// few jobs also swap each axis alone. The per-axis report (printed as a table) says which
// axes the installer actually called into, and which calls fell through to the peer's
// own staging exports. GSD_DROPIN_SOLO=all swaps each axis alone in every job.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AXES, runMatrix, sumTraces, reportTable } from './dropin-harness.mjs';

/** Jobs that also swap each axis alone (a global and a local install, two install engines). */
const SOLO_JOBS = new Set(['claude global', 'codex local']);

/** Jobs the shipped installer declines: it prints that the scope is deferred and writes nothing. */
const WRITES_NOTHING = new Set(['kimi local', 'kimi-code local']);

/**
 * Axes the installer loads (through other peer modules) but never calls into: reported as
 * such. The test fails when this set changes, so the report stays true.
 */
const NEVER_CALLED = ['runtime-slash', 'installed-surface-resolver'];
const soloAll = process.env.GSD_DROPIN_SOLO === 'all';

const started = Date.now();
const results = await runMatrix({ soloFor: (runtime, scope) => (soloAll || SOLO_JOBS.has(`${runtime} ${scope}`) ? AXES : []) });
const seconds = ((Date.now() - started) / 1000).toFixed(1);

/** Asserts that a swapped run wrote what the shipped run wrote and printed the same. */
function assertSameInstall(shipped, run, label) {
  assert.equal(shipped.status, 0, `${label}: the shipped installer failed: ${shipped.stderr}`);
  assert.equal(run.status, 0, `${label}: the swapped installer failed: ${run.stderr}`);
  const f = run.first;
  assert.deepStrictEqual(run.diff, [], f && `${label}: trees differ at ${run.diff.length} paths; first ${f.path}:\n--- shipped\n${f.shipped}\n--- swapped\n${f.swapped}`);
  assert.ok(run.sameStdout, `${label}: the installer's output differs`);
}

for (const r of results) {
  test(`drop-in: ${r.runtime} --${r.scope}: every axis swapped writes the same tree`, () => {
    if (WRITES_NOTHING.has(`${r.runtime} ${r.scope}`)) assert.equal(r.shipped.entries, 2, 'only the empty home and project folders');
    else assert.ok(r.shipped.entries > 500, `the install writes a real tree (${r.shipped.entries} entries)`);
    assertSameInstall(r.shipped, r.all, `${r.runtime} ${r.scope} (all axes)`);
  });
  for (const [axis, run] of Object.entries(r.alone)) {
    test(`drop-in: ${r.runtime} --${r.scope}: ${axis} swapped alone writes the same tree`, () => {
      assertSameInstall(r.shipped, run, `${r.runtime} ${r.scope} (${axis} alone)`);
    });
  }
}

// The core profile: the installer resolves it against an empty manifest of its own making
// (`new Map()`), not one from loadSkillsManifest.
const minimal = await runMatrix({ runtimes: ['claude', 'codex'], soloFor: () => ['install-profiles'], extra: ['--minimal'] });
for (const r of minimal) {
  test(`drop-in: ${r.runtime} --${r.scope} --minimal: every axis swapped, and install-profiles alone, write the same tree`, () => {
    assert.ok(r.shipped.entries > 100, `the install writes a real tree (${r.shipped.entries} entries)`);
    assertSameInstall(r.shipped, r.all, `${r.runtime} ${r.scope} --minimal (all axes)`);
    assertSameInstall(r.shipped, r.alone['install-profiles'], `${r.runtime} ${r.scope} --minimal (install-profiles alone)`);
  });
}

// An upgrade over a surface the user customised: the installer hands loadSkillsManifest's
// result to its own surface resolver (not an axis), which must read it as the peer's Map.
const surfaceState = (profile) => `${JSON.stringify({ baseProfile: profile, disabledClusters: [], explicitAdds: [], explicitRemoves: [] })}\n`;
for (const profile of ['full', 'standard']) {
  const upgrade = await runMatrix({
    runtimes: ['claude'],
    soloFor: () => ['install-profiles'],
    seedFor: (runtime, scope) => ({ home, project }) => {
      const configDir = join(scope === 'global' ? home : project, '.claude');
      mkdirSync(configDir, { recursive: true });
      writeFileSync(join(configDir, '.gsd-surface.json'), surfaceState(profile));
    },
  });
  for (const r of upgrade) {
    test(`drop-in: ${r.runtime} --${r.scope} over a recorded ${profile} surface: every axis swapped, and install-profiles alone, write the same tree`, () => {
      assert.ok(r.shipped.entries > 100, `the install writes a real tree (${r.shipped.entries} entries)`);
      assertSameInstall(r.shipped, r.all, `${r.runtime} ${r.scope} ${profile} surface (all axes)`);
      assertSameInstall(r.shipped, r.alone['install-profiles'], `${r.runtime} ${r.scope} ${profile} surface (install-profiles alone)`);
    });
  }
}

test('drop-in: per-axis report (calls through the swap per axis, peer fall-throughs, axes swapped alone)', (t) => {
  const summary = sumTraces(results.map((r) => r.all.trace));
  const solo = {};
  for (const r of results) {
    for (const [axis, run] of Object.entries(r.alone)) {
      solo[axis] ??= { runs: 0, identical: 0, called: 0 };
      solo[axis].runs += 1;
      solo[axis].identical += run.status === 0 && r.shipped.status === 0 && run.diff.length === 0 && run.sameStdout ? 1 : 0;
      const own = run.trace[axis];
      solo[axis].called += own && Object.keys(own.ours).length + Object.keys(own.reads).length > 0 ? 1 : 0;
    }
  }
  const table = reportTable(summary, results.length, solo);
  const installs = results.reduce((n, r) => n + 2 + Object.keys(r.alone).length, 0);
  const lines = [`drop-in matrix: ${results.length} jobs, ${installs} installs in ${seconds}s`, table];
  for (const line of lines.join('\n').split('\n')) t.diagnostic(line);
  const neverCalled = AXES.filter((axis) => {
    const s = summary[axis];
    return Object.keys(s.ours).length + Object.keys(s.reads).length === 0;
  });
  assert.deepStrictEqual(neverCalled, NEVER_CALLED, 'axes loaded by the installer but never called into');
  for (const axis of AXES) assert.equal(summary[axis].runs, results.length, `${axis} is loaded in every run`);
  for (const [axis, s] of Object.entries(solo)) {
    if (!NEVER_CALLED.includes(axis)) assert.equal(s.called, s.runs, `${axis} swapped alone: ours is called in every run`);
  }
});
