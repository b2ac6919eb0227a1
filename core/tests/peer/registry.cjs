'use strict';
// Parity oracle for the capability registry: the compiled registry, cross-capability
// messages for mutated sets, data-flow messages, install profiles, and JavaScript's
// default string collation. Input and output are JSON (see core/tests/peer_registry.rs).

const lib = process.env.GSD_PEER_LIB;
const registry = require(lib + '/capability-registry.cjs');
const validator = require(lib + '/capability-validator.cjs');
const profiles = require(lib + '/install-profiles.cjs');

const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const out = {};

// The compiled registry as data (requiresClosure is a function: list its results).
const { requiresClosure, ...data } = registry;
out.registry = data;
out.closures = {};
for (const id of [...Object.keys(registry.capabilities), ...(input.unknownIds || [])]) {
  out.closures[id] = [...requiresClosure(id)];
}

const asMap = (caps) => new Map(caps.map((c) => [c.id, c]));

out.cross = (input.cross || []).map((c) => validator.validateCrossCapability(asMap(c.caps), new Set(c.centralKeys || [])));

out.dataFlow = (input.dataFlow || []).map((caps) => {
  try {
    return validator.validateConsumesGlobal(asMap(caps));
  } catch (e) {
    return [e.message];
  }
});

out.topo = (input.topo || []).map((entries) => {
  try {
    return validator.topoSortSteps(entries.map((e) => ({ capId: e.capId, step: e.step }))).map((e) => e.capId);
  } catch (e) {
    return e.message;
  }
});

// The peer's own loader and builder over first party + overlays, from folders on disk: its
// compiled first-party capabilities and each overlay's capability.json and fragment files
// are written into one capabilities folder, which `loadAndValidate` reads (validating,
// materializing fragments, checking across capabilities) and `buildRegistry` compiles.
// Input: [[{ folder, manifest: text, fragments: [[path, text]] }]]. Output per set: the
// registry, or { loadErrors } when the peer's loader refuses it.
out.built = (input.built || []).map((overlays) => {
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const gen = require(process.env.GSD_PEER_DIR + '/scripts/gen-capability-registry.cjs');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-peer-caps-'));
  try {
    const write = (folder, manifestText, fragments) => {
      fs.mkdirSync(path.join(dir, folder));
      fs.writeFileSync(path.join(dir, folder, 'capability.json'), manifestText);
      for (const [rel, text] of fragments) {
        fs.mkdirSync(path.dirname(path.join(dir, folder, rel)), { recursive: true });
        fs.writeFileSync(path.join(dir, folder, rel), text);
      }
    };
    for (const [id, cap] of Object.entries(registry.capabilities)) write(id, JSON.stringify(cap), []);
    for (const o of overlays) write(o.folder, o.manifest, o.fragments);
    const { capMap, errors } = gen.loadAndValidate(undefined, dir);
    if (errors.length > 0) return { loadErrors: errors };
    const { _reconciliationWarnings, ...built } = gen.buildRegistry(capMap);
    return built;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const manifest = profiles.loadSkillsManifest();
out.profiles = (input.profiles || []).map((p) => {
  const r = profiles.resolveProfile({ modes: p.modes, manifest, registry: p.withRegistry ? registry : undefined });
  return {
    name: r.name,
    // In the Sets' own order: an installer iterating them sees it.
    skills: r.skills === '*' ? '*' : [...r.skills],
    agents: [...r.agents],
  };
});
out.mostRestrictive = (input.mostRestrictive || []).map((names) => profiles.mostRestrictiveProfile(names));

out.collate = (input.collate || []).map((list) => [...list].sort((a, b) => a.localeCompare(b)));

process.stdout.write(JSON.stringify(out));
