'use strict';
// Drop-in for the pure half of the peer's `runtime-artifact-layout.cjs`, backed by the
// native core: layouts (without the IO `stage` half), the trigger surface and the command
// file-name rules.
//
// Differences: the `registry` / `capabilityRegistry` arguments are accepted and ignored
// (the embedded first-party registry answers); `stage` and findInstallSourceRoot (IO) are
// not provided.

const os = require('node:os');
const native = require('../binding.js');
const { renderJson } = require('./_host.cjs');
const { isInstallScopeId } = require('./install-scope.cjs');

function unknownRuntime(runtime) {
  return new TypeError(`Unknown runtime: '${runtime}' — add to runtime-artifact-layout.cjs table`);
}

function resolveRuntimeArtifactLayoutFromRegistry(_registry, runtime, configDir, scope = 'global') {
  if (typeof configDir !== 'string' || configDir === '') throw new TypeError('configDir must be a non-empty string');
  if (!isInstallScopeId(scope)) throw new TypeError('scope must be "local" or "global"');
  let layout;
  try {
    layout = native.resolveLayout(String(runtime), configDir, scope, { home: os.homedir(), cwd: process.cwd() });
  } catch (err) {
    if (err.code === 'UNKNOWN_RUNTIME') throw unknownRuntime(runtime);
    if (err.code === 'INVALID_DESCRIPTOR') throw new TypeError(`resolveRuntimeArtifactLayout: ${err.message}`);
    throw err;
  }
  return {
    runtime: layout.runtime,
    configDir: layout.configDir,
    scope: layout.scope,
    kinds: layout.kinds.map((k) => {
      const kind = { kind: k.kind, destSubpath: k.destSubpath, prefix: k.prefix };
      if (k.kind === 'skills') kind.converter = k.converter;
      if (k.home != null) kind.home = k.home;
      return kind;
    }),
  };
}

function resolveRuntimeArtifactLayout(runtime, configDir, scope = 'global', capabilityRegistry) {
  return resolveRuntimeArtifactLayoutFromRegistry(capabilityRegistry, runtime, configDir, scope);
}

function resolveTriggerSurface(runtime, scopes, opts) {
  void opts.registry;
  const stems = [...(opts.stems ?? [])].map(String);
  const input = { stems, routerStems: [...(opts.routerStems ?? [])].map(String), childToRouters: opts.childToRouters ?? {} };
  const call = (ids) => {
    try {
      return native.resolveTriggerSurface(String(runtime), ids, input);
    } catch (err) {
      if (err.code === 'UNKNOWN_RUNTIME') throw unknownRuntime(runtime);
      throw err;
    }
  };
  call([]);
  for (const scope of scopes) {
    if (!isInstallScopeId(scope)) {
      throw new TypeError(`resolveTriggerSurface: id must be one of 'global' | 'local', got ${renderJson(scope)}`);
    }
  }
  return call([...scopes]);
}

function isNamespacedByDir(kind, destSubpath, prefix) {
  return native.isNamespacedByDir(String(kind), String(destSubpath), prefix ? String(prefix) : '');
}

function composeCommandFilename(namespacedByDir, prefix, stem) {
  return native.composeCommandFilename(Boolean(namespacedByDir), String(prefix), String(stem));
}

module.exports = {
  resolveRuntimeArtifactLayout,
  resolveRuntimeArtifactLayoutFromRegistry,
  resolveTriggerSurface,
  isNamespacedByDir,
  composeCommandFilename,
};
Object.defineProperty(module.exports, '__esModule', { value: true });
