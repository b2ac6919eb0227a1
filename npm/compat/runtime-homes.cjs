'use strict';
// Drop-in for the peer's `runtime-homes.cjs`, backed by the native core: same export
// names, return values, error classes and messages. The by-id helpers (getGlobalConfigDir,
// getGlobalSkillsBase, ...) read the real machine as the peer does: this process's
// environment and home directory, and on disk exactly the probe paths the core lists.

const path = require('node:path');
const fs = require('node:fs');
const native = require('../binding.js');
const { hostFrom, withProbes, failLikeThePeer } = require('./_host.cjs');
const { answer, valueOf, jsonText } = require('./_json.cjs');
const { stringLike } = require('./_args.cjs');

const KINDS = new Set(native.vocabulary().configHomeKind);
const RUNTIME_IDS = new Set(native.Registry.firstParty().runtimeIds());

const LEGACY_NON_REGISTRY_RUNTIME_IDS = new Set(['grok']);
const KIMI_HOOKS_TOML_DESCRIPTOR = { kind: 'dot-home', name: '.kimi', env: ['KIMI_SHARE_DIR'] };
const KIMI_CODE_HOOKS_TOML_DESCRIPTOR = { kind: 'dot-home', name: '.kimi-code', env: ['KIMI_CODE_HOME'] };
const NON_REGISTRY_CONFIG_HOME_DESCRIPTORS = [KIMI_HOOKS_TOML_DESCRIPTOR, KIMI_CODE_HOOKS_TOML_DESCRIPTOR];
const GSD_LOCATION_ENV_KEYS = ['GSD_HOME', 'GSD_AGENTS_DIR'];

function isRegisteredRuntimeId(runtime) {
  if (typeof runtime !== 'string') return false;
  const trimmed = runtime.trim();
  return trimmed !== '' && (RUNTIME_IDS.has(trimmed) || LEGACY_NON_REGISTRY_RUNTIME_IDS.has(trimmed));
}

function noConfigHome(name) {
  return new Error(`Runtime "${name}" has no config-home directory (configHome.kind === "none")`);
}

/** Resolves through the core: probe list → existsSync on exactly those → resolution. */
function resolveWith(configHome, opts, resolve) {
  const host = hostFrom(opts, configHome);
  const probes = native.configHomeProbePaths(configHome, host);
  try {
    return failLikeThePeer(opts, resolve(withProbes(host, probes, opts.existsSync)).configHome);
  } catch (err) {
    if (err.code === 'NO_CONFIG_HOME') throw noConfigHome(configHome.name);
    throw err;
  }
}

function resolveConfigHomeFromDescriptor(configHome, opts = {}) {
  if (!KINDS.has(configHome.kind)) return undefined;
  if (configHome.kind === 'none') throw noConfigHome(configHome.name);
  // The descriptor crosses as data: members JSON cannot carry (a BigInt, a function) read as
  // absent, as they do in a descriptor given as JSON text.
  const descriptor = JSON.parse(jsonText(configHome));
  return resolveWith(descriptor, opts, (host) => native.resolveConfigHomeOf(descriptor, host));
}

function registryConfigHome(runtime) {
  return native.Registry.firstParty().runtimes().find((r) => r.id === runtime).descriptor.configHome;
}

function resolveAntigravityGlobalDir(opts = {}) {
  return resolveConfigHomeFromDescriptor(registryConfigHome('antigravity'), opts);
}

function resolveKimiGlobalDir(opts = {}) {
  return resolveConfigHomeFromDescriptor(registryConfigHome('kimi'), opts);
}

function detectAntigravityDirAmbiguity(opts = {}) {
  const env = opts.env ?? process.env;
  const home = opts.home ?? require('node:os').homedir();
  const existsSync = opts.existsSync ?? fs.existsSync;
  const { parent, probe, probeExists } = registryConfigHome('antigravity');
  const candidates = probe.map((c) => path.join(home, parent, c));
  const presentDirs = candidates.filter((dir) => existsSync(dir));
  const gsdMarkedDirs = candidates.filter((dir) => existsSync(path.join(dir, probeExists)));
  return {
    ambiguous: presentDirs.length > 1,
    resolved: resolveAntigravityGlobalDir({ env, home, existsSync }),
    presentDirs,
    gsdMarkedDirs,
    envOverridden: Boolean(env.ANTIGRAVITY_CONFIG_DIR),
  };
}

function resolveKimiHooksTomlDir(opts = {}) {
  // Read in the peer's order: `env`, `home`, then `runtime`.
  const env = opts.env;
  const home = opts.home;
  const descriptor = opts.runtime === 'kimi-code' ? KIMI_CODE_HOOKS_TOML_DESCRIPTOR : KIMI_HOOKS_TOML_DESCRIPTOR;
  return resolveConfigHomeFromDescriptor(descriptor, { env, home });
}

/** The real machine as host data, with the probes the by-id helpers of `runtime` may test. */
function ambientHost(runtime) {
  const host = hostFrom({});
  const probes = valueOf(native.compatGlobalDirsProbePaths(runtime, jsonText(host)));
  return jsonText(withProbes(host, probes, fs.existsSync));
}

/** A by-id answer of the core; a `none` config home fails with the peer's message. */
function byId(runtime, text) {
  const a = answer(text);
  if (!a.error) return a.value;
  if (a.error.code === 'NO_CONFIG_HOME') throw noConfigHome(registryConfigHome(runtime).name);
  throw new Error(a.error.message);
}

function getGlobalConfigDir(runtime, explicitDir) {
  const id = String(runtime);
  // An explicit directory is a path: the peer expands its `~` with string methods.
  if (explicitDir) stringLike(explicitDir, 'startsWith', 'getGlobalConfigDir: explicitDir');
  const explicit = explicitDir ? String(explicitDir) : undefined;
  const dir = byId(id, native.compatGlobalConfigDir(id, explicit, ambientHost(id)));
  // A directory given as a `String` object, with no `~` to expand, is answered as given.
  return typeof explicitDir === 'object' && dir === explicit ? explicitDir : dir;
}

function resolveSkillsBaseFromDescriptor(configHome, opts = {}, skillsDestSubpath = 'skills') {
  const base = configHome.skillsHome ?? configHome;
  if (!KINDS.has(base.kind)) return path.join(undefined, skillsDestSubpath);
  if (base.kind === 'none') throw noConfigHome(base.name);
  if (typeof skillsDestSubpath !== 'string') path.join('.', skillsDestSubpath);
  const descriptor = jsonText(configHome);
  const host = hostFrom(opts, configHome);
  const probes = valueOf(native.compatSkillsBaseProbePaths(descriptor, jsonText(host)));
  const facts = jsonText(withProbes(host, probes, opts.existsSync));
  return failLikeThePeer(opts, valueOf(native.compatSkillsBaseFromDescriptor(descriptor, facts, skillsDestSubpath)));
}

function getGlobalSkillsBase(runtime) {
  const id = String(runtime);
  return byId(id, native.compatGlobalSkillsBase(id, ambientHost(id)));
}

function getGlobalSkillDir(runtime, skillName) {
  const id = String(runtime);
  if (typeof skillName !== 'string') {
    const base = getGlobalSkillsBase(runtime);
    return base === null ? null : path.join(base, skillName);
  }
  return byId(id, native.compatGlobalSkillDir(id, skillName, ambientHost(id)));
}

function getGlobalSkillDisplayPath(runtime, skillName) {
  const id = String(runtime);
  if (typeof skillName !== 'string') getGlobalSkillDir(runtime, skillName);
  return byId(id, native.compatGlobalSkillDisplayPath(id, String(skillName), ambientHost(id)));
}

module.exports = {
  LEGACY_NON_REGISTRY_RUNTIME_IDS,
  KIMI_HOOKS_TOML_DESCRIPTOR,
  KIMI_CODE_HOOKS_TOML_DESCRIPTOR,
  NON_REGISTRY_CONFIG_HOME_DESCRIPTORS,
  GSD_LOCATION_ENV_KEYS,
  isRegisteredRuntimeId,
  resolveConfigHomeFromDescriptor,
  resolveAntigravityGlobalDir,
  detectAntigravityDirAmbiguity,
  resolveKimiGlobalDir,
  resolveKimiHooksTomlDir,
  getGlobalConfigDir,
  resolveSkillsBaseFromDescriptor,
  getGlobalSkillsBase,
  getGlobalSkillDir,
  getGlobalSkillDisplayPath,
};
Object.defineProperty(module.exports, '__esModule', { value: true });
