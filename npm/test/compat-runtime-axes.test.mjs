// compat/runtime-config-adapter-registry.cjs and compat/runtime-slash.cjs equal the peer.
import test from 'node:test';
import assert from 'node:assert/strict';
import { require, peer, assertSameOutcome, tempDir } from './helpers.mjs';
import { RUNTIMES } from './scenarios.mjs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const adapter = require('../compat/runtime-config-adapter-registry.cjs');
const peerAdapter = peer('runtime-config-adapter-registry');
const slash = require('../compat/runtime-slash.cjs');
const peerSlash = peer('runtime-slash');
const peerNames = peer('runtime-name-policy');

const ODD_RUNTIMES = [...RUNTIMES, 'nope', '', ' claude', 'CLAUDE', '__proto__', 'toString', 'gemini', undefined, null, 42, ['claude']];

test('runtime-config-adapter-registry: intents and plans for every runtime and odd ids', () => {
  for (const runtime of ODD_RUNTIMES) {
    const label = String(runtime);
    assertSameOutcome(() => adapter.resolveRuntimeConfigIntent(runtime), () => peerAdapter.resolveRuntimeConfigIntent(runtime), `intent ${label}`);
    assertSameOutcome(() => adapter.resolveInstallPlan(runtime), () => peerAdapter.resolveInstallPlan(runtime), `plan ${label}`);
  }
  assert.deepStrictEqual(adapter.ALLOWED_CONFIG_RUNTIMES, peerAdapter.ALLOWED_CONFIG_RUNTIMES);
  assert.deepStrictEqual(adapter.INSTALL_SURFACES, peerAdapter.INSTALL_SURFACES);
  assert.ok(Object.isFrozen(adapter.INSTALL_SURFACES));
});

const COMMANDS = [
  '/gsd:Plan-Phase 1', '/gsd-plan-phase', '$gsd-help', 'gsd:gsd:x', 'GSD:Help  tail  ', 'plan-phase', '',
  '   ', '/gsd:', '/gsd:   ', 'gsd-', ' /gsd:x', 'x\ty z', '/GsD-Quick\nnext', 'ﬀ', 'gſd:x', 42, null, undefined,
];
const SLASH_RUNTIMES = [...RUNTIMES, 'codex-cli', 'Codex_Desktop', ' CODEX ', 'claude-code', 'future_thing', '', undefined, 7, null];

test('runtime-slash: formatGsdSlash over commands × runtimes and aliases', () => {
  for (const command of COMMANDS) {
    for (const runtime of SLASH_RUNTIMES) {
      assertSameOutcome(() => slash.formatGsdSlash(command, runtime), () => peerSlash.formatGsdSlash(command, runtime), `${JSON.stringify(command)} ${runtime}`);
    }
  }
});

test('runtime-slash: runtime name policy', () => {
  const names = [...SLASH_RUNTIMES, 'Kimi_Code', 'kimicode', 'devin-desktop', 'open code', 'GitHub-Copilot', '  ', 'a__b  c'];
  for (const name of names) {
    assert.deepStrictEqual(slash.canonicalizeRuntimeName(name), peerNames.canonicalizeRuntimeName(name), String(name));
    assert.deepStrictEqual(slash.resolveRuntimeNameFromCandidates(name), peerNames.resolveRuntimeNameFromCandidates(name), String(name));
  }
  assert.deepStrictEqual(slash.resolveRuntimeNameFromCandidates(undefined, ' ', 'Codex_App'), peerNames.resolveRuntimeNameFromCandidates(undefined, ' ', 'Codex_App'));
});

test('runtime-slash: resolveExplicitRuntime from env and project config', (t) => {
  const project = tempDir(t);
  mkdirSync(join(project, '.planning'));
  const cases = [
    [undefined, {}],
    [project, { GSD_RUNTIME: 'Codex_CLI' }],
    [project, {}],
  ];
  for (const config of ['{"runtime":"claude-code"}', '{"runtime":7}', 'not json', '{}', '{"runtime":"  "}']) {
    writeFileSync(join(project, '.planning', 'config.json'), config);
    for (const [dir, env] of cases) {
      assertSameOutcome(() => slash.resolveExplicitRuntime(dir, env), () => peerSlash.resolveExplicitRuntime(dir, env), `${config} ${JSON.stringify(env)}`);
    }
  }
});
