'use strict';
// Drop-in for the peer's `runtime-artifact-install-plan.cjs`, backed by the native core.
//
// The core decides each kind's confined destination (and the refusal text), the body
// rewrite a kind goes through and the path prefix; this module only calls back into the
// installer in the peer's order: `kind.stage`, the body rewriter, then the destination.
// The body rewriters are the installer's (`deps.rewriteStagedSkillBodies` /
// `deps.rewriteStagedCommandBodies`, else its own `runtime-artifact-conversion.cjs`, see
// `_installer.cjs`): rewriting bodies is file IO and content conversion, not an axis here.

const os = require('node:os');
const path = require('node:path');
const native = require('../binding.js');
const { valueOf, jsonText } = require('./_json.cjs');
const { stringLike } = require('./_args.cjs');
const { isGlobalScope } = require('./install-scope.cjs');
const { installerModule } = require('./_installer.cjs');

/** The peer's refusal for a destination that cannot be a string path. */
function notStrictSubpath(configDir, destSubpath) {
  return new Error(
    `destSubpath "${destSubpath}" must be a strict subpath of configHome "${configDir}" — not configHome itself or outside it (escapes configHome)`,
  );
}

/**
 * The peer's refusal of a destination the core refused. The core's message shows the paths
 * made safe to print (a control character as U+FFFD); the peer's repeats them as given, so
 * the message is spelled here from the same values.
 */
function refusal(configDir, destSubpath) {
  if (destSubpath.includes('\0')) return new Error(`destSubpath "${destSubpath}" contains a NUL byte and is not valid`);
  return notStrictSubpath(configDir, destSubpath);
}

function assertDestWithinConfigHome(configDir, destSubpath) {
  // Argument shapes fail as the peer's do: a value without `includes` is a TypeError; a
  // configDir that is not a path string is `path.resolve`'s own TypeError — unless the core
  // refuses a NUL in destSubpath first.
  const nul = destSubpath.includes('\0');
  if (!(nul && typeof destSubpath === 'string')) path.resolve(configDir);
  if (typeof destSubpath !== 'string') throw notStrictSubpath(configDir, destSubpath);
  try {
    return valueOf(native.compatDestWithinRoot(process.cwd(), String(configDir), destSubpath));
  } catch (err) {
    if (err.code === 'DESTINATION_OUTSIDE_CONFIG_HOME') throw refusal(configDir, destSubpath);
    throw new Error(err.message);
  }
}

function errorMessage(err) {
  return err instanceof Error ? err.message : String(err);
}

/** The installer's body rewriters (`deps` first). */
function rewriters(deps) {
  let engine;
  const fromEngine = (name) => {
    if (engine === undefined) engine = installerModule('runtime-artifact-conversion.cjs');
    if (!engine) {
      throw new Error(`runtime-artifact-install-plan: no ${name}: pass deps.${name} or load the installer's runtime-artifact-conversion.cjs first`);
    }
    return engine[name];
  };
  return {
    skillBodies: (...a) => (deps.rewriteStagedSkillBodies ?? fromEngine('rewriteStagedSkillBodies'))(...a),
    commandBodies: (...a) => (deps.rewriteStagedCommandBodies ?? fromEngine('rewriteStagedCommandBodies'))(...a),
  };
}

/**
 * The core's staging plan of `layout` for `runtime` (destination subpaths that are not
 * strings are decided later). The peer compares a kind's name and the runtime with `===`:
 * a value that is not a string (a String object, an array) names no kind and no runtime
 * here either, so it crosses as `''`.
 */
function stagingPlan(layout, runtime, scope, home) {
  const kinds = layout.kinds.map((k) => ({
    kind: typeof k.kind === 'string' ? k.kind : '',
    destSubpath: typeof k.destSubpath === 'string' ? k.destSubpath : '',
    home: typeof k.home === 'string' ? k.home : null,
  }));
  const request = { runtime: typeof runtime === 'string' ? runtime : '', configDir: layout.configDir, scope, home: String(home), cwd: process.cwd(), kinds };
  return valueOf(native.compatStagingPlan(jsonText(request)));
}

/** A kind's destination: the core's answer, or the peer's refusal raised now (odd shapes go
 * through `assertDestWithinConfigHome`, which fails them as the peer does). */
function destOf(layout, kind, step) {
  if (step === undefined || typeof kind.destSubpath !== 'string' || (kind.home != null && typeof kind.home !== 'string')) {
    return assertDestWithinConfigHome(kind.home ?? layout.configDir, kind.destSubpath);
  }
  if (step.destError !== null) throw refusal(kind.home ?? layout.configDir, kind.destSubpath);
  return step.destDir;
}

function createRuntimeArtifactInstallPlan(args) {
  const { layout, resolvedProfile, homedir, platform, resolveAttribution, projectDir, deps = {} } = args;
  const rewrite = rewriters(deps);
  const cleanupDirs = [];
  const items = [];
  const scope = layout.scope ?? 'global';
  const rewriteOpts = { runtime: layout.runtime, configDir: layout.configDir, scope, homedir, platform, resolveAttribution };
  path.resolve(layout.configDir);
  const home = (homedir ?? (() => os.homedir()))();
  // The home is a path the peer normalizes with a string method before the scope is read.
  stringLike(home, 'replace', 'createRuntimeArtifactInstallPlan: homedir()');
  isGlobalScope(scope);
  const plan = stagingPlan(layout, layout.runtime, scope, home);
  const attribution = resolveAttribution ? resolveAttribution(layout.runtime) : undefined;
  const agentCtx = {
    runtime: layout.runtime,
    pathPrefix: plan.pathPrefix,
    attribution,
    targetDir: layout.configDir,
    projectDir: projectDir ?? layout.configDir,
  };
  for (const [i, kind] of layout.kinds.entries()) {
    const step = plan.steps[i];
    let stagedDir;
    try {
      stagedDir = kind.stage(resolvedProfile, agentCtx);
    } catch (err) {
      return { ok: false, kind: 'stage_failed', message: errorMessage(err), cleanupDirs, failedKind: kind.kind };
    }
    let sourceDir = stagedDir;
    try {
      if (step.rewrite !== null) {
        const rewrittenDir = rewrite[step.rewrite](stagedDir, rewriteOpts);
        sourceDir = rewrittenDir ?? stagedDir;
        if (sourceDir !== stagedDir) cleanupDirs.push(sourceDir);
      }
    } catch (err) {
      return { ok: false, kind: 'rewrite_failed', message: errorMessage(err), cleanupDirs, failedKind: kind.kind };
    }
    items.push({ kind: kind.kind, sourceDir, destDir: destOf(layout, kind, step) });
  }
  return { ok: true, plan: { items, cleanupDirs } };
}

function createRuntimeArtifactUninstallPlan(layout) {
  // The peer's uninstall plan never reads the runtime (no body is staged, so no path prefix).
  const plan = typeof layout.configDir === 'string' ? stagingPlan(layout, '', 'global', os.homedir()) : { steps: [] };
  return { items: layout.kinds.map((kind, i) => ({ kind: kind.kind, destDir: destOf(layout, kind, plan.steps[i]) })) };
}

module.exports = { assertDestWithinConfigHome, createRuntimeArtifactInstallPlan, createRuntimeArtifactUninstallPlan };
Object.defineProperty(module.exports, '__esModule', { value: true });
