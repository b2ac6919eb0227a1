'use strict';
// Drop-in for the peer's `install-scope.cjs`, backed by the native core: same exports,
// same return shapes (key order included), same error classes and messages.

const native = require('../binding.js');
const { hostFrom, withProbes, renderJson, failLikeThePeer } = require('./_host.cjs');

const ORDER = native.scopeOrder();
const RANK = Object.fromEntries(ORDER.map(({ id, rank }) => [id, rank]));

/** Highest precedence first. */
const SCOPE_ORDER = Object.freeze(ORDER.map(({ id }) => id));

function isInstallScopeId(value) {
  if (typeof value !== 'string') return false;
  try {
    native.parseScope(value);
    return true;
  } catch (err) {
    if (err.code === 'INVALID_SCOPE') return false;
    throw err;
  }
}

function validateScopeId(id, caller) {
  if (!isInstallScopeId(id)) {
    throw new TypeError(`${caller}: id must be one of 'global' | 'local', got ${renderJson(id)}`);
  }
  return id;
}

function isGlobalScope(scope) {
  return validateScopeId(scope, 'isGlobalScope') === 'global';
}

function scopeRank(id) {
  return RANK[validateScopeId(id, 'scopeRank')];
}

function unknownRuntime(runtime) {
  return new TypeError(`resolveScope: unknown runtime '${String(runtime)}' — not present in the capability registry`);
}

function resolveScope(input) {
  const id = validateScopeId(input?.id, 'resolveScope');
  const runtime = input.runtime;
  if (typeof runtime !== 'string') throw unknownRuntime(runtime);
  const explicitDir = typeof input.explicitDir === 'string' ? input.explicitDir : undefined;
  const host = hostFrom(input);
  let resolved;
  try {
    const probes = native.scopeProbePaths(runtime, id, host, explicitDir);
    resolved = native.resolveScope(runtime, id, withProbes(host, probes, input.existsSync), explicitDir);
  } catch (err) {
    if (err.code === 'UNKNOWN_RUNTIME') throw unknownRuntime(runtime);
    if (err.code === 'NO_CONFIG_HOME') {
      throw new TypeError(`resolveScope: runtime '${runtime}' has no installable config directory (configHome.kind === 'none')`);
    }
    throw err;
  }
  failLikeThePeer(input, resolved.configHome);
  return Object.freeze({
    id: resolved.id,
    configHome: resolved.configHome,
    settingsFile: resolved.settingsFile,
    consentRequired: resolved.consentRequired,
    hostPrecedenceRank: resolved.hostPrecedenceRank,
  });
}

module.exports = { SCOPE_ORDER, validateScopeId, isInstallScopeId, resolveScope, isGlobalScope, scopeRank };
Object.defineProperty(module.exports, '__esModule', { value: true });
