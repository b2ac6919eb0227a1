// compat/install-profiles.cjs resolves the same profiles as the peer over its own sources.
import test from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { require, peer, peerRoot, tempDir, outcome, assertSameOutcome } from './helpers.mjs';

const ours = require('../compat/install-profiles.cjs');
const theirs = peer('install-profiles');

test('install-profiles: constants', () => {
  assert.deepStrictEqual(ours.PROFILES, theirs.PROFILES);
  assert.deepStrictEqual(ours.PROFILE_RANK, theirs.PROFILE_RANK);
  assert.ok(Object.isFrozen(ours.PROFILES) && Object.isFrozen(ours.PROFILES.core));
});

test('install-profiles: resolveProfile over the peer package for single and composed modes', () => {
  const mine = ours.loadSkillsManifest();
  const peers = theirs.loadSkillsManifest();
  const modes = [[], ['core'], ['standard'], ['full'], ['core,standard'], [' core , '], ['nope'], ['nope', 'core'], ['core', 'full'], [','], undefined];
  for (const m of modes) {
    const a = ours.resolveProfile({ modes: m, manifest: mine });
    const b = theirs.resolveProfile({ modes: m, manifest: peers });
    assert.deepStrictEqual(a, b, JSON.stringify(m));
    // Sets compare by membership; an installer iterating them sees their order too.
    if (a.skills !== '*') assert.deepStrictEqual([...a.skills], [...b.skills], `${JSON.stringify(m)} skills order`);
    assert.deepStrictEqual([...a.agents], [...b.agents], `${JSON.stringify(m)} agents order`);
  }
  assert.equal(ours.resolveProfile({ modes: ['core'], manifest: mine }).skills.size, 15);
  // The peer's installer resolves the core profile against `new Map()`: no requirement.
  for (const m of [['core'], ['standard'], []]) {
    const a = ours.resolveProfile({ modes: m, manifest: new Map() });
    const b = theirs.resolveProfile({ modes: m, manifest: new Map() });
    assert.deepStrictEqual(a, b, `${JSON.stringify(m)} over an empty Map`);
    if (a.skills !== '*') assert.deepStrictEqual([...a.skills], [...b.skills]);
  }
  assert.equal(ours.resolveProfile({ modes: ['core'], manifest: new Map() }).skills.size, 8);
});

/** A writer of files under `root`: `file('a/b.md', text)` makes `a/` first. */
function fileUnder(root) {
  return (rel, text) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
}

test('install-profiles: agents in the order the peer collects them, fragments walked depth-first', (t) => {
  const root = tempDir(t);
  const file = fileUnder(root);
  // `help` is in the core profile and requires `extra`; its workflow's fragments sit where
  // comparing whole paths and walking directory by directory disagree (`a/` vs `a-b.md`).
  file('commands/gsd/help.md', '---\nrequires: [extra]\n---\nsee workflows/help.md and gsd-zeta');
  file('commands/gsd/extra.md', 'calls gsd-helper, then gsd-alpha');
  file('workflows/help.md', 'spawns gsd-writer');
  file('workflows/help/a-b.md', 'gsd-second');
  file('workflows/help/a/x.md', 'gsd-first');
  file('workflows/help/b.txt', 'gsd-ignored');
  const commands = join(root, 'commands', 'gsd');
  const workflows = join(root, 'workflows');
  const a = ours.resolveProfile({ modes: ['core'], manifest: ours.loadSkillsManifest(commands, workflows) });
  const b = theirs.resolveProfile({ modes: ['core'], manifest: theirs.loadSkillsManifest(commands, workflows) });
  assert.deepStrictEqual([...a.agents], [...b.agents]);
  assert.ok(b.agents.has('gsd-first') && b.agents.has('gsd-second') && !b.agents.has('gsd-ignored'));
  assert.deepStrictEqual([...a.skills], [...b.skills]);
});

test('install-profiles: parseRequires and mostRestrictiveProfile', () => {
  const dir = join(peerRoot, 'commands', 'gsd');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    assert.deepStrictEqual(ours.parseRequires(text), theirs.parseRequires(text), file);
  }
  for (const names of [[], undefined, ['core'], ['standard', 'core'], ['full', 'standard'], ['core,audit'], ['x'], ['x', 'standard']]) {
    assert.equal(ours.mostRestrictiveProfile(names), theirs.mostRestrictiveProfile(names), String(names));
  }
});

/** The outcome's value, or only its error class (where our message is our own). */
function shape(fn) {
  const o = outcome(fn);
  return 'error' in o ? { threw: o.error.type } : o;
}

test('install-profiles: arguments of another type fail, or are read, as the peer fails or reads them', () => {
  const odd = [undefined, null, 5, 0, true, {}, ['---\nrequires: [a]\n---'], Symbol('s'), 10n, new String('---\nrequires: [a, b]\n---\n'), ''];
  for (const [i, content] of odd.entries()) {
    assert.deepStrictEqual(shape(() => ours.parseRequires(content)), shape(() => theirs.parseRequires(content)), `parseRequires #${i}`);
  }
  assert.throws(() => ours.parseRequires(undefined), { name: 'TypeError', message: /parseRequires: content must be a string \(got undefined\)/ });
  assert.deepStrictEqual(ours.parseRequires(new String('---\nrequires: [a, b]\n---\n')), ['a', 'b']);
  const mine = ours.loadSkillsManifest();
  const peers = theirs.loadSkillsManifest();
  for (const [i, modes] of ['core', 'standard,core', '', new Set(['core']), { length: 1, 0: 'core' }, 5, [['core', 'standard']], [5], [null]].entries()) {
    const a = shape(() => ours.resolveProfile({ modes, manifest: mine }));
    const b = shape(() => theirs.resolveProfile({ modes, manifest: peers }));
    assert.deepStrictEqual(a, b, `resolveProfile modes #${i}`);
  }
  assert.throws(() => ours.resolveProfile({ modes: 'core', manifest: mine }), { name: 'TypeError', message: /modes must be an array \(got string\)/ });
  // A falsy manifest or override is none, as the peer reads it.
  for (const falsy of [0, '', false]) {
    assert.deepStrictEqual(ours.resolveProfile({ modes: ['full'], manifest: falsy, _profilesOverride: falsy }), theirs.resolveProfile({ modes: ['full'], manifest: falsy, _profilesOverride: falsy }));
  }
  for (const [i, names] of [[new String('core')], [5], [null, 'standard'], [{ toString: () => 'core' }], 'core', new Set(['core'])].entries()) {
    assert.deepStrictEqual(shape(() => ours.mostRestrictiveProfile(names)), shape(() => theirs.mostRestrictiveProfile(names)), `mostRestrictiveProfile #${i}`);
  }
  assert.equal(ours.mostRestrictiveProfile([new String('core')]), 'full');
});

test('install-profiles: loadSkillsManifest is the peer\'s Map, entry for entry, and either side reads the other\'s', (t) => {
  const mine = ours.loadSkillsManifest();
  const peers = theirs.loadSkillsManifest();
  assert.ok(mine instanceof Map);
  assert.equal(mine.size, 144);
  // Same keys in the same order, same lists in the same order.
  assert.deepStrictEqual([...mine], [...peers]);
  for (const modes of [['core'], ['standard'], ['core,standard']]) {
    const crossed = ours.resolveProfile({ modes, manifest: peers });
    const back = theirs.resolveProfile({ modes, manifest: mine });
    const expected = theirs.resolveProfile({ modes, manifest: peers });
    for (const got of [crossed, back]) {
      assert.deepStrictEqual([...got.skills], [...expected.skills], String(modes));
      assert.deepStrictEqual([...got.agents], [...expected.agents], String(modes));
    }
  }
  // A folder that is not there, or holds no command, is an empty Map.
  assert.deepStrictEqual(ours.loadSkillsManifest(join(tempDir(t), 'none')), theirs.loadSkillsManifest(join(tempDir(t), 'none')));
  const empty = tempDir(t);
  assert.deepStrictEqual(ours.loadSkillsManifest(empty), new Map());
  assert.deepStrictEqual(theirs.loadSkillsManifest(empty), new Map());
  // A manifest that is not a Map is refused when a profile reads it, and only then.
  assert.throws(() => ours.resolveProfile({ modes: ['core'], manifest: { help: [] } }), { name: 'TypeError', message: /manifest must be a Map \(got object\)/ });
  assert.throws(() => theirs.resolveProfile({ modes: ['core'], manifest: { help: [] } }), TypeError);
  assert.deepStrictEqual(ours.resolveProfile({ modes: ['full'], manifest: { help: [] } }), theirs.resolveProfile({ modes: ['full'], manifest: { help: [] } }));
});

test('install-profiles: the installer\'s surface resolver reads our manifest as the peer\'s (an upgrade over a recorded surface)', (t) => {
  const surface = peer('surface');
  const configDir = tempDir(t);
  const state = { baseProfile: 'full', disabledClusters: [], explicitAdds: [], explicitRemoves: [] };
  const shaped = (s) => ({ name: s.name, skills: s.skills === '*' ? '*' : [...s.skills], agents: [...s.agents] });
  for (const baseProfile of ['full', 'standard', 'core']) {
    const over = { ...state, baseProfile };
    const a = shaped(surface.resolveSurface(configDir, ours.loadSkillsManifest(), undefined, undefined, over));
    const b = shaped(surface.resolveSurface(configDir, theirs.loadSkillsManifest(), undefined, undefined, over));
    assert.deepStrictEqual(a, b, baseProfile);
  }
  const full = surface.resolveSurface(configDir, ours.loadSkillsManifest(), undefined, undefined, state);
  assert.equal(full.skills.size, 72);
  assert.ok(full.agents.size > 30, `${full.agents.size} agents`);
});

test('install-profiles: a registry\'s capability clusters join the profiles whose membership lists them', () => {
  const mine = ours.loadSkillsManifest();
  const peers = theirs.loadSkillsManifest();
  const registries = [
    { capabilityClusters: { 'my-cap': ['my-skill', 'help', '', 5] }, profileMembership: { 'my-cap': { tier: 'core', profiles: ['core', 'standard', 'full'] } } },
    { capabilityClusters: { a: ['plan-phase'], b: ['x-b'] }, profileMembership: { a: { profiles: ['standard'] }, b: { profiles: 'core' } } },
    // A key that reaches a prototype is passed over, as are odd shapes.
    JSON.parse('{"capabilityClusters":{"__proto__":["evil"],"c":["x-c"],"d":"x-d"},"profileMembership":{"__proto__":{"profiles":["core"]},"c":{"profiles":["core"]},"d":{"profiles":["core"]}}}'),
    { capabilityClusters: { e: ['x-e'] }, profileMembership: { e: null } },
    { capabilityClusters: null, profileMembership: {} },
    {},
  ];
  for (const [i, registry] of registries.entries()) {
    for (const modes of [['core'], ['standard'], ['core,standard'], ['full']]) {
      const a = ours.resolveProfile({ modes, manifest: mine, registry });
      const b = theirs.resolveProfile({ modes, manifest: peers, registry });
      assert.deepStrictEqual(a.name, b.name, `registry #${i} ${modes}`);
      if (b.skills === '*') assert.equal(a.skills, '*');
      else assert.deepStrictEqual([...a.skills], [...b.skills], `registry #${i} ${modes} skills`);
      assert.deepStrictEqual([...a.agents], [...b.agents], `registry #${i} ${modes} agents`);
    }
  }
  assert.ok(ours.resolveProfile({ modes: ['core'], manifest: mine, registry: registries[0] }).skills.has('my-skill'));
  assert.ok(!ours.resolveProfile({ modes: ['core'], manifest: mine, registry: registries[2] }).skills.has('evil'));
});

test('install-profiles: the default folders are the installer\'s package, whatever the working directory holds', (t) => {
  // A project with another copy of the package, holding one command.
  const project = tempDir(t);
  const copy = join(project, 'node_modules', '@opengsd', 'gsd-core');
  mkdirSync(join(copy, 'commands', 'gsd'), { recursive: true });
  writeFileSync(join(copy, 'package.json'), '{"name":"@opengsd/gsd-core","version":"0.0.0"}');
  writeFileSync(join(copy, 'commands', 'gsd', 'only.md'), 'gsd-only');
  const before = process.cwd();
  process.chdir(project);
  try {
    assert.deepStrictEqual([...ours.loadSkillsManifest()], [...theirs.loadSkillsManifest()]);
  } finally {
    process.chdir(before);
  }
});

test('install-profiles: requires lists and modes are trimmed as the peer trims them (U+FEFF, U+0085)', () => {
  for (const line of ['requires: [a,\uFEFFb]', 'requires: a\u0085', 'requires:\uFEFFx', 'requires: [\u0085a , b\u2028]', 'requires: \u00a0[a]\u3000']) {
    const text = `---\n${line}\n---\nbody`;
    assert.deepStrictEqual(ours.parseRequires(text), theirs.parseRequires(text), JSON.stringify(line));
  }
  for (const modes of [['\uFEFFcore'], ['core\u0085'], ['\u3000standard\u00a0'], ['core,\uFEFF standard']]) {
    const a = ours.resolveProfile({ modes, manifest: new Map() });
    const b = theirs.resolveProfile({ modes, manifest: new Map() });
    assert.equal(a.name, b.name, JSON.stringify(modes));
    if (b.skills !== '*') assert.deepStrictEqual([...a.skills], [...b.skills]);
  }
});

test('install-profiles: loadSkillsManifest reads links, missing and odd folders as the peer does', (t) => {
  const root = tempDir(t);
  const file = fileUnder(root);
  file('commands/gsd/help.md', 'see workflows/linked.md and workflows/folder.md');
  file('elsewhere/linked.md', 'spawns gsd-linked-agent');
  file('elsewhere/folder/steps/a.md', 'gsd-fragment-agent');
  file('elsewhere/nested.md', 'gsd-nested-agent');
  file('workflows/folder.md', 'gsd-folder-agent');
  mkdirSync(join(root, 'workflows', 'folder-real'));
  // A linked workflow is read; a linked fragment folder is walked; a link inside it is not.
  symlinkSync(join(root, 'elsewhere', 'linked.md'), join(root, 'workflows', 'linked.md'));
  symlinkSync(join(root, 'elsewhere', 'folder'), join(root, 'workflows', 'folder'));
  symlinkSync(join(root, 'elsewhere', 'nested.md'), join(root, 'elsewhere', 'folder', 'steps', 'b.md'));
  const commands = join(root, 'commands', 'gsd');
  const workflows = join(root, 'workflows');
  const mine = ours.loadSkillsManifest(commands, workflows);
  assert.deepStrictEqual([...mine], [...theirs.loadSkillsManifest(commands, workflows)]);
  assert.deepStrictEqual(mine.get('_calls_agents_help'), ['gsd-linked-agent', 'gsd-folder-agent', 'gsd-fragment-agent']);
  // No folder (null is no folder: a default applies to undefined only), or a file.
  assert.deepStrictEqual(ours.loadSkillsManifest(null), theirs.loadSkillsManifest(null));
  assert.equal(ours.loadSkillsManifest(null).size, 0);
  assertSameOutcome(() => ours.loadSkillsManifest(join(commands, 'help.md')).size, () => theirs.loadSkillsManifest(join(commands, 'help.md')).size, 'a file');
  assert.throws(() => ours.loadSkillsManifest(join(commands, 'help.md')), { code: 'ENOTDIR' });
});

test('install-profiles: resolveProfile keeps odd Map keys apart and reads the registry only for the modes the peer reads it for', () => {
  const manifest = () => new Map([['help', ['\uD800']], ['\uD800', ['a']], ['\uD801', ['b']], ['new-project', [1]], [1, ['x']], ['1', ['y']], ['_calls_agents_help', ['gsd-z']]]);
  const a = ours.resolveProfile({ modes: ['core'], manifest: manifest() });
  const b = theirs.resolveProfile({ modes: ['core'], manifest: manifest() });
  assert.deepStrictEqual([...a.skills], [...b.skills]);
  assert.deepStrictEqual([...a.agents], [...b.agents]);
  assert.ok(a.skills.has('\uD800') && a.skills.has('a') && !a.skills.has('b') && a.skills.has(1) && !a.skills.has('y'));
  // A registry read counts its reads: none for full, one per known mode otherwise.
  const counted = () => {
    const reads = { n: 0 };
    return { reads, registry: { get capabilityClusters() { reads.n += 1; return {}; }, profileMembership: {} } };
  };
  for (const modes of [['full'], ['core', 'full'], ['core'], ['core,standard'], ['nope'], ['core', 'core']]) {
    const mine = counted();
    const peers = counted();
    ours.resolveProfile({ modes, manifest: new Map(), registry: mine.registry });
    theirs.resolveProfile({ modes, manifest: new Map(), registry: peers.registry });
    assert.equal(mine.reads.n, peers.reads.n, JSON.stringify(modes));
  }
});

test('install-profiles: resolveProfile reads a Map value only when its walk reaches it, and fails as the peer fails on one it cannot iterate', () => {
  const profileOf = (r) => ({ name: r.name, skills: r.skills === '*' ? '*' : [...r.skills], agents: [...r.agents] });
  const throwing = { [Symbol.iterator]() { throw new RangeError('iteration refused'); } };
  // `help` is in the core profile, so its lists are read; `unused` is reached by nothing.
  const values = [5, true, {}, { length: 1, 0: 'x' }, throwing, 0, '', false, 'ab', new Set(['plan-phase'])];
  for (const value of values) {
    for (const key of ['help', '_calls_agents_help', 'unused', '_calls_agents_unused']) {
      for (const modes of [['core'], ['full']]) {
        const manifest = () => new Map([['help', ['new-project']], [key, value]]);
        assertSameOutcome(
          () => profileOf(ours.resolveProfile({ modes, manifest: manifest() })),
          () => profileOf(theirs.resolveProfile({ modes, manifest: manifest() })),
          `${key} = ${String(value)} (${modes})`,
        );
      }
    }
  }
  // What the peer says, and when: a requires list before an agents list.
  const both = new Map([['help', 5], ['_calls_agents_help', 5]]);
  assert.equal(outcome(() => ours.resolveProfile({ modes: ['core'], manifest: both })).error.message, 'deps is not iterable');
  both.delete('help');
  assert.equal(outcome(() => ours.resolveProfile({ modes: ['core'], manifest: both })).error.message, 'agentRefs is not iterable');
});
