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
  // Names every object inherits are not commands either.
  for (const name of ['constructor', 'toString', '__proto__', 'valueOf', 'hasOwnProperty']) {
    const run = cli([name], { home });
    assert.equal(run.status, 2, `${name}: ${run.stderr}`);
    assert.equal(run.stderr, `gsd-core: unknown command '${name}'\nRun 'gsd-core --help' for usage.\n`);
  }
});

test('--help documents the exit codes and exits 0', (t) => {
  const run = cli(['--help'], { home: tempDir(t) });
  assert.equal(run.status, 0);
  assert.match(run.stdout, /Exit codes:\n {2}0 {2}success/);
  assert.match(run.stdout, /2 {2}usage error/);
});

import { mkdirSync, readdirSync, rmSync, writeFileSync, symlinkSync, copyFileSync, readFileSync, chmodSync, accessSync, existsSync, constants as fsConstants } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { require, peerRoot, thrown } from './helpers.mjs';

const api = require('../index.js');

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

test('plan --all --json prints the plans and names, with its reason, the runtime it skips on stderr', (t) => {
  const home = tempDir(t);
  const run = cli(['plan', '--all', '-g', '--json'], { home });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepStrictEqual(out.map((p) => p.runtime), peerRuntimes.filter((r) => r !== 'vscode'));
  const why = thrown(() => api.resolveInstallPlan('vscode', 'global', { home, cwd: home, env: {} }));
  assert.equal(why.code, 'NO_CONFIG_HOME');
  assert.equal(run.stderr, `gsd-core: vscode skipped (NO_CONFIG_HOME): ${why.message}\n`);
  // Text mode says the same; runtimes named one by one keep their array.
  assert.match(cli(['plan', '--all', '-g'], { home }).stdout, /^vscode: no installable config directory \(skipped\)$/m);
  const named = JSON.parse(cli(['plan', '--claude', '--codex', '--json'], { home }).stdout);
  assert.deepStrictEqual(named.map((p) => p.runtime), ['claude', 'codex']);
});

test('plan usage errors exit 2: contradictory, unknown or missing flags', (t) => {
  const home = tempDir(t);
  const cases = [
    [['plan', '--claude', '--global', '--local'], /contradict/],
    [['plan', '--claude', '-g', '-l'], /contradict/],
    [['plan', '--claude', '--local', '--config-dir', '/x'], /--config-dir/],
    [['plan', '--claude', '--codex', '-c', '/x'], /one runtime/],
    [['plan'], /choose at least one runtime/],
    [['plan', '--claude', '--gemini'], /^gsd-core: unknown option '--gemini': the gemini runtime was removed; its successor is --antigravity\n/],
    [['plan', '--claude-code'], /^gsd-core: unknown option '--claude-code'; did you mean --claude\?\n/],
    [['doctor', '--cod'], /^gsd-core: unknown option '--cod'; did you mean --codebuddy or --codex\?\n/],
    [['plan', '--frob=1'], /^gsd-core: unknown option '--frob' \(`gsd-core runtimes` lists the runtimes a --<runtime> flag selects\)\n/],
    [['validate', '--gemini', 'x'], /^gsd-core: unknown option '--gemini'\nRun 'gsd-core --help' for usage\.\n$/],
    [['plan', '--claude', '--config-dir'], /argument missing/],
    [['plan', '--claude', 'extra'], /positional/],
    // A config directory that exists must be a directory (one that does not is created).
    [['plan', '--claude', '-c', process.execPath], /^gsd-core: --config-dir .* is there and is not a directory\n/],
  ];
  for (const [args, message] of cases) {
    const run = cli(args, { home });
    assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message, args.join(' '));
  }
  // `~/…` is checked where the core puts it, under the home directory.
  writeFileSync(join(home, 'afile'), '');
  const tilde = cli(['plan', '--claude', '-c', '~/afile'], { home });
  assert.equal(tilde.status, 2, tilde.stderr);
  assert.match(tilde.stderr, /^gsd-core: --config-dir ~\/afile is there and is not a directory\n/);
});

test('plan for a runtime without a config home exits 1 with the error code', (t) => {
  const run = cli(['plan', '--vscode'], { home: tempDir(t) });
  assert.equal(run.status, 1);
  assert.match(run.stderr, /NO_CONFIG_HOME: .*\(field: runtime\.configHome\.kind\)/);
  // With --json, stdout stays empty (no `null` for a plan that does not exist).
  const json = cli(['plan', '--vscode', '--json'], { home: tempDir(t) });
  assert.equal(json.status, 1);
  assert.equal(json.stdout, '');
  assert.match(json.stderr, /NO_CONFIG_HOME/);
});

test('validate --first-party: the first-party capabilities are valid; as overlays every id is taken', () => {
  const firstParty = join(npmDirOf(), '..', 'capabilities');
  const run = cli(['validate', '--first-party', firstParty]);
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const asOverlays = cli(['validate', firstParty, '--json']);
  assert.equal(asOverlays.status, 1);
  const results = JSON.parse(asOverlays.stdout);
  assert.deepStrictEqual(results.map((r) => r.folder), Object.keys(api.firstPartyRegistry().toPeerJson().capabilities).sort());
  for (const r of results) assert.deepStrictEqual(r.diagnostics.map((d) => d.code), ['overlay_id_conflict', 'overlay_rejected'], r.folder);
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
  // The manifest check; admission's record of the same fault is not listed again, its summary is.
  assert.deepStrictEqual(byFolder.deep, ['overlay_manifest_invalid', 'overlay_rejected']);
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

/** The skill and agent stems the peer installer wrote for claude under `home` (global). */
function installedStems(home) {
  const dir = join(home, '.claude');
  const list = (sub) => {
    try {
      return readdirSync(join(dir, sub)).sort();
    } catch {
      return [];
    }
  };
  return {
    skills: list('skills').filter((n) => n.startsWith('gsd-')).map((n) => n.slice(4)),
    agents: list('agents').filter((n) => n.endsWith('.md')).map((n) => n.slice(0, -3)),
  };
}

/** The skill and agent stems a plan places. */
function plannedStems(plan) {
  const of = (kind) => plan.placements.filter((p) => p.kind === kind).map((p) => p.stem).sort();
  return { skills: of('skills'), agents: of('agents') };
}

test('plan with a profile places what the peer installer installs, and keeps a recorded profile', (t) => {
  for (const [flags, expected] of [
    [['--profile=core'], { skills: 8, agents: 0 }],
    [['--minimal'], { skills: 8, agents: 0 }],
    [['--profile=standard'], { skills: 23, agents: 22 }],
  ]) {
    // What the installer writes into a fresh home.
    const home = tempDir(t);
    const install = spawnSync(process.execPath, [join(peerRoot, 'bin', 'install.js'), '--claude', '--global', ...flags], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' },
      encoding: 'utf8',
    });
    assert.equal(install.status, 0, install.stderr);
    const installed = installedStems(home);
    assert.deepStrictEqual([installed.skills.length, installed.agents.length], [expected.skills, expected.agents], flags.join(' '));
    // The plan for that home, asked the same way, places exactly those stems.
    const fresh = tempDir(t);
    const asked = cli(['plan', '--claude', ...flags, '--source', peerRoot, '--json'], { home: fresh });
    assert.equal(asked.status, 0, asked.stderr);
    assert.deepStrictEqual(plannedStems(JSON.parse(asked.stdout)), installed, flags.join(' '));
    // Without a profile on the command line, the one the install recorded is kept, as the
    // installer keeps it on an update, and said on stderr (text: a `profile` line).
    const again = cli(['plan', '--claude', '--source', peerRoot, '--json'], { home });
    assert.equal(again.status, 0, again.stderr);
    assert.deepStrictEqual(plannedStems(JSON.parse(again.stdout)), installed, `${flags.join(' ')} recorded`);
    const name = flags[0] === '--minimal' ? 'core' : flags[0].slice('--profile='.length);
    const marker = join(home, '.claude', '.gsd-profile');
    assert.equal(again.stderr, `gsd-core: claude: profile ${name} (${marker})\n`);
    assert.match(cli(['plan', '--claude', '--source', peerRoot], { home }).stdout, new RegExp(`^ {2}profile {7}${name} \\(${marker.replace(/[.]/g, '\\.')}\\)$`, 'm'));
    // An explicit profile wins over the recorded one.
    const full = cli(['plan', '--claude', '--profile=full', '--source', peerRoot, '--json'], { home });
    assert.equal(JSON.parse(full.stdout).placements.length, 136);
  }
  // The core list needs no bodies; any other profile reads them under --source, unless
  // one of its parts is full, which selects everything; an explicit profile is said.
  assert.equal(cli(['plan', '--claude', '--profile=core'], { home: tempDir(t) }).status, 0);
  for (const name of ['full', 'full,core', 'core, full']) {
    const run = cli(['plan', '--claude', `--profile=${name}`], { home: tempDir(t) });
    assert.equal(run.status, 0, run.stderr);
    // Named as it resolves: full.
    assert.match(run.stdout, new RegExp(`^ {2}profile {7}full \\(--profile=${name}\\)$`, 'm'));
  }
  const noSource = cli(['plan', '--claude', '--profile=standard'], { home: tempDir(t) });
  assert.equal(noSource.status, 2, 'standard needs --source');
  assert.match(noSource.stderr, /^gsd-core: --profile=standard needs --source <dir>/);
});

/** A copy of the first-party `tdd` manifest under another id, with what it owns removed. */
function featureManifest(id, requires) {
  const manifest = JSON.parse(readFileSync(join(npmDirOf(), '..', 'capabilities', 'tdd', 'capability.json'), 'utf8'));
  return JSON.stringify({ ...manifest, id, requires, config: {}, contributions: [], gates: [] }, null, 2);
}

test('validate <overlay root> reports what admission onto the first-party registry rejects', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-needs'));
  writeFileSync(join(root, 'acme-needs', 'capability.json'), featureManifest('acme-needs', ['acme-missing']));
  mkdirSync(join(root, 'claude'));
  copyFileSync(join(npmDirOf(), '..', 'capabilities', 'claude', 'capability.json'), join(root, 'claude', 'capability.json'));
  mkdirSync(join(root, 'acme-fine'));
  writeFileSync(join(root, 'acme-fine', 'capability.json'), featureManifest('acme-fine', ['tdd']));
  // Two overlays requiring each other, and one requiring an overlay that was rejected.
  for (const [id, requires] of [['acme-ring-a', ['acme-ring-b']], ['acme-ring-b', ['acme-ring-a']], ['acme-on-needs', ['acme-needs']]]) {
    mkdirSync(join(root, id));
    writeFileSync(join(root, id, 'capability.json'), featureManifest(id, requires));
  }
  // Each manifest passes its own checks: only admission can refuse all but acme-fine.
  for (const id of ['acme-needs', 'claude', 'acme-fine', 'acme-ring-a', 'acme-on-needs']) {
    assert.deepStrictEqual(api.validateCapability(readFileSync(join(root, id, 'capability.json'), 'utf8'), id), [], id);
  }
  const run = cli(['validate', root, '--json']);
  assert.equal(run.status, 1, run.stderr);
  const byFolder = Object.fromEntries(JSON.parse(run.stdout).map((r) => [r.folder, r.diagnostics]));
  const fromApi = { 'acme-fine': [] };
  for (const d of api.loadOverlayDir(root).diagnostics) (fromApi[d.capabilityId] ??= []).push(d);
  assert.deepStrictEqual(byFolder, fromApi);
  assert.deepStrictEqual(byFolder['acme-needs'].map((d) => d.code), ['requires_unknown', 'overlay_rejected']);
  assert.deepStrictEqual(byFolder.claude.map((d) => d.code), ['overlay_id_conflict', 'overlay_rejected']);
  assert.deepStrictEqual(byFolder['acme-ring-a'].map((d) => [d.code, d.message]).slice(0, 1), [
    ['requires_cycle', 'requires cycle detected: acme-ring-a → acme-ring-b → acme-ring-a'],
  ]);
  assert.deepStrictEqual(byFolder['acme-ring-b'].map((d) => [d.code, d.message]).slice(0, 1), [
    ['requires_cycle', 'requires cycle detected: acme-ring-b → acme-ring-a → acme-ring-b'],
  ]);
  assert.deepStrictEqual(byFolder['acme-on-needs'].map((d) => [d.code, d.message]), [
    ['requires_not_loaded', 'capability "acme-on-needs" requires "acme-needs", an overlay that was not loaded'],
    ['overlay_rejected', 'overlay "acme-on-needs" was not loaded: capability "acme-on-needs" requires "acme-needs", an overlay that was not loaded'],
  ]);
  const text = cli(['validate', root]);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /^✗ acme-needs .*\n {4}error requires_unknown \[requires\]: capability "acme-needs" requires "acme-missing" which does not exist$/m);
  assert.match(text.stdout, /^✗ claude .*\n {4}error overlay_id_conflict \[id\]: /m);
  assert.match(text.stdout, /^✓ acme-fine /m);
  // A single manifest is checked on its own, as before: the copy of claude is a valid manifest.
  assert.equal(cli(['validate', join(root, 'claude')]).status, 0);
});

/**
 * Runs the CLI as uid 65534 when the tests run as root (mode bits do not stop root), else
 * as this user after checking that mode 000 does stop it: the unreadable case must really
 * be exercised, never skipped.
 */
function cliWithoutReadAccess(args, { home, locked }) {
  const asRoot = process.getuid() === 0;
  if (!asRoot) {
    assert.throws(() => accessSync(locked, fsConstants.R_OK), { code: 'EACCES' }, 'mode 000 does not stop this user: the case cannot be exercised');
  }
  const run = spawnSync(process.execPath, [join(npmDirOf(), 'bin', 'gsd-core.js'), ...args], {
    cwd: home,
    env: { PATH: process.env.PATH, NO_COLOR: '1', HOME: home },
    encoding: 'utf8',
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A small GSD package root: one command, one router, one workflow; readable by anyone. */
function sourceTree(t) {
  const source = tempDir(t);
  chmodSync(source, 0o755);
  mkdirSync(join(source, 'commands', 'gsd'), { recursive: true });
  mkdirSync(join(source, 'agents'));
  mkdirSync(join(source, 'gsd-core', 'workflows'), { recursive: true });
  writeFileSync(join(source, 'commands', 'gsd', 'help.md'), '# help\n');
  writeFileSync(join(source, 'commands', 'gsd', 'ns-x.md'), '---\nrequires: [help]\n---\n');
  writeFileSync(join(source, 'gsd-core', 'workflows', 'plan.md'), '# plan\n');
  return source;
}

test('plan --source: an unreadable file is one line naming it and the OS error, exit 1', (t) => {
  const home = tempDir(t);
  chmodSync(home, 0o755);
  const source = sourceTree(t);
  const router = join(source, 'commands', 'gsd', 'ns-x.md');
  chmodSync(router, 0o000);
  const run = cliWithoutReadAccess(['plan', '--claude', '--source', source], { home, locked: router });
  assert.equal(run.status, 1, run.stderr);
  assert.equal(run.stderr, `gsd-core: --source: cannot read ${router}: EACCES (os error 13)\n`);
  assert.equal(run.stdout, '');
  // Every file the plan would place is one the install must read: an agent too.
  chmodSync(router, 0o644);
  const agent = join(source, 'agents', 'gsd-x.md');
  writeFileSync(agent, '# x\n');
  chmodSync(agent, 0o000);
  const agentRun = cliWithoutReadAccess(['plan', '--claude', '--source', source], { home, locked: agent });
  assert.equal(agentRun.status, 1, agentRun.stderr);
  assert.equal(agentRun.stderr, `gsd-core: --source: cannot read ${agent}: EACCES (os error 13)\n`);
  chmodSync(agent, 0o644);
  // The standard profile reads every command and workflow: an unreadable workflow is reported the same way.
  const workflow = join(source, 'gsd-core', 'workflows', 'plan.md');
  chmodSync(workflow, 0o000);
  const profile = cliWithoutReadAccess(['plan', '--claude', '--profile=standard', '--source', source], { home, locked: workflow });
  assert.equal(profile.status, 1, profile.stderr);
  assert.equal(profile.stderr, `gsd-core: --source: cannot read ${workflow}: EACCES (os error 13)\n`);
  // A folder that is there but cannot be listed is a failure too, never skipped.
  chmodSync(workflow, 0o644);
  const workflows = join(source, 'gsd-core', 'workflows');
  chmodSync(workflows, 0o000);
  const folder = cliWithoutReadAccess(['plan', '--claude', '--profile=standard', '--source', source], { home, locked: workflows });
  assert.equal(folder.status, 1, folder.stderr);
  assert.equal(folder.stderr, `gsd-core: --source: cannot read ${workflows}: EACCES (os error 13)\n`);
  // Readable again, the same tree plans.
  chmodSync(workflows, 0o755);
  const readable = cli(['plan', '--claude', '--profile=standard', '--source', source], { home });
  assert.equal(readable.status, 0, readable.stderr);
});

/**
 * Runs the CLI with colour allowed (no NO_COLOR) and the named streams claiming to be a
 * terminal: a preloaded module sets `isTTY` before the CLI decides on colour.
 */
function cliOnTerminal(t, args, { ttys, env = {} }) {
  const dir = tempDir(t);
  const preload = join(dir, 'tty.cjs');
  writeFileSync(preload, ttys.map((name) => `Object.defineProperty(process.${name}, 'isTTY', { value: true });\n`).join(''));
  const run = spawnSync(process.execPath, ['--require', preload, join(npmDirOf(), 'bin', 'gsd-core.js'), ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, ...env },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('colour is decided per stream, and never with NO_COLOR', (t) => {
  const ESC = /\u001b\[/;
  // stdout a terminal, stderr a file: the error on stderr stays plain, the table on stdout is coloured.
  const toFile = cliOnTerminal(t, ['plan', '--vscode'], { ttys: ['stdout'] });
  assert.equal(toFile.status, 1);
  assert.match(toFile.stderr, /^gsd-core: vscode: NO_CONFIG_HOME: /);
  assert.doesNotMatch(toFile.stderr, ESC);
  assert.match(cliOnTerminal(t, ['runtimes'], { ttys: ['stdout'] }).stdout, /^\u001b\[1mRUNTIME/);
  // stderr a terminal, stdout a file: the error is red, stdout stays plain.
  const toTerminal = cliOnTerminal(t, ['plan', '--vscode'], { ttys: ['stderr'] });
  assert.match(toTerminal.stderr, /^gsd-core: vscode: \u001b\[31mNO_CONFIG_HOME: .*\u001b\[0m$/m);
  assert.doesNotMatch(cliOnTerminal(t, ['runtimes'], { ttys: ['stderr'] }).stdout, ESC);
  // Both terminals, NO_COLOR set: no colour anywhere.
  for (const args of [['plan', '--vscode'], ['runtimes']]) {
    const run = cliOnTerminal(t, args, { ttys: ['stdout', 'stderr'], env: { NO_COLOR: '1' } });
    assert.doesNotMatch(run.stdout + run.stderr, ESC, args.join(' '));
  }
});

test('doctor names the runtime, scope and file of a diagnostic from another runtime', (t) => {
  const home = tempDir(t);
  const project = join(home, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  writeFileSync(join(home, '.claude', 'gsd-file-manifest.json'), '{not json');
  const json = JSON.parse(cli(['doctor', '--codex', '--json'], { home, cwd: project }).stdout);
  const [corrupt] = json.diagnostics;
  assert.deepStrictEqual([corrupt.code, corrupt.field, corrupt.detail.configHome], ['install_manifest_corrupt', 'gsd-file-manifest.json', join(home, '.claude')]);
  const run = cli(['doctor', '--codex'], { home, cwd: project });
  assert.equal(run.status, 0, run.stderr);
  const file = join(home, '.claude', 'gsd-file-manifest.json');
  assert.ok(run.stdout.split('\n').includes(`warning install_manifest_corrupt (claude global: ${file}): ${corrupt.message}`), run.stdout);
});

test('doctor says an install manifest that is a directory or a FIFO was not read, and --strict fails on it', (t) => {
  const home = tempDir(t);
  const project = join(home, 'project');
  mkdirSync(join(home, '.claude'), { recursive: true });
  mkdirSync(project);
  const file = join(home, '.claude', 'gsd-file-manifest.json');
  for (const [make, kind] of [[() => mkdirSync(file), 'a directory'], [() => execFileSync('mkfifo', [file]), 'a FIFO']]) {
    rmSync(file, { recursive: true, force: true });
    make();
    // A FIFO is never opened: the call would block on it.
    const json = JSON.parse(cli(['doctor', '--claude', '--json'], { home, cwd: project }).stdout);
    assert.equal(json.runtimes[0].scopes[0].installed, false);
    const said = json.diagnostics.filter((d) => d.code === 'install_manifest_unreadable');
    assert.deepStrictEqual(said, [{
      code: 'install_manifest_unreadable',
      severity: 'warning',
      field: 'gsd-file-manifest.json',
      message: `the install manifest cannot be read (${kind}, not a regular file); read as not installed`,
      detail: { configHome: join(home, '.claude'), reason: `${kind}, not a regular file` },
    }]);
    const run = cli(['doctor', '--claude'], { home, cwd: project });
    assert.equal(run.status, 0, run.stderr);
    assert.ok(run.stdout.split('\n').includes(`warning install_manifest_unreadable (claude global: ${file}): ${said[0].message}`), run.stdout);
    assert.equal(cli(['doctor', '--claude', '--strict'], { home, cwd: project }).status, 1);
  }
});

test('plan --profile with a name the core does not know is a usage error listing the known ones', (t) => {
  const home = tempDir(t);
  const known = api.vocabulary.profileRank;
  assert.deepStrictEqual([...known], ['core', 'standard', 'full']);
  const cases = [
    ['bogus', "names an unknown profile 'bogus'"],
    ['core,bogus', "names an unknown profile 'bogus'"],
    ['core,', 'has an empty name in its list'],
  ];
  for (const [value, why] of cases) {
    // With or without --source: the name is checked before anything is read.
    for (const args of [['plan', '--claude', `--profile=${value}`, '--source', peerRoot], ['plan', '--claude', `--profile=${value}`]]) {
      const run = cli(args, { home });
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stdout, '');
      assert.equal(run.stderr.split('\n')[0], `gsd-core: --profile=${value} ${why}; known profiles: ${known.join(', ')}`);
    }
  }
  // Known names, alone or joined, still plan.
  for (const value of ['standard', 'core,standard', 'full']) {
    assert.equal(cli(['plan', '--claude', `--profile=${value}`, '--source', peerRoot, '--json'], { home }).status, 0, value);
  }
});

test('a reader that stops early ends the output quietly, with the status of the command', (t) => {
  const home = tempDir(t);
  const cliPath = join(npmDirOf(), 'bin', 'gsd-core.js');
  // `true` reads nothing, `head -c 1` one byte: both close the pipe long before the output ends.
  for (const reader of ['true', 'head -c 1 >/dev/null']) {
    for (const args of ['plan --all', 'runtimes --json', 'plan --nope']) {
      const run = spawnSync('bash', ['-c', `"${process.execPath}" "${cliPath}" ${args} | ${reader}; echo \${PIPESTATUS[0]}`], {
        env: { PATH: process.env.PATH, HOME: home, NO_COLOR: '1' },
        encoding: 'utf8',
      });
      const expected = args === 'plan --nope' ? '2' : '0';
      assert.equal(run.stdout.trim(), expected, `${args} | ${reader}: ${run.stderr}`);
      if (expected === '0') assert.equal(run.stderr, '', `${args} | ${reader}: no stack trace`);
    }
  }
});

test('text output shows machine and command-line text with its control characters escaped', (t) => {
  const home = tempDir(t);
  const run = cli(['plan', '--claude', '-c', '/a\u001b[31mX\nfake line'], { home });
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /\u001b/);
  assert.match(run.stdout, /config dir {4}\/a\\u\{1b\}\[31mX\\u\{a\}fake line {2}\(--config-dir \/a\\u\{1b\}\[31mX\\u\{a\}fake line\)/);
  const doctor = cli(['doctor', '--claude'], { home, env: { CLAUDE_CONFIG_DIR: '/x\u001b[2J' } });
  assert.equal(doctor.status, 0, doctor.stderr);
  assert.doesNotMatch(doctor.stdout, /\u001b/);
  assert.match(doctor.stdout, /^claude {2}\/x\\u\{1b\}\[2J {2}\(\$CLAUDE_CONFIG_DIR\)$/m);
  const unknown = cli(['fr\u001b[2Job'], { home });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command 'fr\\u\{1b\}\[2Job'/);
  // A folder the overlay loader refuses is named escaped once, in its header line too.
  const root = tempDir(t);
  mkdirSync(join(root, 'un\u001bsafe'));
  const validate = cli(['validate', root], { home });
  assert.equal(validate.status, 1);
  assert.doesNotMatch(validate.stdout, /\u001b|\\\\u/);
  assert.ok(validate.stdout.startsWith(`✗ un\\u{1b}safe  ${root}/un\\u{1b}safe\n`), validate.stdout);
});

test('no command prints the help on stderr and exits 2; --help prints it on stdout', (t) => {
  const run = cli([], { home: tempDir(t) });
  assert.equal(run.status, 2);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^gsd-core <command> \[options\]/);
});

test('--source: a linked command or agent is not planned, as the installer stages regular files only, and is said', (t) => {
  const home = tempDir(t);
  const src = tempDir(t);
  const commands = join(src, 'commands', 'gsd');
  mkdirSync(commands, { recursive: true });
  mkdirSync(join(src, 'agents'));
  writeFileSync(join(commands, 'help.md'), '# help\n');
  writeFileSync(join(src, 'elsewhere.md'), '# linked\n');
  symlinkSync(join(src, 'elsewhere.md'), join(commands, 'linked.md'));
  symlinkSync(join(src, 'gone.md'), join(commands, 'dangling.md'));
  symlinkSync(join(src, 'elsewhere.md'), join(src, 'agents', 'gsd-linked.md'));
  const run = cli(['plan', '--claude', '--json', '--source', src], { home });
  assert.equal(run.status, 0, run.stderr);
  assert.deepStrictEqual(JSON.parse(run.stdout).placements.map((p) => p.stem), ['help']);
  // The peer's stagers, over the same tree, stage the regular file only.
  const profiles = peer('install-profiles');
  const staged = profiles.stageCommandsForRuntimeFlat(commands, { skills: '*' }, (text) => text, 'gsd-');
  assert.deepStrictEqual(readdirSync(staged).sort(), ['help.md']);
  const said = (file) => `gsd-core: note: --source: ${file} is a symbolic link; the installer stages regular files only, so no plan places it\n`;
  // In listing order: the commands, then the agents.
  assert.equal(run.stderr, [join(commands, 'dangling.md'), join(commands, 'linked.md'), join(src, 'agents', 'gsd-linked.md')].map(said).join(''));
});

test('--source: an empty path is a usage error; a file that cannot be a stem is named', (t) => {
  const home = tempDir(t);
  const empty = cli(['plan', '--claude', '--source', ''], { home });
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /--source requires a non-empty path/);
  const src = tempDir(t);
  mkdirSync(join(src, 'commands', 'gsd'), { recursive: true });
  writeFileSync(join(src, 'commands', 'gsd', 'help.md'), '# help\n');
  // A tree without agents/ plans its commands.
  const noAgents = cli(['plan', '--claude', '--json', '--source', src], { home });
  assert.equal(noAgents.status, 0, noAgents.stderr);
  assert.deepStrictEqual(JSON.parse(noAgents.stdout).placements.map((p) => [p.kind, p.stem]), [['skills', 'help']]);
  writeFileSync(join(src, 'commands', 'gsd', '.md'), '');
  const dotMd = cli(['plan', '--claude', '--source', src], { home });
  assert.equal(dotMd.status, 1);
  assert.equal(dotMd.stderr, `gsd-core: --source: ${join(src, 'commands', 'gsd', '.md')} has an empty stem\n`);
  rmSync(join(src, 'commands', 'gsd', '.md'));
  writeFileSync(Buffer.concat([Buffer.from(join(src, 'commands', 'gsd', 'x')), Buffer.from([0xff]), Buffer.from('.md')]), '');
  const notUtf8 = cli(['plan', '--claude', '--source', src], { home });
  assert.equal(notUtf8.status, 1);
  assert.equal(notUtf8.stderr, `gsd-core: --source: ${join(src, 'commands', 'gsd', 'x')}\\xff.md has a name that is not UTF-8; it cannot be a stem\n`);
});

test('the runtimes table names a nested config home with its parent', (t) => {
  const run = cli(['runtimes'], { home: tempDir(t) });
  const row = (id) => run.stdout.split('\n').find((line) => line.startsWith(`${id} `)).split(/\s+/)[2];
  assert.equal(row('antigravity'), 'dot-home-nested:.gemini/antigravity');
  assert.equal(row('windsurf'), 'dot-home-nested:.codeium/windsurf');
  assert.equal(row('claude'), 'dot-home:.claude');
});

test('the home directory: as os.homedir() finds it; a relative one is refused by every command', (t) => {
  // With HOME unset, os.homedir() (the peer's home) reads the password database; so do we.
  const expected = spawnSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").homedir())'], { env: { PATH: process.env.PATH }, encoding: 'utf8' }).stdout;
  const unset = cli(['plan', '--claude', '--json'], {});
  assert.equal(unset.status, 0, unset.stderr);
  assert.equal(JSON.parse(unset.stdout).scope.configHome, join(expected, '.claude'));
  for (const args of [['plan', '--claude'], ['doctor', '--claude']]) {
    const run = cli(args, { home: 'rel' });
    assert.equal(run.status, 1, `${args.join(' ')}: ${run.stdout}`);
    assert.equal(run.stderr.replace(/^gsd-core: (claude: )?/, ''), 'INVALID_HOST: HOME must be an absolute path, got "rel" (field: host.home)\n');
  }
  // The home is quoted as the core quotes a path: an escape sequence is one U+FFFD.
  const escaped = cli(['plan', '--claude'], { home: 'rel\u001b[2Jx' });
  assert.equal(escaped.stderr, 'gsd-core: claude: INVALID_HOST: HOME must be an absolute path, got "rel\ufffdx" (field: host.home)\n');
});

test('validate: a capability folder that cannot be searched is reported as unreadable', { skip: process.getuid?.() !== 0 && 'needs root to run as another user' }, (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'ov', 'a'), { recursive: true });
  writeFileSync(join(dir, 'ov', 'a', 'capability.json'), '{}');
  chmodSync(join(dir, 'ov', 'a'), 0o000);
  chmodSync(dir, 0o755);
  chmodSync(join(dir, 'ov'), 0o755);
  const run = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, join(npmDirOf(), 'bin', 'gsd-core.js'), 'validate', join(dir, 'ov', 'a'), '--json'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/' } });
  if (run.error) return t.skip(`runuser: ${run.error.message}`);
  assert.equal(run.status, 1, run.stderr);
  const [result] = JSON.parse(run.stdout);
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.code, d.message]), [['overlay_unreadable', "'a' cannot be read: EACCES (os error 13)"]]);
  // The manifest itself, behind that folder: there, but not readable; a failure (exit 1),
  // not a usage error.
  const file = join(dir, 'ov', 'a', 'capability.json');
  const direct = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, join(npmDirOf(), 'bin', 'gsd-core.js'), 'validate', file, '--json'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: '/' } });
  assert.equal(direct.status, 1, direct.stderr);
  assert.deepStrictEqual(JSON.parse(direct.stdout)[0].diagnostics.map((d) => [d.code, d.message]), [['overlay_unreadable', `'${file}' cannot be read: EACCES (os error 13)`]]);
});

test('validate: an empty path, no path or two are usage errors that say what was given', (t) => {
  const home = tempDir(t);
  for (const [args, message] of [
    [[''], 'validate requires a non-empty path'],
    [[], 'validate takes exactly one folder or capability.json, got none'],
    [['a', 'b'], "validate takes exactly one folder or capability.json, got 2: 'a' 'b'"],
  ]) {
    const run = cli(['validate', ...args], { home });
    assert.equal(run.status, 2);
    assert.equal(run.stderr, `gsd-core: ${message}\nRun 'gsd-core --help' for usage.\n`);
  }
});

test('help takes a command name or nothing; a runtime with no layout says nothing is placed', (t) => {
  const home = tempDir(t);
  assert.equal(cli(['help'], { home }).status, 0);
  assert.equal(cli(['help', 'plan'], { home }).status, 0);
  for (const args of [['help', 'nope'], ['help', 'constructor'], ['help', 'plan', 'doctor']]) {
    const run = cli(args, { home });
    assert.equal(run.status, 2, args.join(' '));
    assert.match(run.stderr, /^gsd-core: help takes one command name \(doctor, plan, runtimes, validate\)/);
  }
  const pi = cli(['plan', '--pi'], { home });
  assert.equal(pi.status, 0, pi.stderr);
  assert.match(pi.stdout, /^ {2}layout {8}nothing is placed at this scope$/m);
  assert.doesNotMatch(pi.stdout, /^ {2}commands /m, 'no trigger style where nothing is placed');
  assert.match(cli(['plan', '--claude'], { home }).stdout, /^ {2}commands {6}\/gsd-<name>$/m);
});

test("the peer installer's --both, --minimal and --core-only spellings", (t) => {
  const home = tempDir(t);
  const both = cli(['plan', '--both', '--json'], { home });
  assert.equal(both.status, 0, both.stderr);
  assert.deepStrictEqual(JSON.parse(both.stdout).map((p) => p.runtime), ['claude', 'opencode']);
  // As in the peer installer, --both selects those two whatever else is named.
  const bothAndCodex = cli(['plan', '--both', '--codex', '--json'], { home });
  assert.deepStrictEqual(JSON.parse(bothAndCodex.stdout).map((p) => p.runtime), ['claude', 'opencode']);
  const source = peerRoot;
  const core = cli(['plan', '--claude', '--profile=core', '--source', source, '--json'], { home });
  assert.equal(core.status, 0, core.stderr);
  for (const flag of ['--minimal', '--core-only']) {
    const run = cli(['plan', '--claude', flag, '--source', source, '--json'], { home });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, core.stdout, `${flag} is --profile=core`);
    const clash = cli(['plan', '--claude', flag, '--profile=full'], { home });
    assert.equal(clash.status, 2);
    assert.match(clash.stderr, /--minimal\/--core-only and --profile contradict each other/);
  }
  assert.ok(JSON.parse(core.stdout).placements.length < 136, 'core installs fewer than full');
});

test("options as the peer installer spells them: -c=<path>; a value option given twice is refused", (t) => {
  const home = tempDir(t);
  const joined = cli(['plan', '--claude', '-c=/x', '--json'], { home });
  assert.equal(joined.status, 0, joined.stderr);
  assert.equal(JSON.parse(joined.stdout).scope.configHome, '/x');
  for (const [args, name, values] of [
    [['plan', '--claude', '-c', '/a', '-c', '/b'], 'config-dir', "'/a', '/b'"],
    [['plan', '--claude', '--config-dir=/a', '-c=/b'], 'config-dir', "'/a', '/b'"],
    [['plan', '--claude', '--profile=core', '--profile=full'], 'profile', "'core', 'full'"],
  ]) {
    const run = cli(args, { home });
    assert.equal(run.status, 2, args.join(' '));
    assert.equal(run.stderr, `gsd-core: --${name} is given 2 times (${values}); give it once\nRun 'gsd-core --help' for usage.\n`);
  }
  // Node's own multi-line reason keeps its line breaks.
  const ambiguous = cli(['plan', '--claude', '-c', '--json'], { home });
  assert.equal(ambiguous.status, 2);
  assert.match(ambiguous.stderr, /^gsd-core: option '-c' argument is ambiguous\.\nDid you forget/);
  assert.doesNotMatch(ambiguous.stderr, /\\u\{a\}/);
});

test('a failed write is one line on stderr and status 1', { skip: !existsSync('/dev/full') && 'no /dev/full' }, () => {
  const run = spawnSync('sh', ['-c', `"${process.execPath}" "${join(npmDirOf(), 'bin', 'gsd-core.js')}" runtimes > /dev/full`], { encoding: 'utf8', env: { PATH: process.env.PATH, NO_COLOR: '1' } });
  assert.equal(run.status, 1);
  assert.equal(run.stderr, 'gsd-core: cannot write to stdout: ENOSPC (os error 28)\n');
});

test('validate <overlay root> lists a manifest fault admission repeats once', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-broken'));
  writeFileSync(join(root, 'acme-broken', 'capability.json'), '{');
  mkdirSync(join(root, 'acme-deep'));
  writeFileSync(join(root, 'acme-deep', 'capability.json'), `${'['.repeat(100)}${']'.repeat(100)}`);
  const run = cli(['validate', root, '--json']);
  assert.equal(run.status, 1);
  const listed = Object.fromEntries(JSON.parse(run.stdout).map((r) => [r.folder, r.diagnostics]));
  assert.deepStrictEqual(Object.fromEntries(Object.entries(listed).map(([folder, ds]) => [folder, ds.map((d) => [d.code, d.field, d.detail?.code])])), {
    'acme-broken': [['overlay_manifest_invalid', 'manifest', 'MANIFEST_INVALID_JSON'], ['overlay_rejected', undefined, undefined]],
    'acme-deep': [['overlay_manifest_invalid', 'manifest', 'MANIFEST_TOO_DEEP'], ['overlay_rejected', undefined, undefined]],
  });
  // The records loading the root gives, exactly: the CLI reports what loading would.
  const loaded = require('../index.js').loadOverlayDir(root).diagnostics;
  for (const [folder, diagnostics] of Object.entries(listed)) {
    assert.deepStrictEqual(diagnostics, loaded.filter((d) => d.capabilityId === folder).map((d) => ({ ...d })), folder);
  }
  // A single capability.json is refused with the same record.
  const single = cli(['validate', join(root, 'acme-deep', 'capability.json'), '--json']);
  assert.equal(single.status, 1);
  assert.deepStrictEqual(JSON.parse(single.stdout)[0].diagnostics, [loaded.find((d) => d.capabilityId === 'acme-deep')].map((d) => ({ ...d })));
});

test('a recorded profile naming no known profile selects nothing, and says so; -c= after -- stays positional', (t) => {
  const home = tempDir(t);
  mkdirSync(join(home, '.claude'));
  const marker = join(home, '.claude', '.gsd-profile');
  writeFileSync(marker, 'bogus\n');
  // As the installer: resolveProfile drops the unknown name, so the install is full.
  const json = cli(['plan', '--claude', '--source', peerRoot, '--json'], { home });
  assert.equal(json.status, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).placements.length, 136);
  assert.equal(json.stderr, `gsd-core: claude: profile full (${marker} names 'bogus', which selects everything)\n`);
  // No --source is needed to plan that: nothing is selected.
  const text = cli(['plan', '--claude'], { home });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^ {2}profile {7}full \(.* names 'bogus', which selects everything\)$/m);
  const after = cli(['plan', '--claude', '--', '-c=/x'], { home });
  assert.equal(after.status, 2);
  assert.match(after.stderr, /^gsd-core: plan takes no positional arguments, got '-c=\/x'/);
});

test('a profile marker that is a FIFO is passed over and named, never waited for; a recorded profile needing --source fails its runtime only', { skip: process.platform === 'win32' && 'FIFOs are POSIX' }, (t) => {
  const home = tempDir(t);
  mkdirSync(join(home, '.claude'));
  const marker = join(home, '.claude', '.gsd-profile');
  execFileSync('mkfifo', [marker]);
  const text = cli(['plan', '--claude', '--source', peerRoot], { home });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^ {2}profile {7}full \\(${marker.replace(/[.]/g, '\\.')} is not a regular file: not read as a profile marker\\)$`, 'm'));
  const json = cli(['plan', '--claude', '--source', peerRoot, '--json'], { home });
  assert.equal(json.status, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).placements.length, 136);
  assert.equal(json.stderr, `gsd-core: claude: profile full (${marker} is not a regular file: not read as a profile marker)\n`);
  // A marker recording `standard`, planned without --source: that runtime fails (exit 1),
  // every other runtime is still planned.
  rmSync(marker);
  writeFileSync(marker, 'standard\n');
  const all = cli(['plan', '--all', '--json'], { home });
  assert.equal(all.status, 1);
  const planned = JSON.parse(all.stdout).map((p) => p.runtime);
  assert.deepStrictEqual(planned, peerRuntimes.filter((r) => r !== 'claude' && r !== 'vscode'));
  assert.match(all.stderr, new RegExp(`^gsd-core: claude: the profile 'standard' recorded in ${marker.replace(/[.]/g, '\\.')} needs --source <dir> \\(the commands and workflows it selects from\\), or name one with --profile$`, 'm'));
  // Without --source a plan lists no file, and says why.
  const bare = cli(['plan', '--codex'], { home });
  assert.equal(bare.status, 0, bare.stderr);
  assert.match(bare.stdout, /^ {2}placements {4}none listed: --source <dir> \(the GSD package\) gives the commands and agents to place$/m);
});

test('text from the command line is clipped in a message, with its length said', (t) => {
  const name = 'x'.repeat(100_000);
  const run = cli(['plan', `--${name}`], { home: tempDir(t) });
  assert.equal(run.status, 2);
  const [first] = run.stderr.split('\n');
  assert.equal(first, `gsd-core: unknown option '--${'x'.repeat(4094)}… (100002 characters)' (\`gsd-core runtimes\` lists the runtimes a --<runtime> flag selects)`);
  assert.ok(run.stderr.length < 5000, `${run.stderr.length} characters`);
});

test('--version prints the package version; the help lists runtimes --json', (t) => {
  const home = tempDir(t);
  const { version } = JSON.parse(readFileSync(join(npmDirOf(), 'package.json'), 'utf8'));
  for (const flag of ['--version', '-V']) {
    const run = cli([flag], { home });
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `${version}\n`);
    // Alone: anything after it is a usage error, never ignored.
    const extra = cli([flag, '--json'], { home });
    assert.equal(extra.status, 2);
    assert.equal(extra.stdout, '');
    assert.match(extra.stderr, new RegExp(`^gsd-core: ${flag} takes no arguments, got '--json'\n`));
  }
  assert.match(cli(['--help'], { home }).stdout, /^runtimes options:\n {2}--json {19}Print each runtime's descriptor as JSON$/m);
});

test('validate on a folder holding no capability.json and no capability folder fails, saying nothing was validated', (t) => {
  const home = tempDir(t);
  const dir = join(home, 'misnamed');
  mkdirSync(dir);
  writeFileSync(join(dir, 'manifest.json'), '{}');
  for (const json of [[], ['--json']]) {
    const run = cli(['validate', ...json, dir], { home });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, `gsd-core: ${dir} holds no capability.json and no capability folder: nothing was validated\n`);
    assert.equal(run.stdout, json.length ? '[]\n' : '');
  }
});

test('--source: a stem the core refuses is named by its file, once for every runtime', (t) => {
  const home = tempDir(t);
  const src = tempDir(t);
  const commands = join(src, 'commands', 'gsd');
  mkdirSync(commands, { recursive: true });
  writeFileSync(join(commands, 'help.md'), '# help\n');
  const long = 'a'.repeat(201);
  writeFileSync(join(commands, `${long}.md`), '');
  const tooLong = cli(['plan', '--all', '--source', src], { home });
  assert.equal(tooLong.status, 1);
  assert.equal(tooLong.stdout, '');
  const lines = tooLong.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, tooLong.stderr);
  assert.ok(lines[0].startsWith(`gsd-core: --source: ${join(commands, `${long}.md`)}: its stem is 201 bytes long, more than 200: `), lines[0]);
  rmSync(join(commands, `${long}.md`));
  // A router whose requires: lists what cannot be a stem names the router's file.
  writeFileSync(join(commands, 'ns-x.md'), '---\nrequires: [help, a/b]\n---\n');
  const child = cli(['plan', '--claude', '--source', src], { home });
  assert.equal(child.status, 1);
  assert.equal(child.stderr, `gsd-core: --source: ${join(commands, 'ns-x.md')}: its requires: lists 'a/b', which must be a plain file stem (non-empty, not '.' or '..', no '/', '\\', control, bidi or invisible characters)\n`);
  // A child too long to be a stem: the reason is that child's own.
  writeFileSync(join(commands, 'ns-x.md'), `---\nrequires: [help, ${long}]\n---\n`);
  const longChild = cli(['plan', '--claude', '--source', src], { home });
  assert.equal(longChild.status, 1);
  assert.equal(longChild.stderr, `gsd-core: --source: ${join(commands, 'ns-x.md')}: its requires: lists '${long}', which is 201 bytes long, more than 200: a stem becomes a file or folder name (at most 255 bytes), with room left for the runtime's prefix and extension\n`);
  // A child named like an Object.prototype member is a stem like any other.
  writeFileSync(join(commands, 'ns-x.md'), '---\nrequires: [help, constructor, __proto__]\n---\n');
  const named = cli(['plan', '--claude', '--json', '--source', src], { home });
  assert.equal(named.status, 0, named.stderr);
});

test('doctor --strict exits 1 on a shadowed trigger or a corrupt install manifest; without it, 0', (t) => {
  const { home, project } = installClaudeBothScopes(t);
  assert.equal(cli(['doctor', '--claude'], { home, cwd: project }).status, 0);
  const shadowed = cli(['doctor', '--claude', '--strict'], { home, cwd: project });
  assert.equal(shadowed.status, 1, shadowed.stdout);
  // Only the runtimes selected count for shadowing: codex shadows nothing here.
  assert.equal(cli(['doctor', '--codex', '--strict', '--json'], { home, cwd: project }).status, 0);
  // A corrupt manifest is a warning, whatever runtime is selected.
  writeFileSync(join(project, '.claude', 'gsd-file-manifest.json'), '{ not json');
  const corrupt = cli(['doctor', '--codex', '--strict', '--json'], { home, cwd: project });
  assert.equal(corrupt.status, 1);
  assert.ok(JSON.parse(corrupt.stdout).diagnostics.some((d) => d.code === 'install_manifest_corrupt' && d.severity === 'warning'));
  assert.equal(cli(['doctor', '--codex', '--json'], { home, cwd: project }).status, 0);
});

test('plan text notes an install at the other scope, whose shadowing doctor reports', (t) => {
  const { home, project } = installClaudeBothScopes(t);
  const local = cli(['plan', '--claude', '-l'], { home, cwd: project });
  assert.equal(local.status, 0, local.stderr);
  assert.match(local.stdout, new RegExp(`^ {2}note {10}installed at global scope too \\(${join(home, '.claude').replace(/[.]/g, '\\.')}\\): \`gsd-core doctor --claude\` shows which triggers one scope shadows$`, 'm'));
  // Nothing installed at the other scope: no note.
  assert.doesNotMatch(cli(['plan', '--claude', '-l'], { home: tempDir(t), cwd: tempDir(t) }).stdout, /note {10}/);
  assert.doesNotMatch(cli(['plan', '--codex'], { home, cwd: tempDir(t) }).stdout, /note {10}/);
});

test('plan --source: an agents file fails (exit 1); folders, FIFOs and links named *.md are each said; an empty source plans 0 files', (t) => {
  const home = tempDir(t);
  const source = sourceTree(t);
  const commands = join(source, 'commands', 'gsd');
  mkdirSync(join(commands, 'dir.md'));
  execFileSync('mkfifo', [join(commands, 'fifo.md')]);
  symlinkSync(join(commands, 'help.md'), join(commands, 'link.md'));
  const run = cli(['plan', '--claude', '--source', source], { home });
  assert.equal(run.status, 0, run.stderr);
  const said = (file, what) => `gsd-core: note: --source: ${join(commands, file)} is ${what}; the installer stages regular files only, so no plan places it`;
  assert.deepStrictEqual(run.stderr.trimEnd().split('\n'), [said('dir.md', 'a directory'), said('fifo.md', 'a FIFO'), said('link.md', 'a symbolic link')]);
  assert.match(run.stdout, /^ {2}placements {4}2 files \(skills 2\)$/m);
  // `agents` is optional, but one that is there and is not a folder cannot be read.
  rmSync(join(source, 'agents'), { recursive: true });
  writeFileSync(join(source, 'agents'), 'x');
  const agents = cli(['plan', '--claude', '--source', source], { home });
  assert.equal(agents.status, 1, agents.stderr);
  assert.equal(agents.stderr.split('\n').at(-2), `gsd-core: --source: cannot read ${join(source, 'agents')}: ENOTDIR (os error 20)`);
  // Nothing to place: the plan says 0 files and 0 triggers, as its JSON does.
  const empty = tempDir(t);
  mkdirSync(join(empty, 'commands', 'gsd'), { recursive: true });
  const none = cli(['plan', '--claude', '--source', empty], { home });
  assert.equal(none.status, 0, none.stderr);
  assert.match(none.stdout, /^ {2}placements {4}0 files$/m);
  assert.match(none.stdout, /^ {2}triggers {6}0 \(0 shadowed\)$/m);
  // One of each is singular.
  const one = tempDir(t);
  mkdirSync(join(one, 'commands', 'gsd'), { recursive: true });
  writeFileSync(join(one, 'commands', 'gsd', 'help.md'), '# help\n');
  assert.match(cli(['plan', '--claude', '--source', one], { home }).stdout, /^ {2}placements {4}1 file \(skills 1\)$/m);
});

test('plan: a stem the core refuses is shown once, escaped as its path is', (t) => {
  const home = tempDir(t);
  const source = sourceTree(t);
  writeFileSync(join(source, 'commands', 'gsd', 'e\u001b]0;x\u0007.md'), '# odd\n');
  const run = cli(['plan', '--claude', '--source', source], { home });
  assert.equal(run.status, 1, run.stderr);
  const file = join(source, 'commands', 'gsd', 'e\\u{1b}]0;x\\u{7}.md');
  assert.equal(run.stderr, `gsd-core: --source: ${file}: its stem must be a plain file stem (non-empty, not '.' or '..', no '/', '\\', control, bidi or invisible characters)\n`);
});

test('plan: a marker naming no profile is said; --json says an install at the other scope; --both says what it overrides', (t) => {
  const { home, project } = installClaudeBothScopes(t);
  const marker = join(home, '.claude', '.gsd-profile');
  writeFileSync(marker, 'core\nstandard\n');
  const text = cli(['plan', '--claude'], { home, cwd: project });
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, new RegExp(`^ {2}profile {7}full \\(${marker.replace(/[.]/g, '\\.')} names no profile, which selects everything\\)$`, 'm'));
  rmSync(marker);
  const json = cli(['plan', '--claude', '-l', '--json'], { home, cwd: project });
  assert.equal(json.status, 0, json.stderr);
  assert.equal(json.stderr, `gsd-core: claude: note: installed at global scope too (${join(home, '.claude')}): \`gsd-core doctor --claude\` shows which triggers one scope shadows\n`);
  const both = cli(['plan', '--both', '--codex', '--json'], { home, cwd: project });
  assert.equal(both.status, 0, both.stderr);
  assert.deepStrictEqual(JSON.parse(both.stdout).map((p) => p.runtime), ['claude', 'opencode']);
  assert.match(both.stderr, /^gsd-core: note: --both selects claude and opencode and overrides --codex, which is not planned$/m);
});

test('an option of another command names that command', () => {
  for (const [args, said] of [
    [['doctor', '--global'], "unknown option '--global': it is an option of `gsd-core plan`, not of doctor"],
    [['validate', '--strict', 'x'], "unknown option '--strict': it is an option of `gsd-core doctor`, not of validate"],
    [['runtimes', '--source=x'], "unknown option '--source': it is an option of `gsd-core plan`, not of runtimes"],
  ]) {
    const run = cli(args);
    assert.equal(run.status, 2);
    assert.equal(run.stderr.split('\n')[0], `gsd-core: ${said}`);
  }
});

test('validate: a link is refused however its path ends; a manifest given by another name is named; a folder is the one that holds the manifest', (t) => {
  const root = tempDir(t);
  const folder = join(root, 'acme');
  mkdirSync(folder);
  writeFileSync(join(folder, 'capability.json'), '{');
  symlinkSync(folder, join(root, 'lnk'));
  for (const spelled of ['lnk', 'lnk/', 'lnk/.']) {
    const run = cli(['validate', join(root, spelled), '--json']);
    assert.equal(run.status, 1);
    assert.deepStrictEqual(JSON.parse(run.stdout)[0].diagnostics.map((d) => d.code), ['overlay_symlink_refused'], spelled);
  }
  const linked = join(root, 'c1');
  mkdirSync(linked);
  symlinkSync(join(folder, 'capability.json'), join(linked, 'capability.json'));
  assert.equal(JSON.parse(cli(['validate', join(linked, 'capability.json'), '--json']).stdout)[0].folder, 'c1');
  writeFileSync(join(folder, 'notes.txt'), 'not json');
  const named = JSON.parse(cli(['validate', join(folder, 'notes.txt'), '--json']).stdout)[0];
  assert.equal(named.folder, 'acme');
  assert.match(named.diagnostics[0].message, /^notes\.txt: manifest is not valid JSON/);
});
