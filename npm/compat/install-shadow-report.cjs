'use strict';
// Drop-in for the peer's `install-shadow-report.cjs`, backed by the native core.
//
// Difference: `renderShadowReport` renders reports built by this module's
// `buildShadowReport` (the core renders its own typed report); any other value throws a
// TypeError.

const native = require('../binding.js');
const { notAString, standInUsed } = require('./_host.cjs');
const { surfaceInputs } = require('./_surface.cjs');

const SHADOW_REASON = Object.freeze({
  NOT_SHADOWED: 'not_shadowed',
  SCOPE_SHADOWED: 'scope_shadowed',
  RESOLVER_UNAVAILABLE: 'resolver_unavailable',
});

/** What a report is built from when there is nothing to resolve: it says so. */
const UNAVAILABLE_HOST = Object.freeze({ home: '/', cwd: '/', env: {}, existingPaths: [] });
const NO_FACTS = Object.freeze({ homes: {} });

/** Report object → the inputs it was built from, so it can be rendered at any limit. */
const built = new WeakMap();

function sanitizeForRender(value) {
  if (value === null) return null;
  // Non-strings fail the way the peer's string methods fail on them (same TypeError text).
  const text = value.replace(/^/, '');
  return native.sanitizeForRender(text);
}

function buildShadowReport(runtime, opts = {}) {
  const id = String(runtime);
  let inputs;
  try {
    inputs = surfaceInputs(id, opts);
  } catch (err) {
    if (err.code !== 'UNKNOWN_RUNTIME' && err.code !== 'NO_CONFIG_HOME') throw err;
    inputs = { host: UNAVAILABLE_HOST, facts: NO_FACTS };
  }
  if ((notAString(opts.home) || notAString(opts.cwd)) && standInUsed(opts, surfacesOrNothing(id, inputs)) !== undefined) {
    // The peer's resolution threw Node's path error on a `home` or `cwd` that is not a
    // string, and its report says the resolver is unavailable (rendered as no lines).
    const report = { ...native.buildShadowReport('', UNAVAILABLE_HOST, NO_FACTS).report, runtime: id };
    built.set(report, { id: '', host: UNAVAILABLE_HOST, facts: NO_FACTS });
    return report;
  }
  const { report } = native.buildShadowReport(id, inputs.host, inputs.facts);
  built.set(report, { id, ...inputs });
  return report;
}

/** The installed surfaces the report of `id` is made from; `null` when none resolve. */
function surfacesOrNothing(id, { host, facts }) {
  try {
    return native.resolveInstalledSurfaces(id, host, facts);
  } catch {
    return null;
  }
}

function renderShadowReport(report, { sampleLimit = 5 } = {}) {
  const source = built.get(report);
  if (!source) throw new TypeError('renderShadowReport: the report was not built by buildShadowReport');
  return native.buildShadowReport(source.id, source.host, source.facts, sampleLimit).lines;
}

module.exports = { SHADOW_REASON, sanitizeForRender, buildShadowReport, renderShadowReport };
Object.defineProperty(module.exports, '__esModule', { value: true });
