'use strict';
// Drop-in for the peer's `runtime-artifact-layout.cjs`, backed by the native core: layouts,
// the trigger surface and the command file-name rules.
//
// A layout's values come from the core. Each kind's `stage` (copying the package's sources
// into a staging directory: file IO and body conversion) is the installer's own: when the
// installer's `runtime-artifact-layout.cjs` is loaded (see `_installer.cjs`), its `stage`
// for the same kind is attached at the same key position; otherwise kinds carry no `stage`.
// Differences: the `registry` / `capabilityRegistry` arguments only reach the installer's
// `stage` (the embedded first-party registry answers the values); findInstallSourceRoot
// (IO) is not provided.

const os = require('node:os');
const native = require('../binding.js');
const { renderJson } = require('./_host.cjs');
const { stringLike, spelled } = require('./_args.cjs');
const { isInstallScopeId } = require('./install-scope.cjs');
const { installerModule } = require('./_installer.cjs');

function unknownRuntime(runtime) {
  return new TypeError(`Unknown runtime: '${runtime}' — add to runtime-artifact-layout.cjs table`);
}

/** The installer's kinds for the same call (for their `stage`), or `null`. */
function installerKinds(call) {
  const theirs = installerModule('runtime-artifact-layout.cjs');
  if (!theirs || theirs === module.exports) return null;
  try {
    return call(theirs).kinds;
  } catch {
    return null;
  }
}

function coreLayout(runtime, configDir, scope) {
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
    // The peer hands the runtime back as it was given (`['claude']` stays an array).
    runtime,
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

/** `layout` with the installer's `stage` of each same-named kind, placed before `home`. */
function withStages(layout, call) {
  const theirs = installerKinds(call);
  if (theirs === null) return layout;
  const kinds = layout.kinds.map((kind, i) => {
    const stage = theirs[i]?.kind === kind.kind ? theirs[i].stage : undefined;
    if (typeof stage !== 'function') return kind;
    const { home, ...rest } = kind;
    return home === undefined ? { ...rest, stage } : { ...rest, stage, home };
  });
  return { ...layout, kinds };
}

function resolveRuntimeArtifactLayoutFromRegistry(registry, runtime, configDir, scope = 'global') {
  const layout = coreLayout(runtime, configDir, scope);
  return withStages(layout, (m) => m.resolveRuntimeArtifactLayoutFromRegistry(registry, runtime, configDir, scope));
}

function resolveRuntimeArtifactLayout(runtime, configDir, scope = 'global', capabilityRegistry) {
  const layout = coreLayout(runtime, configDir, scope);
  return withStages(layout, (m) => m.resolveRuntimeArtifactLayout(runtime, configDir, scope, capabilityRegistry));
}

function resolveTriggerSurface(runtime, scopes, opts) {
  void opts.registry;
  const call = (ids, input) => {
    try {
      return native.resolveTriggerSurface(String(runtime), ids, input);
    } catch (err) {
      if (err.code === 'UNKNOWN_RUNTIME') throw unknownRuntime(runtime);
      throw err;
    }
  };
  // The peer's order: the runtime, then every scope, then the router stems; the stems are
  // read last, and only when a selected scope has a command or skill entry to name.
  call([], { stems: [] });
  for (const scope of scopes) {
    if (!isInstallScopeId(scope)) {
      throw new TypeError(`resolveTriggerSurface: id must be one of 'global' | 'local', got ${renderJson(scope)}`);
    }
  }
  const ids = [...new Set(scopes)];
  const routerSet = new Set(opts.routerStems ?? []);
  const childToRouters = opts.childToRouters ?? {};
  // One probe answers both questions the peer's data decides nothing about: whether a
  // selected scope has a command or skill entry at all, and whether one of them nests
  // skills under routers (the probe stem is then routed).
  const probe = call(ids, { stems: ['probe'], routerStems: ['router'], childToRouters: { probe: ['router'] } });
  if (probe.length === 0) return [];
  const nests = probe.some((t) => t.registration === 'via-router');
  const given = [...(opts.stems ?? [])];
  const stems = given.map((s) => spelled(s, 'resolveTriggerSurface: a stem'));
  // The peer tells a router by `Set.has`, the value as given: a router that is not a
  // string (the number 5) makes no stem spelled `'5'` a router, only the stem 5 itself, and
  // still routes the children that name it.
  const routed = nests ? routedAs(given, routerSet, childToRouters) : {};
  const routerStems = [
    ...new Set([
      ...[...routerSet].filter((r) => typeof r === 'string'),
      ...given.filter((s) => routerSet.has(s)).map(String),
      ...Object.values(routed).map(([router]) => router),
    ]),
  ];
  return call(ids, { stems, routerStems, childToRouters: routed });
}

/**
 * The router each stem is installed under, as the peer finds it when a selected kind nests
 * skills under routers: only when there are router stems, for each stem that is not a
 * router, its `childToRouters` member read as a property, whose first item routes it when
 * that item is a router stem itself (compared as given, so `5` is not `'5'`). Anything
 * else the peer reads as "not routed", whatever its type (a string, a number, `null`, an
 * array-like object), so only the routed stems cross, each with its one router.
 */
function routedAs(stems, routerSet, childToRouters) {
  /** @type {Record<string, string[]>} */
  const routed = {};
  if (routerSet.size === 0) return routed;
  for (const stem of stems) {
    if (routerSet.has(stem)) continue;
    const owning = childToRouters[stem];
    const router = owning && owning.length > 0 ? owning[0] : undefined;
    if (router !== undefined && routerSet.has(router)) routed[String(stem)] = [String(router)];
  }
  return routed;
}

function isNamespacedByDir(kind, destSubpath, prefix) {
  stringLike(destSubpath, 'replace', 'isNamespacedByDir: destSubpath');
  if (prefix) stringLike(prefix, 'replace', 'isNamespacedByDir: prefix');
  // Only the string `commands` names the commands kind (compared, not converted).
  if (kind !== 'commands') return false;
  return native.isNamespacedByDir(kind, String(destSubpath), prefix ? String(prefix) : '');
}

function composeCommandFilename(namespacedByDir, prefix, stem) {
  // The prefix is spelled only when it is part of the name, and before the stem.
  const spelledPrefix = namespacedByDir ? '' : spelled(prefix, 'composeCommandFilename: prefix');
  return native.composeCommandFilename(Boolean(namespacedByDir), spelledPrefix, spelled(stem, 'composeCommandFilename: stem'));
}

module.exports = {
  resolveRuntimeArtifactLayout,
  resolveRuntimeArtifactLayoutFromRegistry,
  resolveTriggerSurface,
  isNamespacedByDir,
  composeCommandFilename,
};
Object.defineProperty(module.exports, '__esModule', { value: true });
