// The drop-in test: the peer's own installer, run into a temporary HOME twice — once as
// shipped, once with its axis modules swapped for our compat modules — writes the same tree
// byte for byte (timestamps and the temporary paths aside).
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, lstatSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { peerRoot, tempDir, npmDir } from './helpers.mjs';

const AXES = [
  'install-scope',
  'runtime-homes',
  'runtime-config-adapter-registry',
  'runtime-slash',
  'install-shadow-report',
  'installed-surface-resolver',
  'capability-validator',
];

/** Every entry under `dir`: relative path → file text, link target or `<dir>`. */
function tree(dir, root = dir, out = {}) {
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    const rel = full.slice(root.length + 1);
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) out[rel] = `<link ${readlinkSync(full)}>`;
    else if (stat.isDirectory()) {
      out[rel] = '<dir>';
      tree(full, root, out);
    } else out[rel] = readFileSync(full, 'utf8');
  }
  return out;
}

/** Replaces the run's own paths and clock readings so two runs can be compared. */
function normalize(files, base) {
  const out = {};
  const stamp = /"(timestamp|installedAt|generatedAt)": *"[^"]*"/g;
  const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
  for (const [rel, text] of Object.entries(files)) {
    out[rel] = text.split(base).join('<BASE>').replace(stamp, '"$1": "<T>"').replace(iso, '<ISO>');
  }
  return out;
}

/** Runs the installer into `<base>/run` (the same path for both runs, so embedded paths and hashes match). */
function install(base, args, axes) {
  rmSync(join(base, 'run'), { recursive: true, force: true });
  const root = join(base, 'run');
  mkdirSync(root);
  return installInto(root, args, axes);
}

function installInto(base, args, axes) {
  const home = join(base, 'home');
  const project = join(base, 'project');
  mkdirSync(home);
  mkdirSync(project);
  const trace = join(base, 'trace.json');
  const env = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', GSD_COMPAT_AXES: axes.join(','), GSD_COMPAT_TRACE: trace };
  const run = spawnSync(process.execPath, ['-r', join(npmDir, 'test', 'fixtures', 'swap-axes.cjs'), join(peerRoot, 'bin', 'install.js'), ...args], {
    cwd: project,
    env,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
  const calls = axes.length > 0 ? JSON.parse(readFileSync(trace, 'utf8')) : {};
  return { files: normalize(tree(base).valueOf(), base), stdout: run.stdout.split(base).join('<BASE>'), calls };
}

for (const args of [['--claude', '--global'], ['--codex', '--local'], ['--opencode', '--global']]) {
  test(`drop-in: peer installer ${args.join(' ')} writes the same tree with our axes swapped in`, (t) => {
    const base = tempDir(t, 'gsd-core-dropin-');
    const shipped = install(base, args, []);
    const swapped = install(base, args, AXES);
    const paths = Object.keys(shipped.files).filter((p) => p !== 'trace.json');
    assert.ok(paths.length > 100, `the install writes a real tree (${paths.length} entries)`);
    assert.deepStrictEqual(Object.keys(swapped.files).filter((p) => p !== 'trace.json'), paths);
    for (const p of paths) assert.equal(swapped.files[p], shipped.files[p], p);
    assert.equal(swapped.stdout, shipped.stdout);
    assert.ok(Object.keys(swapped.calls).length > 0, 'the installer called our compat exports');
    assert.ok(swapped.calls['install-scope.resolveScope'] > 0 || swapped.calls['runtime-homes.resolveConfigHomeFromDescriptor'] > 0, JSON.stringify(swapped.calls));
  });
}
