// The CLI end to end: spawned with a temporary HOME, asserted on exit codes and output.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cli, tempDir, peer } from './helpers.mjs';

const peerRuntimes = Object.keys(peer('capability-registry').runtimes).sort();

test('runtimes prints one row per registered runtime', (t) => {
  const home = tempDir(t);
  const run = cli(['runtimes'], { home });
  assert.equal(run.status, 0, run.stderr);
  const rows = run.stdout.trim().split('\n');
  assert.match(rows[0], /^RUNTIME\s+TIER\s+CONFIG HOME/);
  assert.deepStrictEqual(rows.slice(1).map((r) => r.split(/\s+/)[0]), peerRuntimes);
  assert.doesNotMatch(run.stdout, /\u001b\[/, 'NO_COLOR: no escape sequences');
});

test('runtimes --json prints the descriptors', (t) => {
  const run = cli(['runtimes', '--json'], { home: tempDir(t) });
  assert.equal(run.status, 0, run.stderr);
  assert.deepStrictEqual(JSON.parse(run.stdout).map((r) => r.id), peerRuntimes);
});

test('usage errors exit 2 with a message', (t) => {
  const home = tempDir(t);
  for (const args of [['frobnicate'], ['runtimes', '--bogus'], ['runtimes', 'extra'], []]) {
    const run = cli(args, { home });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
  }
  assert.match(cli(['frobnicate'], { home }).stderr, /unknown command 'frobnicate'/);
});

test('--help documents the exit codes and exits 0', (t) => {
  const run = cli(['--help'], { home: tempDir(t) });
  assert.equal(run.status, 0);
  assert.match(run.stdout, /Exit codes:\n {2}0 {2}success/);
  assert.match(run.stdout, /2 {2}usage error/);
});

import { mkdirSync, writeFileSync, symlinkSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { require, peerRoot } from './helpers.mjs';

const peerScope = peer('install-scope');
const peerLayout = peer('runtime-artifact-layout');

test('plan --json prints the plan the API returns, for a temporary HOME', (t) => {
  const home = tempDir(t);
  const run = cli(['plan', '--codex', '--json'], { home, cwd: home });
  assert.equal(run.status, 0, run.stderr);
  const plan = JSON.parse(run.stdout);
  assert.equal(plan.scope.configHome, peerScope.resolveScope({ id: 'global', runtime: 'codex', home, env: {}, existsSync: () => false }).configHome);
  assert.deepStrictEqual(plan.scope.provenance, { source: 'default' });
  assert.deepStrictEqual(plan.installManifest, { manifestVersion: 2, runtime: 'codex', scope: 'global' });
});

test('plan honours the environment and --config-dir; local plans land under cwd', (t) => {
  const home = tempDir(t);
  const env = { CLAUDE_CONFIG_DIR: '~/alt' };
  const viaEnv = JSON.parse(cli(['plan', '--claude', '--json'], { home, env }).stdout);
  assert.equal(viaEnv.scope.configHome, join(home, 'alt'));
  assert.deepStrictEqual(viaEnv.scope.provenance, { source: 'envVar', name: 'CLAUDE_CONFIG_DIR', value: '~/alt' });
  const explicit = JSON.parse(cli(['plan', '--claude', '-c', '~/x', '--json'], { home, env }).stdout);
  assert.equal(explicit.scope.configHome, join(home, 'x'));
  const project = tempDir(t);
  const local = JSON.parse(cli(['plan', '--copilot', '-l', '--json'], { home, cwd: project }).stdout);
  assert.equal(local.scope.configHome, join(project, '.github'));
});

test('plan with the peer package as source calls out shadowed triggers', (t) => {
  const home = tempDir(t);
  const run = cli(['plan', '--zcode', '--source', peerRoot], { home });
  assert.equal(run.status, 0, run.stderr);
  const stems = require('node:fs').readdirSync(join(peerRoot, 'commands', 'gsd')).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));
  const surface = peerLayout.resolveTriggerSurface('zcode', ['global'], { stems });
  const expected = surface.filter((s) => s.shadowedBy);
  assert.ok(expected.length > 0, 'zcode has skills and commands: the peer shadows commands');
  assert.match(run.stdout, new RegExp(`triggers +${surface.length} \\(${expected.length} shadowed\\)`));
  assert.match(run.stdout, /! gsd-help \(global commands\) is shadowed by global skills/);
});

test('plan --all skips the runtime without a config home and succeeds', (t) => {
  const run = cli(['plan', '--all', '--json'], { home: tempDir(t) });
  assert.equal(run.status, 0, run.stderr);
  assert.deepStrictEqual(JSON.parse(run.stdout).map((p) => p.runtime), peerRuntimes.filter((r) => r !== 'vscode'));
});

test('plan usage errors exit 2: contradictory, unknown or missing flags', (t) => {
  const home = tempDir(t);
  const cases = [
    [['plan', '--claude', '--global', '--local'], /contradict/],
    [['plan', '--claude', '-g', '-l'], /contradict/],
    [['plan', '--claude', '--local', '--config-dir', '/x'], /--config-dir/],
    [['plan', '--claude', '--codex', '-c', '/x'], /one runtime/],
    [['plan'], /choose at least one runtime/],
    [['plan', '--claude', '--gemini'], /Unknown option '--gemini'/],
    [['plan', '--claude', '--config-dir'], /argument missing/],
    [['plan', '--claude', 'extra'], /positional/],
  ];
  for (const [args, message] of cases) {
    const run = cli(args, { home });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
  }
});

test('plan for a runtime without a config home exits 1 with the error code', (t) => {
  const run = cli(['plan', '--vscode'], { home: tempDir(t) });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /NO_CONFIG_HOME: .*\(field: runtime\.configHome\.kind\)/);
});

test('validate: the first-party capabilities are valid', () => {
  const run = cli(['validate', join(npmDirOf(), '..', 'capabilities')]);
  assert.equal(run.status, 0, run.stdout + run.stderr);
});

test('validate: typed diagnostics, symlinks and non-regular files refused, exit 1', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'bad'));
  writeFileSync(join(dir, 'bad', 'capability.json'), '{"id":"Bad"}');
  mkdirSync(join(dir, 'deep'));
  writeFileSync(join(dir, 'deep', 'capability.json'), '['.repeat(200) + ']'.repeat(200));
  mkdirSync(join(dir, 'fifo'));
  execFileSync('mkfifo', [join(dir, 'fifo', 'capability.json')]);
  mkdirSync(join(dir, 'linkfile'));
  symlinkSync(join(dir, 'bad', 'capability.json'), join(dir, 'linkfile', 'capability.json'));
  symlinkSync(join(dir, 'bad'), join(dir, 'linkdir'));
  const run = cli(['validate', dir, '--json']);
  assert.equal(run.status, 1, run.stderr);
  const byFolder = Object.fromEntries(JSON.parse(run.stdout).map((r) => [r.folder, r.diagnostics.map((d) => d.code)]));
  assert.deepStrictEqual(byFolder.bad.slice(0, 2), ['invalid_id', 'missing_field']);
  assert.deepStrictEqual(byFolder.deep, ['manifest_too_deep']);
  assert.deepStrictEqual(byFolder.fifo, ['overlay_not_regular_file']);
  assert.deepStrictEqual(byFolder.linkfile, ['overlay_symlink_refused']);
  assert.deepStrictEqual(byFolder.linkdir, ['overlay_symlink_refused']);
});

test('validate: a valid single capability exits 0; a missing path is a usage error', (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'tdd'));
  copyFileSync(join(npmDirOf(), '..', 'capabilities', 'tdd', 'capability.json'), join(dir, 'tdd', 'capability.json'));
  assert.equal(cli(['validate', join(dir, 'tdd')]).status, 0);
  assert.equal(cli(['validate', join(dir, 'nope')]).status, 2);
  assert.equal(cli(['validate']).status, 2);
});

function npmDirOf() {
  return join(require.resolve('../package.json'), '..');
}

const peerShadow = peer('install-shadow-report');
const peerSurfaces = peer('installed-surface-resolver');

function installClaudeBothScopes(t) {
  const home = tempDir(t);
  const project = join(home, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(join(project, '.claude'), { recursive: true });
  writeFileSync(join(home, '.claude', 'gsd-file-manifest.json'), JSON.stringify({ manifestVersion: 2, runtime: 'claude', scope: 'global', files: { 'skills/gsd-help/SKILL.md': 'x', 'skills/gsd-plan-phase/SKILL.md': 'y' } }));
  writeFileSync(join(project, '.claude', 'gsd-file-manifest.json'), JSON.stringify({ manifestVersion: 2, runtime: 'codex', scope: 'local', files: { 'commands/gsd-help.md': 'x' } }));
  return { home, project };
}

test('doctor --json: config dirs, installed scopes and shadow reports equal the peer', (t) => {
  const { home, project } = installClaudeBothScopes(t);
  const run = cli(['doctor', '--json'], { home, cwd: project });
  assert.equal(run.status, 0, run.stderr);
  const doctor = JSON.parse(run.stdout);
  assert.deepStrictEqual(doctor.runtimes.map((r) => r.runtime), peerRuntimes);
  const opts = { home, cwd: project, env: {} };
  for (const r of doctor.runtimes) {
    assert.deepStrictEqual(r.shadow, peerShadow.buildShadowReport(r.runtime, opts), r.runtime);
    if (r.runtime !== 'vscode') assert.deepStrictEqual(r.scopes, peerSurfaces.resolveInstalledSurfaces(r.runtime, opts)[0].scopes, r.runtime);
  }
  const claude = doctor.runtimes.find((r) => r.runtime === 'claude');
  assert.equal(claude.configHome, join(home, '.claude'));
  assert.deepStrictEqual(claude.provenance, { source: 'default' });
  assert.equal(claude.shadow.reason, 'scope_shadowed');
});

test('doctor prints the shadow lines and mismatches, exits 0 without errors', (t) => {
  const { home, project } = installClaudeBothScopes(t);
  const run = cli(['doctor', '--claude'], { home, cwd: project });
  assert.equal(run.status, 0, run.stderr);
  const opts = { home, cwd: project, env: {} };
  for (const line of peerShadow.renderShadowReport(peerShadow.buildShadowReport('claude', opts))) {
    assert.ok(run.stdout.includes(line), `missing: ${line}\n${run.stdout}`);
  }
  assert.match(run.stdout, /global +installed \(manifest v2, 2 installed stems\)/);
  assert.equal(cli(['doctor', '--bogus'], { home }).status, 2);
});

test('plan --profile=core selects the peer core profile skills and agents', (t) => {
  const run = cli(['plan', '--claude', '--profile=core', '--source', peerRoot, '--json'], { home: tempDir(t) });
  assert.equal(run.status, 0, run.stderr);
  const plan = JSON.parse(run.stdout);
  const peerProfiles = peer('install-profiles');
  const manifest = peerProfiles.loadSkillsManifest(join(peerRoot, 'commands', 'gsd'));
  const expected = peerProfiles.resolveProfile({ modes: ['core'], manifest });
  const skills = plan.placements.filter((p) => p.kind === 'skills').map((p) => p.stem).sort();
  assert.deepStrictEqual(skills, [...expected.skills].sort());
  const agents = plan.placements.filter((p) => p.kind === 'agents').map((p) => p.stem);
  assert.ok(agents.length > 0 && agents.every((a) => expected.agents.has(a)), agents.join(','));
  assert.equal(cli(['plan', '--claude', '--profile=core'], { home: tempDir(t) }).status, 2, 'a profile needs --source');
});
