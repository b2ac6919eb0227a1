'use strict';
// Drop-in for the profile-resolution half of the peer's `install-profiles.cjs`, backed by
// the native core: PROFILES, PROFILE_RANK, loadSkillsManifest, resolveProfile,
// parseRequires and mostRestrictiveProfile.
//
// Also: the profile marker (readActiveProfile, resolveEffectiveProfile: the file is read
// here, its text and the precedence are judged by the core; profileMarker, ours, says why
// a marker was passed over), isMinimalMode,
// isSafeCapabilitySkillStem, MINIMAL_SKILL_ALLOWLIST and CAPABILITY_SKILL_MARKER.
//
// `loadSkillsManifest` returns the peer's `Map` (a stem's `requires:` list under the stem,
// its agent tokens under `_calls_agents_<stem>`, decided by the core from the file texts),
// so the modules that are not axes (the installer's surface resolver) read it as theirs;
// its default folders are the installer's own package, as the peer's are. `resolveProfile`
// reads any such `Map`, and the `registry`'s `capabilityClusters` / `profileMembership`
// as the peer reads them; the closure is the core's.
//
// Differences: the marker is read only when it is a regular file (a link to one is
// followed, as the peer follows it) of at most 64 KiB of UTF-8; anything else reads as no
// marker, where the peer blocks on a FIFO, reads a device without end or a huge file whole.
// A manifest `Map`'s lists are read as lists of strings (`String(item)`); `_profilesOverride`
// is not supported. Not provided (file-system staging, see docs/node.md): the stage*
// functions, STAGED_DIRS, cleanupStagedSkills, writeActiveProfile,
// readInstalledCapabilitySkill, shouldInstallSkill, capabilityClusterStems,
// parseCallsAgents, workflowAgentRefs.

const fs = require('node:fs');
const path = require('node:path');
const native = require('../binding.js');
const { valueOf, jsonText, Tokens } = require('./_json.cjs');
const { installerLibDir } = require('./_installer.cjs');
const { kindOf, stringLike } = require('./_args.cjs');
const { readBounded } = require('../overlays.js');

const base = native.profiles();
const PROFILES = Object.freeze({
  core: Object.freeze(base.core),
  standard: Object.freeze(base.standard),
  full: '*',
});
const PROFILE_RANK = Object.freeze(native.vocabulary().profileRank);
/** A profile name that no rank lists (no profile name is empty). */
const UNKNOWN_PROFILE = '';

/**
 * The GSD package whose sources are read by default (only looked up when needed): the
 * installer's own (its `gsd-core/bin/lib` is loaded), as the peer reads the package it
 * ships in; else the one this package resolves.
 */
function defaultRoot() {
  const lib = installerLibDir();
  if (lib !== null) return path.resolve(lib, '..', '..', '..');
  try {
    return path.dirname(require.resolve('@opengsd/gsd-core/package.json', { paths: [__dirname] }));
  } catch {
    throw new TypeError('loadSkillsManifest: no GSD package found; pass commandsDir and workflowsDir');
  }
}

/**
 * The workflow files under `dir` (`/`-separated, sorted) as the peer's installer reads
 * them: regular files at any depth; at the top, where a workflow (`<name>.md`) and its
 * fragment folder (`<name>/`) are opened by path, a symbolic link is followed too (to a
 * file, or a folder walked the same way), and below it a link is passed over, as the
 * peer's fragment walk does. `fail(dir, err, prefix)` answers a folder that cannot be
 * listed (the default: nothing in it, as the peer skips it).
 * @param {string} dir
 * @param {(dir: string, err: unknown, prefix: string) => string[]} [fail]
 * @param {string} [prefix]
 * @returns {string[]}
 */
function workflowFiles(dir, fail = () => [], prefix = '') {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    return fail(dir, err, prefix);
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      const full = path.join(dir, e.name);
      let kind = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : null;
      if (kind === null && prefix === '' && e.isSymbolicLink()) {
        try {
          const target = fs.statSync(full);
          kind = target.isDirectory() ? 'dir' : target.isFile() ? 'file' : null;
        } catch {
          kind = null;
        }
      }
      if (kind === 'dir') return workflowFiles(full, fail, rel);
      return kind === 'file' ? [rel] : [];
    });
}

function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function loadSkillsManifest(commandsDir = path.join(defaultRoot(), 'commands', 'gsd'), workflowsDir = path.join(defaultRoot(), 'gsd-core', 'workflows')) {
  // As the peer: a folder that is not there (or no folder, `null`) holds nothing; one that
  // is there and cannot be listed (a file) fails as listing it fails.
  if (!fs.existsSync(commandsDir)) return new Map();
  // In listing order, as the peer fills its Map.
  const commands = fs
    .readdirSync(commandsDir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => ({ stem: e.name.slice(0, -3), body: readOr(path.join(commandsDir, e.name), '') }));
  if (commands.length === 0) return new Map();
  const workflows = workflowFiles(workflowsDir).map((rel) => ({ path: rel, body: readOr(path.join(workflowsDir, rel), '') }));
  return new Map(valueOf(native.compatSkillsManifest(jsonText({ commands, workflows }))));
}

/**
 * The skills `registry` adds to `mode`, read as the peer reads it: each capability of
 * `capabilityClusters` (own keys, except the names that reach a prototype) whose
 * `profileMembership` entry lists the mode in its `profiles` array adds its cluster's
 * non-empty strings, in order.
 */
function capabilitySkills(mode, registry) {
  const clusters = registry?.capabilityClusters;
  const membership = registry?.profileMembership;
  if (clusters === null || typeof clusters !== 'object' || membership === null || typeof membership !== 'object') return [];
  const skills = [];
  for (const id of Object.keys(clusters)) {
    if (id === '__proto__' || id === 'constructor' || id === 'prototype') continue;
    const member = membership[id];
    if (member === null || typeof member !== 'object' || !Array.isArray(member.profiles) || !member.profiles.includes(mode)) continue;
    const cluster = clusters[id];
    if (!Array.isArray(cluster)) continue;
    for (const stem of cluster) if (typeof stem === 'string' && stem.length > 0) skills.push(stem);
  }
  return skills;
}

function resolveProfile({ modes, manifest, _profilesOverride, registry } = {}) {
  if (_profilesOverride) throw new TypeError('resolveProfile: _profilesOverride is not supported');
  // A non-empty `modes` is a list of modes: the peer maps over it with an array method,
  // which a string (whose characters would otherwise read as modes) does not have.
  const given = Boolean(modes && modes.length > 0);
  if (given && typeof modes.flatMap !== 'function') {
    throw new TypeError(`resolveProfile: modes must be an array (got ${kindOf(modes)})`);
  }
  // No manifest holds no requirement; any other is the peer's Map (or a subclass). One that
  // is not a Map is refused when the profile reads it (not for full, as the peer).
  const isMap = manifest instanceof Map;
  // A key or item the core cannot tell apart as a string (not a string, or one holding a
  // lone surrogate, which crosses as U+FFFD) crosses as a token of its own, so two of them
  // stay two, as they are two keys of the Map.
  const tokens = new Tokens();
  const cross = (v) => (typeof v === 'string' && v.isWellFormed() && !v.includes('\0') ? v : tokens.of(v));
  const back = (text) => (/^\0\d+\0$/.test(text) ? tokens.value(text) : text);
  // The peer reads a key's list only when its walk reaches the key, as `get(key) || []`
  // iterated with `for...of`: a falsy value is no list, and a value that cannot be iterated
  // (a number, a plain object) or whose iteration throws fails then, not before. So a list
  // that cannot be read crosses empty, and its failure is raised only if the walk reaches it.
  const failures = new Map();
  const listOf = (key, list) => {
    if (!list) return [];
    try {
      if (typeof list[Symbol.iterator] !== 'function') throw NOT_ITERABLE;
      return Array.from(list, cross);
    } catch (err) {
      failures.set(key, err);
      return [];
    }
  };
  const entries = isMap
    ? [...manifest].map(([key, list]) => {
        const crossed = cross(key);
        return [crossed, listOf(crossed, list)];
      })
    : [];
  const list = given ? [...modes].map(String) : [];
  // The registry is read for the modes the peer reads it for, in its order: the known
  // modes, when none is full.
  const wanted = (given ? list : ['full']).flatMap((m) => m.split(',')).map((m) => m.trim()).filter(Boolean);
  const capability = {};
  if (registry && !wanted.includes('full')) {
    for (const mode of wanted) if (Object.hasOwn(PROFILES, mode)) capability[mode] = capabilitySkills(mode, registry).map(cross);
  }
  const resolved = valueOf(native.compatResolveProfile(jsonText({ modes: list, entries, capabilitySkills: capability })));
  if (manifest && !isMap && resolved.skills !== '*') throw new TypeError(`resolveProfile: manifest must be a Map (got ${kindOf(manifest)})`);
  if (failures.size > 0 && resolved.skills !== '*') {
    // The peer walks the requires lists of the skills it selects, then their agents lists.
    const reached = (key, variable) => {
      const failure = failures.get(key);
      if (failure === undefined) return;
      throw failure === NOT_ITERABLE ? new TypeError(`${variable} is not iterable`) : failure;
    };
    for (const stem of resolved.skills) reached(stem, 'deps');
    for (const stem of resolved.skills) reached(cross(`${CALLS_AGENTS_PREFIX}${back(stem)}`), 'agentRefs');
  }
  return {
    name: resolved.name,
    skills: resolved.skills === '*' ? '*' : new Set(resolved.skills.map(back)),
    agents: new Set(resolved.agents.map(back)),
  };
}

function parseRequires(content) {
  // The peer matches the text with a string method: a value without one is a TypeError.
  stringLike(content, 'match', 'parseRequires: content');
  return native.parseRequires(String(content));
}

function mostRestrictiveProfile(profileNames) {
  // A name is found in the profile ranks only when it is that string itself; any other
  // value reads as an unknown name (which ranks as `full`).
  const names = profileNames ? [...profileNames].map((name) => (typeof name === 'string' ? name : UNKNOWN_PROFILE)) : [];
  return native.mostRestrictiveProfile(names);
}

const MARKERS = valueOf(native.compatProfileMarkers());
const CAPABILITY_SKILL_MARKER = MARKERS.capabilitySkill;
/** The skills manifest's key of a command's agents is this prefix and the command's stem. */
const CALLS_AGENTS_PREFIX = MARKERS.callsAgentsPrefix;
/** Stands for "this list cannot be iterated" until the walk says which list it was. */
const NOT_ITERABLE = Symbol('not iterable');
const MINIMAL_SKILL_ALLOWLIST = Object.freeze([...PROFILES.core]);

/** The longest profile marker read, in bytes: a marker holds profile names. */
const PROFILE_MARKER_MAX_BYTES = 64 * 1024;

/**
 * The profile marker of `runtimeConfigDir`: `null` when there is none (no file, or one that
 * cannot be opened: a first install, as the peer reads it); `{ file, name }` with the
 * profile it records (`null` when its text names none); or `{ file, refused }` when the
 * path holds something that is not a marker (not a regular file, over 64 KiB, not UTF-8),
 * which reads as no marker too, never blocking and never reading without end.
 * @param {string} runtimeConfigDir
 */
function profileMarker(runtimeConfigDir) {
  const file = path.join(runtimeConfigDir, MARKERS.profile);
  const read = readBounded(file, PROFILE_MARKER_MAX_BYTES, Number.POSITIVE_INFINITY, true);
  if (read.text !== undefined) return { file, name: valueOf(native.compatParseProfileMarker(read.text)) };
  if (read.oversize !== undefined) {
    return { file, refused: `is ${read.oversize} bytes, more than a profile marker's ${PROFILE_MARKER_MAX_BYTES}` };
  }
  const [code, what] = read.fault;
  return code === 'overlay_unreadable' ? null : { file, refused: what };
}

function readActiveProfile(runtimeConfigDir) {
  const marker = profileMarker(runtimeConfigDir);
  return marker === null || marker.refused !== undefined ? null : marker.name;
}

function resolveEffectiveProfile({ requestedProfileName, targetDir }) {
  const requested = requestedProfileName != null;
  // The marker is read only when no name is given (an explicit name never touches the disk).
  const marker = requested ? null : readActiveProfile(targetDir);
  const choice = valueOf(native.compatEffectiveProfile(requested, marker ?? undefined));
  if (choice.source === 'requested') return requestedProfileName;
  return choice.source === 'marker' ? choice.profile : 'full';
}

function isMinimalMode(mode) {
  return typeof mode === 'string' && native.compatIsMinimalMode(mode);
}

function isSafeCapabilitySkillStem(stem) {
  return typeof stem === 'string' && native.compatIsSafeSkillStem(stem) && !path.isAbsolute(stem);
}

module.exports = {
  PROFILES,
  PROFILE_RANK,
  loadSkillsManifest,
  workflowFiles,
  resolveProfile,
  resolveEffectiveProfile,
  mostRestrictiveProfile,
  readActiveProfile,
  profileMarker,
  parseRequires,
  isSafeCapabilitySkillStem,
  CAPABILITY_SKILL_MARKER,
  MINIMAL_SKILL_ALLOWLIST,
  isMinimalMode,
};
