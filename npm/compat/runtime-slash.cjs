'use strict';
// Drop-in for the pure half of the peer's `runtime-slash.cjs` (+ the runtime-name policy
// it uses), backed by the native core.
//
// Not provided: readInstallRuntimeMarker, resolveRuntime, formatGsdSlashFor and their
// test hooks: they read an install marker relative to the peer's own package folder.

const fs = require('node:fs');
const path = require('node:path');
const native = require('../binding.js');

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

function resolveExplicitRuntime(projectDir, env = process.env) {
  const fromEnv = resolveRuntimeNameFromCandidates(env.GSD_RUNTIME);
  if (fromEnv) return fromEnv;
  if (projectDir) {
    try {
      const configPath = path.join(projectDir, '.planning', 'config.json');
      if (fs.existsSync(configPath)) {
        const parsed = JSON.parse(fs.readFileSync(configPath, 'utf-8'));
        if (parsed && typeof parsed === 'object' && 'runtime' in parsed) {
          const fromConfig = resolveRuntimeNameFromCandidates(parsed.runtime);
          if (fromConfig) return fromConfig;
        }
      }
    } catch {
      // an unreadable or malformed project config names no runtime
    }
  }
  return null;
}

module.exports = { formatGsdSlash, resolveExplicitRuntime, canonicalizeRuntimeName, resolveRuntimeNameFromCandidates };
Object.defineProperty(module.exports, '__esModule', { value: true });
