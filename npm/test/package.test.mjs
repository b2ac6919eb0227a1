// The package as npm publishes it: packed with `npm pack`, unpacked into a temporary
// folder with no node_modules, it must load and run its CLI. A file the code requires but
// `files` in package.json leaves out only shows here: in this repository every file is
// present whether or not it would be published.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { npmDir, peer, tempDir } from './helpers.mjs';

const peerRuntimes = Object.keys(peer('capability-registry').runtimes).sort();

test('the packed package loads, plans and runs its CLI without the repository around it', (t) => {
  const dir = tempDir(t);
  const env = { ...process.env, HOME: dir, npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' };
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: npmDir, env, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const [{ filename, files }] = JSON.parse(pack.stdout);
  const packed = files.map((f) => f.path);
  for (const needed of ['index.js', 'overlays.js', 'binding.js', 'bin/gsd-core.js', 'compat/install-scope.cjs']) {
    assert.ok(packed.includes(needed), `${needed} is published (${packed.join(', ')})`);
  }
  const untar = spawnSync('tar', ['-xzf', join(dir, filename), '-C', dir], { encoding: 'utf8' });
  assert.equal(untar.status, 0, untar.stderr);
  const root = join(dir, 'package');
  assert.ok(!readdirSync(root).includes('node_modules'));

  const cli = spawnSync(process.execPath, [join(root, 'bin', 'gsd-core.js'), 'runtimes', '--json'], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' }, encoding: 'utf8' });
  assert.equal(cli.status, 0, cli.stderr);
  assert.deepStrictEqual(JSON.parse(cli.stdout).map((r) => r.id), peerRuntimes);

  const script = `const g = require(${JSON.stringify(root)});
const plan = g.resolveInstallPlan('claude', 'global', { home: '/h', cwd: '/w' });
const compat = require(${JSON.stringify(join(root, 'compat', 'install-scope.cjs'))});
console.log(JSON.stringify([plan.scope.configHome, typeof compat.resolveScope]));`;
  const api = spawnSync(process.execPath, ['-e', script], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir }, encoding: 'utf8' });
  assert.equal(api.status, 0, api.stderr);
  assert.deepStrictEqual(JSON.parse(api.stdout), ['/h/.claude', 'function']);
});
