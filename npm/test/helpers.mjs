// Shared test helpers: the peer (the behaviour we must equal), temp homes, CLI runs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const require = createRequire(import.meta.url);
export const npmDir = join(dirname(fileURLToPath(import.meta.url)), '..');
export const peerRoot = dirname(require.resolve('@opengsd/gsd-core/package.json'));

/** Loads a peer module by axis name (fails loudly when the peer is missing). */
export function peer(axis) {
  return require(`@opengsd/gsd-core/gsd-core/bin/lib/${axis}.cjs`);
}

/** A fresh temporary directory, removed when the test ends. */
export function tempDir(t, prefix = 'gsd-core-test-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs the CLI with a controlled environment. */
export function cli(args, { home, cwd, env = {} } = {}) {
  const base = { PATH: process.env.PATH, NO_COLOR: '1' };
  if (home !== undefined) base.HOME = home;
  const run = spawnSync(process.execPath, [join(npmDir, 'bin', 'gsd-core.js'), ...args], {
    cwd: cwd ?? npmDir,
    env: { ...base, ...env },
    encoding: 'utf8',
    // A CLI that waits for ever (a FIFO read) fails its test instead of hanging the suite.
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Calls `fn` and returns what it threw (fails when it did not throw). */
export function thrown(fn) {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** What a call produced: `{ value }` or `{ error: { type, message } }` (for parity checks). */
export function outcome(fn) {
  try {
    return { value: fn() };
  } catch (err) {
    return { error: { type: err?.constructor?.name, message: err?.message } };
  }
}

/**
 * Asserts that ours and the peer's outcome are equal, including key order and frozenness.
 * @param {() => unknown} ours
 * @param {() => unknown} theirs
 * @param {string} label
 */
export function assertSameOutcome(ours, theirs, label) {
  const a = outcome(ours);
  const b = outcome(theirs);
  assert.deepStrictEqual(a, b, label);
  if ('value' in a && a.value !== null && typeof a.value === 'object') {
    // Key order, with a BigInt (passed through by some peer functions) spelled as a string.
    const keys = (v) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
    assert.equal(keys(a.value), keys(b.value), `${label}: key order`);
    assert.equal(Object.isFrozen(a.value), Object.isFrozen(b.value), `${label}: frozenness`);
  }
}

/** Every path a peer call asks `existsSync` about (nothing exists). */
export function probedPaths(call) {
  const asked = [];
  try {
    call((p) => {
      asked.push(p);
      return false;
    });
  } catch {
    // the peer may throw for this input; the paths asked so far still count
  }
  return [...new Set(asked)];
}

/**
 * The peer package's own source inventory, read the way its installer reads it: command
 * and agent stems (sorted), the `ns-*` routers and the children each router requires.
 */
export function peerInventory() {
  const profiles = peer('install-profiles');
  const commandsDir = join(peerRoot, 'commands', 'gsd');
  const stems = (dir) => readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
  const commands = stems(commandsDir);
  const agents = stems(join(peerRoot, 'agents'));
  const routerStems = commands.filter((s) => s.startsWith('ns-'));
  const childToRouters = {};
  for (const router of routerStems) {
    for (const child of profiles.parseRequires(readFileSync(join(commandsDir, `${router}.md`), 'utf8'))) {
      (childToRouters[child] ??= []).push(router);
    }
  }
  return { commands, agents, routerStems, childToRouters };
}

/**
 * The calls made to some exports of a module while `fn` runs (each export wrapped, then
 * restored): `label(name, args)` for each call, in order.
 * @param {Record<string, Function>} module
 * @param {string[]} names
 * @param {() => void} fn
 * @param {(name: string, args: unknown[]) => string} [label]
 */
export function callsTo(module, names, fn, label = (name) => name) {
  const originals = names.map((name) => module[name]);
  const seen = [];
  names.forEach((name, i) => {
    module[name] = (...args) => {
      seen.push(label(name, args));
      return originals[i](...args);
    };
  });
  try {
    fn();
  } finally {
    names.forEach((name, i) => {
      module[name] = originals[i];
    });
  }
  return seen;
}
