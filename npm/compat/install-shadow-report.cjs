'use strict';
// Drop-in for the peer's `install-shadow-report.cjs`, backed by the native core.
//
// Difference: `renderShadowReport` renders the lines of reports built by this module's
// `buildShadowReport` (the core renders its own typed report); any other report that has
// lines throws a TypeError.

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

function renderShadowReport(report, opts = {}) {
  // The report is read before the options, and only a report that names a shadowed side
  // and its winner has lines; any other report renders as none, whoever built it.
  if (report.reason !== SHADOW_REASON.SCOPE_SHADOWED || report.winner === null || report.shadowedSide === null) return [];
  const source = built.get(report);
  if (!source) throw new TypeError('renderShadowReport: the report was not built by buildShadowReport');
  // How many trigger lines a limit allows, as an array slice of the report's triggers
  // counts them (so a negative or non-number limit means what it means to `slice`).
  const limit = opts.sampleLimit ?? 5;
  const sampled = report.triggers.slice(0, limit).length;
  return native.buildShadowReport(source.id, source.host, source.facts, sampled).lines;
}

module.exports = { SHADOW_REASON, sanitizeForRender, buildShadowReport, renderShadowReport };
Object.defineProperty(module.exports, '__esModule', { value: true });
