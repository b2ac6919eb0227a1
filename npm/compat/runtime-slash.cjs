'use strict';
// Drop-in for the peer's `runtime-slash.cjs` (+ the runtime-name policy it uses), backed by
// the native core. The core decides name normalisation, the slash spelling and which
// source names the runtime (GSD_RUNTIME > project config > install marker > claude); this
// module reads the sources. The install marker is `<gsd-core>/.gsd-runtime` of the
// installer being served (the folder above its `bin/lib`, see `_installer.cjs`), read once
// per process as the peer does.

const fs = require('node:fs');
const path = require('node:path');
const native = require('../binding.js');
const { valueOf } = require('./_json.cjs');
const { installerLibDir } = require('./_installer.cjs');

function formatGsdSlash(commandName, runtime) {
  if (typeof commandName !== 'string') return commandName;
  return native.formatGsdSlash(commandName, typeof runtime === 'string' && runtime ? runtime : undefined);
}

function canonicalizeRuntimeName(value) {
  if (typeof value !== 'string') return null;
  return native.canonicalizeRuntimeName(value);
}

function resolveRuntimeNameFromCandidates(...candidates) {
  return native.resolveRuntimeNameFromCandidates(candidates.filter((c) => typeof c === 'string'));
}

/** `value` when it is a string (the only candidates the core reads), else `undefined`. */
function candidate(value) {
  return typeof value === 'string' ? value : undefined;
}

/** The project config's `runtime` when `.planning/config.json` is a readable JSON object. */
function configRuntime(projectDir) {
  if (!projectDir) return undefined;
  try {
    const configPath = path.join(projectDir, '.planning', 'config.json');
    if (!fs.existsSync(configPath)) return undefined;
    const parsed = JSON.parse(fs.readFileSync(configPath, 'utf-8'));
    return parsed && typeof parsed === 'object' && 'runtime' in parsed ? candidate(parsed.runtime) : undefined;
  } catch {
    return undefined; // an unreadable or malformed project config names no runtime
  }
}

function resolveExplicitRuntime(projectDir, env = process.env) {
  return valueOf(native.compatExplicitRuntime(candidate(env.GSD_RUNTIME), configRuntime(projectDir)));
}

let installMarker;

function readInstallRuntimeMarker() {
  if (installMarker !== undefined) return installMarker;
  try {
    const lib = installerLibDir();
    const raw = lib === null ? '' : fs.readFileSync(path.join(lib, '..', '..', '.gsd-runtime'), 'utf8').trim();
    installMarker = raw || null;
  } catch {
    installMarker = null; // no marker: a source tree or an older install
  }
  return installMarker;
}

function _setInstallRuntimeMarkerForTests(value) {
  installMarker = value;
}

function _resetInstallRuntimeMarkerCacheForTests() {
  installMarker = undefined;
}

function resolveRuntime(projectDir) {
  const explicit = resolveExplicitRuntime(projectDir);
  if (explicit) return explicit;
  return valueOf(native.compatResolveRuntime(undefined, candidate(readInstallRuntimeMarker())));
}

function formatGsdSlashFor(projectDir, commandName) {
  return formatGsdSlash(commandName, resolveRuntime(projectDir));
}

module.exports = {
  formatGsdSlash,
  readInstallRuntimeMarker,
  _setInstallRuntimeMarkerForTests,
  _resetInstallRuntimeMarkerCacheForTests,
  resolveExplicitRuntime,
  resolveRuntime,
  formatGsdSlashFor,
  canonicalizeRuntimeName,
  resolveRuntimeNameFromCandidates,
};
Object.defineProperty(module.exports, '__esModule', { value: true });
