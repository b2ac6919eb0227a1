// compat/runtime-homes.cjs by-id helpers (getGlobalConfigDir, getGlobalSkillsBase,
// getGlobalSkillDir, getGlobalSkillDisplayPath) and resolveSkillsBaseFromDescriptor equal
// the peer's. The by-id helpers read the real machine, so every scenario is laid out for
// real: HOME is a temporary directory, the environment is set on `process.env`, and the
// probe paths of the scenario are created on disk.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { require, peer, assertSameOutcome, tempDir, outcome } from './helpers.mjs';
import { RUNTIMES, hostScenarios, optionsOf } from './scenarios.mjs';

const ours = require('../compat/runtime-homes.cjs');
const theirs = peer('runtime-homes');
const registry = peer('capability-registry');

const IDS = [...RUNTIMES, 'grok', 'nope', '__proto__', 'constructor', '', undefined, 42];

/** Every environment variable any scenario may set (cleared around each scenario). */
const ENV_NAMES = [
  ...new Set([
    'CLAUDE_CONFIG_DIR', 'GROK_AGENTS_HOME', 'XDG_CONFIG_HOME',
    ...RUNTIMES.flatMap((id) => {
      const home = registry.runtimes[id].runtime.configHome;
      return [...(home.env ?? []), ...(home.skillsHome?.env ?? [])];
    }),
  ]),
];

/** Runs `fn` with HOME = `<root>/h`, the scenario's environment, and its probe paths on disk. */
function onMachine(root, scenario, fn) {
  const saved = { HOME: process.env.HOME };
  for (const name of ENV_NAMES) saved[name] = process.env[name];
  const home = join(root, 'h');
  try {
    for (const name of ENV_NAMES) delete process.env[name];
    process.env.HOME = home;
    for (const [name, value] of Object.entries(scenario.env)) process.env[name] = value;
    for (const p of scenario.exists) mkdirSync(join(home, p.slice('/h'.length)), { recursive: true });
    return fn();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** The scenarios of one runtime id: environment overrides and probe paths of both descriptors. */
function scenariosOf(id) {
  const configHome = registry.runtimes[id]?.runtime?.configHome;
  if (!configHome) return [{ label: 'bare', env: {}, exists: [] }, { label: 'claude env', env: { CLAUDE_CONFIG_DIR: '~/cc' }, exists: [] }, { label: 'blank claude env', env: { CLAUDE_CONFIG_DIR: '   ' }, exists: [] }, { label: 'grok env', env: { GROK_AGENTS_HOME: '/g' }, exists: [] }];
  return hostScenarios(id, (opts) => {
    theirs.resolveConfigHomeFromDescriptor(configHome, opts);
    if (configHome.skillsHome) theirs.resolveConfigHomeFromDescriptor(configHome.skillsHome, opts);
  }).filter((s) => s.home === '/h' && s.cwd === '/w');
}

test('runtime-homes: by-id global directories over every runtime × environment × probes on disk', (t) => {
  let cases = 0;
  for (const id of IDS) {
    for (const scenario of scenariosOf(typeof id === 'string' ? id : 'nope')) {
      const root = tempDir(t, 'gsd-core-dirs-');
      onMachine(root, scenario, () => {
        const label = `${String(id)} ${scenario.label}`;
        const calls = [
          ['getGlobalConfigDir', [id]],
          ['getGlobalConfigDir', [id, '~/explicit']],
          ['getGlobalConfigDir', [id, '']],
          ['getGlobalSkillsBase', [id]],
          ['getGlobalSkillDir', [id, 'gsd-plan']],
          ['getGlobalSkillDir', [id, undefined]],
          ['getGlobalSkillDisplayPath', [id, 'gsd-plan']],
          ['getGlobalSkillDisplayPath', [id, 5]],
        ];
        for (const [fn, args] of calls) {
          assertSameOutcome(() => ours[fn](...args), () => theirs[fn](...args), `${fn}(${args.map(String).join(', ')}) ${label}`);
          cases += 1;
        }
      });
    }
  }
  assert.ok(cases > 1500, `matrix too small: ${cases}`);
});

test('runtime-homes: resolveSkillsBaseFromDescriptor over every registry configHome × host scenarios', () => {
  let cases = 0;
  for (const id of RUNTIMES) {
    const configHome = registry.runtimes[id].runtime.configHome;
    for (const scenario of hostScenarios(id, (opts) => theirs.resolveSkillsBaseFromDescriptor(configHome, opts))) {
      for (const sub of [undefined, 'skills', 'a/b', '../up', 7]) {
        assertSameOutcome(
          () => ours.resolveSkillsBaseFromDescriptor(configHome, optionsOf(scenario), sub),
          () => theirs.resolveSkillsBaseFromDescriptor(configHome, optionsOf(scenario), sub),
          `${id} ${String(sub)} ${scenario.label}`,
        );
        cases += 1;
      }
    }
  }
  for (const odd of [{ kind: 'none', name: 'x' }, { kind: 'mystery' }, { kind: 'dot-home', name: '.a', skillsHome: { kind: 'none' } }]) {
    assertSameOutcome(() => ours.resolveSkillsBaseFromDescriptor(odd, { home: '/h', env: {} }), () => theirs.resolveSkillsBaseFromDescriptor(odd, { home: '/h', env: {} }), JSON.stringify(odd));
  }
  assert.ok(cases > 1000, `matrix too small: ${cases}`);
});

test('runtime-homes: every peer export is provided', () => {
  assert.deepStrictEqual(Object.keys(ours).sort(), Object.keys(theirs).sort());
});

test('runtime-homes: getGlobalConfigDir with an explicit directory that is not a string', () => {
  for (const [i, explicitDir] of [5, true, {}, ['/x'], Symbol('s'), 10n, new String('/x/dir'), 0, '', null].entries()) {
    const a = outcome(() => ours.getGlobalConfigDir('claude', explicitDir));
    const b = outcome(() => theirs.getGlobalConfigDir('claude', explicitDir));
    assert.deepStrictEqual('error' in a ? a.error.type : a, 'error' in b ? b.error.type : b, `explicitDir #${i}`);
  }
  assert.throws(() => ours.getGlobalConfigDir('claude', 5), { name: 'TypeError', message: /explicitDir must be a string \(got number\)/ });
  // A `String` object is a directory too, answered as given when it has no `~`.
  const given = new String('/x/dir');
  assert.equal(ours.getGlobalConfigDir('claude', given), given);
  assert.equal(ours.getGlobalConfigDir('claude', new String('~/d')), theirs.getGlobalConfigDir('claude', new String('~/d')));
});
