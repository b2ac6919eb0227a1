// compat/install-scope.cjs equals the peer's install-scope.cjs over the scenario matrix.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome } from './helpers.mjs';
import { RUNTIMES, hostScenarios, optionsOf } from './scenarios.mjs';

const ours = require('../compat/install-scope.cjs');
const theirs = peer('install-scope');

test('install-scope: same exports and constants', () => {
  assert.deepStrictEqual(Object.keys(ours), Object.keys(theirs));
  assert.deepStrictEqual(ours.SCOPE_ORDER, theirs.SCOPE_ORDER);
  assert.ok(Object.isFrozen(ours.SCOPE_ORDER));
});

const ODD_IDS = ['global', 'local', 'GLOBAL', 'Local', ' global', 'project', '', undefined, null, 1, ['global'], {}, true];

test('install-scope: id validators agree on odd values', () => {
  for (const id of ODD_IDS) {
    const label = String(JSON.stringify(id));
    assert.equal(ours.isInstallScopeId(id), theirs.isInstallScopeId(id), label);
    assertSameOutcome(() => ours.validateScopeId(id, 'caller'), () => theirs.validateScopeId(id, 'caller'), label);
    assertSameOutcome(() => ours.isGlobalScope(id), () => theirs.isGlobalScope(id), label);
    assertSameOutcome(() => ours.scopeRank(id), () => theirs.scopeRank(id), label);
  }
});

test('install-scope: resolveScope over 19 runtimes × scopes × host scenarios × explicit dirs', () => {
  let cases = 0;
  for (const runtime of RUNTIMES) {
    const scenarios = hostScenarios(runtime, (opts) => theirs.resolveScope({ id: 'global', runtime, ...opts }));
    for (const scenario of scenarios) {
      for (const id of ['global', 'local']) {
        for (const explicitDir of [undefined, '~', '~/work', '/abs/dir/../x/', '   ', 'C:\\Users\\x', '~\\x']) {
          const input = () => ({ id, runtime, explicitDir, ...optionsOf(scenario) });
          assertSameOutcome(
            () => ours.resolveScope(input()),
            () => theirs.resolveScope(input()),
            `${runtime} ${id} ${scenario.label} explicitDir=${explicitDir}`,
          );
          cases += 1;
        }
      }
    }
  }
  assert.ok(cases > 19 * 2 * 7 * 10, `matrix too small: ${cases}`);
});

test('install-scope: resolveScope errors keep class and message', () => {
  const inputs = [
    undefined,
    {},
    { id: 'GLOBAL', runtime: 'claude' },
    { id: 'global', runtime: 'nope' },
    { id: 'global', runtime: ' claude' },
    { id: 'global', runtime: '__proto__' },
    { id: 'global', runtime: 'toString' },
    { id: 'global', runtime: 42 },
    { id: 'global', runtime: ['claude'] },
    { id: 'global', runtime: 'vscode' },
    { id: 'local', runtime: 'vscode', explicitDir: '/x' },
    { id: 'global', runtime: 'gemini' },
  ];
  for (const input of inputs) {
    assertSameOutcome(() => ours.resolveScope(input), () => theirs.resolveScope(input), JSON.stringify(input) ?? 'undefined');
  }
  const err = (() => {
    try {
      ours.resolveScope({ id: 'global', runtime: 'vscode' });
    } catch (e) {
      return e;
    }
  })();
  assert.ok(err instanceof TypeError);
});

test('install-scope: the environment is read as the peer reads it (env[name]), not by its own keys', () => {
  // Each runtime's first variable, given every way a caller may hold one: inherited
  // (Object.create(process.env)), through a Proxy's get trap only, as a non-enumerable getter.
  let cases = 0;
  for (const runtime of RUNTIMES) {
    for (const name of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'KILO_CONFIG_DIR', 'XDG_CONFIG_HOME', 'COPILOT_HOME']) {
      const envs = [
        Object.create({ [name]: '/inherited' }),
        new Proxy({}, { get: (_, key) => (key === name ? '/trapped' : undefined) }),
        Object.defineProperty({}, name, { get: () => '/hidden', enumerable: false }),
      ];
      for (const env of envs) {
        for (const id of ['global', 'local']) {
          const input = { id, runtime, home: '/h', cwd: '/w', env };
          assertSameOutcome(() => ours.resolveScope(input), () => theirs.resolveScope(input), `${runtime} ${id} ${name}`);
          cases += 1;
        }
      }
    }
  }
  assert.equal(cases, RUNTIMES.length * 5 * 3 * 2);
  // And it does move the answer: claude's config home follows an inherited override.
  assert.equal(ours.resolveScope({ id: 'global', runtime: 'claude', home: '/h', env: Object.create({ CLAUDE_CONFIG_DIR: '/inherited' }) }).configHome, '/inherited');
});
