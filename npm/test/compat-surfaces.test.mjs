// compat/installed-surface-resolver.cjs and compat/install-shadow-report.cjs equal the peer
// on real temporary homes holding install manifests (both scopes, every runtime).
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { require, peer, tempDir, assertSameOutcome, outcome } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';

const surfaces = require('../compat/installed-surface-resolver.cjs');
const peerSurfaces = peer('installed-surface-resolver');
const shadow = require('../compat/install-shadow-report.cjs');
const peerShadow = peer('install-shadow-report');
const peerScope = peer('install-scope');

const FILES = {
  'skills/gsd-help/SKILL.md': 'a',
  'skills/gsd-plan-phase/SKILL.md': 'b',
  'skills/gsd-ns-review/skills/code-review/SKILL.md': 'c',
  'commands/gsd-help.md': 'd',
  'commands/gsd/plan-phase.md': 'e',
  'command/gsd-help.md': 'f',
  'prompts/gsd-help.md': 'g',
  'agents/gsd-planner.md': 'h',
  'skills/Bad Stem/SKILL.md': 'i',
};

function manifest(runtime, scope, extra = {}) {
  return JSON.stringify({ version: '1.14.0', timestamp: 't', mode: 'full', files: FILES, manifestVersion: 2, runtime, scope, ...extra });
}

/** Lays out a home + project where every runtime is installed at both scopes, with twists. */
function layout(t) {
  const root = tempDir(t);
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  mkdirSync(home);
  mkdirSync(cwd);
  const opts = { home, cwd, env: {} };
  RUNTIMES.filter((r) => r !== 'vscode').forEach((runtime, i) => {
    for (const scope of ['global', 'local']) {
      const dir = peerScope.resolveScope({ id: scope, runtime, ...opts }).configHome;
      mkdirSync(dir, { recursive: true });
      const twist = (i + (scope === 'local' ? 1 : 0)) % 6;
      const file = join(dir, 'gsd-file-manifest.json');
      if (twist === 0) writeFileSync(file, manifest(runtime, scope));
      if (twist === 1) writeFileSync(file, manifest('codex', scope === 'global' ? 'local' : 'global'));
      if (twist === 2) writeFileSync(file, '{ not json');
      if (twist === 3) writeFileSync(file, manifest(runtime, scope, { manifestVersion: undefined, runtime: undefined, scope: undefined }));
      if (twist === 4) {
        writeFileSync(join(root, `${runtime}-${scope}.json`), manifest(runtime, scope));
        symlinkSync(join(root, `${runtime}-${scope}.json`), file);
      }
      if (twist === 5) writeFileSync(file, '[1, 2]');
    }
  });
  return opts;
}

test('installed-surface-resolver: every runtime and each one alone, on a laid-out home', (t) => {
  const opts = layout(t);
  assertSameOutcome(() => surfaces.resolveInstalledSurfaces(undefined, { ...opts }), () => peerSurfaces.resolveInstalledSurfaces(undefined, { ...opts }), 'all');
  for (const runtime of [...RUNTIMES, 'nope']) {
    assertSameOutcome(() => surfaces.resolveInstalledSurfaces(runtime, { ...opts }), () => peerSurfaces.resolveInstalledSurfaces(runtime, { ...opts }), runtime);
  }
  const installed = surfaces.resolveInstalledSurfaces(undefined, { ...opts }).filter((s) => s.scopes.some((r) => r.installed));
  assert.ok(installed.length >= 6, 'the layout installs several runtimes');
});

test('install-shadow-report: reports and rendered lines for every runtime', (t) => {
  const opts = layout(t);
  let shadowed = 0;
  for (const runtime of [...RUNTIMES, 'nope']) {
    assertSameOutcome(() => shadow.buildShadowReport(runtime, { ...opts }), () => peerShadow.buildShadowReport(runtime, { ...opts }), runtime);
    const ours = shadow.buildShadowReport(runtime, { ...opts });
    const theirs = peerShadow.buildShadowReport(runtime, { ...opts });
    for (const sampleLimit of [5, 1, 0]) {
      assert.deepStrictEqual(shadow.renderShadowReport(ours, { sampleLimit }), peerShadow.renderShadowReport(theirs, { sampleLimit }), `${runtime} lines ${sampleLimit}`);
    }
    if (ours.shadowed) shadowed += 1;
  }
  assert.ok(shadowed > 0, 'some runtime is shadowed');
  assert.deepStrictEqual(shadow.SHADOW_REASON, peerShadow.SHADOW_REASON);
});

test('install-shadow-report: sanitizeForRender', () => {
  for (const v of [null, undefined, 'claude', '\u001b[31mcla\u202eude\u00a0\u00a0x\n', 'bad\u001bZ', '  a \t b  ', 'e\u0301', 7]) {
    assertSameOutcome(() => shadow.sanitizeForRender(v), () => peerShadow.sanitizeForRender(v), String(v));
  }
});

test('surfaces and shadow report: a home or cwd that is not a string fails, skips or reports unavailable as the peer does', (t) => {
  const nowhere = tempDir(t);
  let compared = 0;
  for (const home of [1, {}, true, nowhere]) {
    for (const cwd of [1, nowhere]) {
      for (const env of [{}, { CLAUDE_CONFIG_DIR: join(nowhere, 'c') }]) {
        const opts = { home, cwd, env };
        const label = `${String(home)} ${String(cwd)} ${Object.keys(env)}`;
        for (const runtime of ['claude', 'codex', 'kimi', undefined]) {
          assertSameOutcome(() => surfaces.resolveInstalledSurfaces(runtime, opts), () => peerSurfaces.resolveInstalledSurfaces(runtime, opts), `surfaces ${runtime} ${label}`);
          if (runtime === undefined) continue;
          const ours = shadow.buildShadowReport(runtime, opts);
          const theirs = peerShadow.buildShadowReport(runtime, opts);
          assert.deepStrictEqual(ours, theirs, `shadow ${runtime} ${label}`);
          assert.deepStrictEqual(shadow.renderShadowReport(ours), peerShadow.renderShadowReport(theirs), `lines ${runtime} ${label}`);
          compared += 1;
        }
      }
    }
  }
  assert.equal(compared, 4 * 2 * 2 * 3);
  // The stand-in path never shows: every answer above equalled the peer's.
});

test('install-shadow-report: renderShadowReport reads the report before its options, and a limit as slice reads it', (t) => {
  const opts = layout(t);
  let unshadowed = 0;
  let shadowed = 0;
  for (const runtime of [...RUNTIMES, 'nope']) {
    const ours = shadow.buildShadowReport(runtime, { ...opts });
    const theirs = peerShadow.buildShadowReport(runtime, { ...opts });
    // Options that cannot be read: the peer needs them only for a report with lines.
    for (const options of [null, { sampleLimit: 2 }]) {
      const a = outcome(() => shadow.renderShadowReport(ours, options));
      const b = outcome(() => peerShadow.renderShadowReport(theirs, options));
      assert.deepStrictEqual({ ...a, error: a.error?.type }, { ...b, error: b.error?.type }, `${runtime} ${JSON.stringify(options)}`);
    }
    if (!theirs.shadowed) {
      assert.deepStrictEqual(shadow.renderShadowReport(ours, null), [], runtime);
      unshadowed += 1;
      continue;
    }
    for (const sampleLimit of [-1, -100, '2', NaN, null, undefined, 1.5, Infinity, true, [1]]) {
      assertSameOutcome(
        () => shadow.renderShadowReport(ours, { sampleLimit }),
        () => peerShadow.renderShadowReport(theirs, { sampleLimit }),
        `${runtime} sampleLimit ${String(sampleLimit)}`,
      );
    }
    shadowed += 1;
  }
  assert.ok(shadowed > 0 && unshadowed > 0, `${shadowed} shadowed, ${unshadowed} not`);
  // A report built elsewhere that has no lines renders as none, as the peer renders it.
  for (const report of [{ reason: 'not_shadowed' }, { reason: 'scope_shadowed', winner: null, shadowedSide: {} }, { reason: 'scope_shadowed', winner: {}, shadowedSide: null }]) {
    assert.deepStrictEqual(shadow.renderShadowReport(report), peerShadow.renderShadowReport(report), JSON.stringify(report));
    assert.deepStrictEqual(shadow.renderShadowReport(report), []);
  }
  assert.equal(outcome(() => shadow.renderShadowReport(null)).error.type, outcome(() => peerShadow.renderShadowReport(null)).error.type);
});
