// The drop-in harness: runs the peer's own installer (`bin/install.js`) into a temporary HOME
// and project, as shipped and with axis modules swapped for our compat modules (through the
// `fixtures/swap-axes.cjs` preload), and reads back the tree it wrote. Installs run as child
// processes, several at a time; the runs of one job share one base path so the paths and
// hashes the installer embeds are equal between them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerRoot, npmDir } from './helpers.mjs';

/** Every axis we provide a compat module for, in the order of the report. */
export const AXES = [
  'install-scope',
  'runtime-homes',
  'runtime-slash',
  'runtime-artifact-layout',
  'runtime-config-adapter-registry',
  'runtime-artifact-install-plan',
  'installed-surface-resolver',
  'install-shadow-report',
  'capability-validator',
  'capability-registry',
  'install-profiles',
];

/** The runtimes the peer installer can install (its `--all` list; vscode has no install surface). */
export const INSTALLABLE = [
  'claude', 'kimi', 'kimi-code', 'kilo', 'opencode', 'pi', 'codex', 'copilot', 'antigravity',
  'cursor', 'windsurf', 'augment', 'trae', 'qwen', 'hermes', 'codebuddy', 'cline', 'zcode',
];

/** A scratch root on a memory file system when there is one (installs write ~1000 files). */
export function scratchRoot() {
  const shm = '/dev/shm';
  return mkdtempSync(join(existsSync(shm) ? shm : tmpdir(), 'gsd-core-dropin-'));
}

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
    } else out[rel] = `${(stat.mode & 0o777).toString(8)} ${readFileSync(full, 'utf8')}`;
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

/**
 * One install into `<base>/run` (emptied first): `{ status, stderr, stdout, files, trace }`;
 * `extra` adds installer flags (`--minimal`).
 */
function install(base, runtime, scope, axes, extra = [], seed = undefined) {
  const root = join(base, 'run');
  rmSync(root, { recursive: true, force: true });
  for (const dir of ['home', 'project', 'tmp']) mkdirSync(join(root, dir), { recursive: true });
  seed?.({ home: join(root, 'home'), project: join(root, 'project') });
  const traceFile = join(base, 'trace.json');
  rmSync(traceFile, { force: true });
  const env = {
    PATH: process.env.PATH,
    HOME: join(root, 'home'),
    TMPDIR: join(root, 'tmp'),
    NO_COLOR: '1',
    GSD_COMPAT_AXES: axes.join(','),
    GSD_COMPAT_TRACE: traceFile,
  };
  const args = ['-r', join(npmDir, 'test', 'fixtures', 'swap-axes.cjs'), join(peerRoot, 'bin', 'install.js'), `--${runtime}`, `--${scope}`, ...extra];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: join(root, 'project'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => {
      rmSync(join(root, 'tmp'), { recursive: true, force: true });
      const files = normalize(tree(root), base);
      const trace = existsSync(traceFile) ? JSON.parse(readFileSync(traceFile, 'utf8')) : {};
      resolve({ status, stderr, stdout: stdout.split(base).join('<BASE>'), files, trace });
    });
  });
}

/** Paths whose entries differ between two trees (`[]`: byte-identical). */
function diffPaths(a, b) {
  const paths = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...paths].filter((p) => a[p] !== b[p]).sort();
}

/**
 * A run compared with the shipped run, kept small: status, output equality, the differing
 * paths (with the first difference's text from both sides) and the swap trace.
 */
function compared(shipped, run) {
  const diff = diffPaths(shipped.files, run.files);
  const first = diff[0];
  return {
    status: run.status,
    stderr: run.stderr.slice(0, 4000),
    sameStdout: run.stdout === shipped.stdout,
    diff,
    first: first === undefined ? null : { path: first, shipped: String(shipped.files[first]).slice(0, 600), swapped: String(run.files[first]).slice(0, 600) },
    trace: run.trace,
  };
}

/**
 * One job: runtime × scope installed as shipped, with every axis swapped, and with each
 * axis of `solo` swapped alone — one after the other under the same base path.
 */
async function job(root, runtime, scope, solo, extra, seed) {
  const base = join(root, `${runtime}-${scope}`);
  mkdirSync(base);
  const shippedRun = await install(base, runtime, scope, [], extra, seed);
  const shipped = { status: shippedRun.status, stderr: shippedRun.stderr.slice(0, 4000), entries: Object.keys(shippedRun.files).length };
  const all = compared(shippedRun, await install(base, runtime, scope, AXES, extra, seed));
  const alone = {};
  for (const axis of solo) alone[axis] = compared(shippedRun, await install(base, runtime, scope, [axis], extra, seed));
  rmSync(base, { recursive: true, force: true });
  return { runtime, scope, shipped, all, alone };
}

/**
 * Runs every job, `concurrency` at a time. `soloFor(runtime, scope)` names the axes swapped
 * alone for that job; `extra` adds installer flags to every run; `seedFor(runtime, scope)`
 * may give a function that writes into `{ home, project }` before each run (what an
 * earlier install left there).
 */
export async function runMatrix({ runtimes = INSTALLABLE, scopes = ['global', 'local'], soloFor = () => [], concurrency, extra = [], seedFor = () => undefined } = {}) {
  const root = scratchRoot();
  const width = concurrency ?? Math.max(4, availableParallelism() * 3);
  const pending = runtimes.flatMap((runtime) => scopes.map((scope) => [runtime, scope]));
  const results = [];
  try {
    const worker = async () => {
      while (pending.length > 0) {
        const [runtime, scope] = pending.shift();
        results.push(await job(root, runtime, scope, soloFor(runtime, scope), extra, seedFor(runtime, scope)));
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const order = (r) => runtimes.indexOf(r.runtime) * 2 + scopes.indexOf(r.scope);
  return results.sort((a, b) => order(a) - order(b));
}

/** Sums the traces of many runs per axis: loads, calls into ours, peer fall-throughs, reads. */
export function sumTraces(traces) {
  const out = {};
  for (const axis of AXES) out[axis] = { runs: 0, loads: 0, ours: {}, peer: {}, reads: {} };
  for (const trace of traces) {
    for (const [axis, t] of Object.entries(trace)) {
      const o = out[axis];
      if (!o) continue;
      o.runs += t.loads > 0 ? 1 : 0;
      o.loads += t.loads;
      for (const side of ['ours', 'peer', 'reads']) {
        for (const [name, n] of Object.entries(t[side])) o[side][name] = (o[side][name] ?? 0) + n;
      }
    }
  }
  return out;
}

const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const list = (counts) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name}×${n}`)
    .join(', ') || '—';

/** The per-axis report as a text table. */
export function reportTable(summary, runCount, soloResults) {
  const rows = [['axis', 'loaded in', 'calls into ours', 'peer fall-through calls', 'swapped alone']];
  for (const axis of AXES) {
    const s = summary[axis];
    const solo = soloResults[axis];
    const alone = solo ? `${solo.identical}/${solo.runs} identical` : 'not run';
    const used = Object.keys(s.ours).length + Object.keys(s.reads).length > 0;
    const ours = s.runs === 0 ? 'never required by the installer' : !used ? '0 — loaded, never called' : `${total(s.ours)} (${list(s.ours)})${Object.keys(s.reads).length ? `; reads: ${list(s.reads)}` : ''}`;
    rows.push([axis, `${s.runs}/${runCount} runs`, ours, s.runs === 0 ? '—' : `${total(s.peer)} (${list(s.peer)})`, alone]);
  }
  return rows.map((r) => `| ${r.join(' | ')} |`).join('\n');
}
