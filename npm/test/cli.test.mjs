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
