// compat/runtime-homes.cjs equals the peer's runtime-homes.cjs (config-home half).
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome } from './helpers.mjs';
import { RUNTIMES, hostScenarios, optionsOf } from './scenarios.mjs';

const ours = require('../compat/runtime-homes.cjs');
const theirs = peer('runtime-homes');
const registry = peer('capability-registry');

test('runtime-homes: constants equal the peer', () => {
  for (const name of ['KIMI_HOOKS_TOML_DESCRIPTOR', 'KIMI_CODE_HOOKS_TOML_DESCRIPTOR', 'NON_REGISTRY_CONFIG_HOME_DESCRIPTORS', 'GSD_LOCATION_ENV_KEYS', 'LEGACY_NON_REGISTRY_RUNTIME_IDS']) {
    assert.deepStrictEqual(ours[name], theirs[name], name);
  }
  for (const name of Object.keys(ours)) assert.equal(typeof ours[name], typeof theirs[name], name);
});

test('runtime-homes: isRegisteredRuntimeId agrees on odd values', () => {
  for (const v of [...RUNTIMES, ' claude ', 'CLAUDE', '__proto__', 'gemini', 'grok', ' grok', '', '  ', 1, null, undefined, 'toString', 'constructor']) {
    assert.equal(ours.isRegisteredRuntimeId(v), theirs.isRegisteredRuntimeId(v), String(v));
  }
});

test('runtime-homes: resolveConfigHomeFromDescriptor over every registry configHome × host scenarios', () => {
  let cases = 0;
  for (const id of RUNTIMES) {
    const configHome = registry.runtimes[id].runtime.configHome;
    const descriptors = [configHome, ...(configHome.skillsHome ? [configHome.skillsHome] : [])];
    for (const descriptor of descriptors) {
      for (const scenario of hostScenarios(id, (opts) => theirs.resolveConfigHomeFromDescriptor(descriptor, opts))) {
        assertSameOutcome(
          () => ours.resolveConfigHomeFromDescriptor(descriptor, optionsOf(scenario)),
          () => theirs.resolveConfigHomeFromDescriptor(descriptor, optionsOf(scenario)),
          `${id} ${scenario.label}`,
        );
        cases += 1;
      }
    }
  }
  assert.ok(cases > 400, `matrix too small: ${cases}`);
});

test('runtime-homes: none and unknown kinds', () => {
  for (const descriptor of [{ kind: 'none', name: 'vscode' }, { kind: 'none' }, { kind: 'mystery', name: 'x' }]) {
    assertSameOutcome(
      () => ours.resolveConfigHomeFromDescriptor(descriptor, { home: '/h', env: {} }),
      () => theirs.resolveConfigHomeFromDescriptor(descriptor, { home: '/h', env: {} }),
      JSON.stringify(descriptor),
    );
  }
});

test('runtime-homes: antigravity, kimi and kimi hooks helpers', () => {
  for (const runtime of ['antigravity', 'kimi']) {
    const fn = runtime === 'antigravity' ? 'resolveAntigravityGlobalDir' : 'resolveKimiGlobalDir';
    for (const scenario of hostScenarios(runtime, (opts) => theirs[fn](opts))) {
      assertSameOutcome(() => ours[fn](optionsOf(scenario)), () => theirs[fn](optionsOf(scenario)), `${fn} ${scenario.label}`);
    }
  }
  for (const scenario of hostScenarios('antigravity', (opts) => theirs.detectAntigravityDirAmbiguity(opts))) {
    assertSameOutcome(
      () => ours.detectAntigravityDirAmbiguity(optionsOf(scenario)),
      () => theirs.detectAntigravityDirAmbiguity(optionsOf(scenario)),
      `ambiguity ${scenario.label}`,
    );
  }
  for (const runtime of ['kimi', 'kimi-code', undefined, 'claude']) {
    for (const env of [{}, { KIMI_SHARE_DIR: '~/share' }, { KIMI_CODE_HOME: '/kc' }, { KIMI_CODE_HOME: '  ' }]) {
      assertSameOutcome(
        () => ours.resolveKimiHooksTomlDir({ runtime, env, home: '/h' }),
        () => theirs.resolveKimiHooksTomlDir({ runtime, env, home: '/h' }),
        `hooks ${runtime} ${JSON.stringify(env)}`,
      );
    }
  }
  // Options are read in the peer's order (env, home, runtime), so a null fails on env.
  assertSameOutcome(() => ours.resolveKimiHooksTomlDir(null), () => theirs.resolveKimiHooksTomlDir(null), 'hooks null');
});

test('runtime-homes and install-scope: a home or cwd that is not a string fails exactly when the peer joins a path onto it', () => {
  const scope = require('../compat/install-scope.cjs');
  const theirScope = peer('install-scope');
  const values = [5, {}, true, ['/h'], Symbol.iterator];
  const cases = [];
  for (const value of values) {
    cases.push({ home: value, env: {} }, { home: value, env: { KIMI_CONFIG_DIR: '/k', ANTIGRAVITY_CONFIG_DIR: '/a', CLAUDE_CONFIG_DIR: '/c' } });
    cases.push({ home: '/h', cwd: value, env: {} });
  }
  let failed = 0;
  for (const opts of cases) {
    const label = `${String(opts.home)} ${String(opts.cwd)} ${Object.keys(opts.env)}`;
    for (const name of ['resolveKimiGlobalDir', 'resolveAntigravityGlobalDir']) {
      assertSameOutcome(() => ours[name](opts), () => theirs[name](opts), `${name} ${label}`);
    }
    for (const id of ['global', 'local']) {
      for (const runtime of ['claude', 'kimi', 'antigravity', 'codex']) {
        const input = { id, runtime, ...opts };
        assertSameOutcome(() => scope.resolveScope(input), () => theirScope.resolveScope(input), `resolveScope ${id} ${runtime} ${label}`);
        try {
          theirScope.resolveScope(input);
        } catch {
          failed += 1;
        }
      }
    }
  }
  // An existsSync that is not a function fails with the peer's message.
  for (const name of ['resolveKimiGlobalDir', 'resolveAntigravityGlobalDir']) {
    const opts = { existsSync: 1, home: '/h', env: {} };
    assertSameOutcome(() => ours[name](opts), () => theirs[name](opts), `${name} existsSync: 1`);
  }
  // Both outcomes occur: the peer fails on some of these and answers others.
  assert.ok(failed > 0 && failed < cases.length * 8, `${failed} of ${cases.length * 8}`);
});

test('runtime-homes: a BigInt member of a descriptor that the peer does not read is ignored', () => {
  const home = { home: '/h', env: { X_DIR: '/x' } };
  for (const descriptor of [
    { kind: 'dot-home', name: '.x', env: ['X_DIR'], extra: 1n },
    { kind: 'dot-home', name: '.x', env: [], probe: 2n },
    { kind: 'xdg', name: 'x', env: ['X_DIR'], parent: 3n },
    { kind: 'dot-home', name: '.x', env: [], skillsHome: { kind: 'dot-home', name: '.s', env: [], order: 4n } },
  ]) {
    const label = Object.keys(descriptor).join(',');
    assertSameOutcome(() => ours.resolveConfigHomeFromDescriptor(descriptor, home), () => theirs.resolveConfigHomeFromDescriptor(descriptor, home), label);
    assertSameOutcome(() => ours.resolveSkillsBaseFromDescriptor(descriptor, home), () => theirs.resolveSkillsBaseFromDescriptor(descriptor, home), `skills ${label}`);
  }
  const config = require('../compat/runtime-config-adapter-registry.cjs');
  const theirConfig = peer('runtime-config-adapter-registry');
  const descriptors = { claude: { runtime: { ...registry.runtimes.claude.runtime, extra: 1n } } };
  assertSameOutcome(() => config.resolveInstallPlanFromRuntimes(descriptors, 'claude'), () => theirConfig.resolveInstallPlanFromRuntimes(descriptors, 'claude'), 'install plan');
});

test('resolveSkillsBaseFromDescriptor: a lone surrogate in an env value the descriptor does not read changes nothing', () => {
  const descriptor = { kind: 'dot-home', name: '.x', env: ['X'] };
  const env = { CODEX_HOME: '\uD800' };
  assertSameOutcome(() => ours.resolveSkillsBaseFromDescriptor(descriptor, { home: '/h', env }), () => theirs.resolveSkillsBaseFromDescriptor(descriptor, { home: '/h', env }), 'unread');
  // One the descriptor reads crosses as U+FFFD (docs/node.md, deliberate differences).
  assert.equal(ours.resolveSkillsBaseFromDescriptor(descriptor, { home: '/h', env: { X: '/p\uD800' } }), '/p\uFFFD/skills');
});
