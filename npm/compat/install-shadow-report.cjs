'use strict';
// Drop-in for the peer's `install-shadow-report.cjs`, backed by the native core.
//
// Difference: `renderShadowReport` renders reports built by this module's
// `buildShadowReport` (the core renders its own typed report); any other value throws a
// TypeError.

const native = require('../binding.js');
const { surfaceInputs } = require('./_surface.cjs');

const SHADOW_REASON = Object.freeze({
  NOT_SHADOWED: 'not_shadowed',
  SCOPE_SHADOWED: 'scope_shadowed',
  RESOLVER_UNAVAILABLE: 'resolver_unavailable',
});

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
    inputs = { host: { home: '/', cwd: '/', env: {}, existingPaths: [] }, facts: { homes: {} } };
  }
  const { report } = native.buildShadowReport(id, inputs.host, inputs.facts);
  built.set(report, { id, ...inputs });
  return report;
}

function renderShadowReport(report, { sampleLimit = 5 } = {}) {
  const source = built.get(report);
  if (!source) throw new TypeError('renderShadowReport: the report was not built by buildShadowReport');
  return native.buildShadowReport(source.id, source.host, source.facts, sampleLimit).lines;
}

module.exports = { SHADOW_REASON, sanitizeForRender, buildShadowReport, renderShadowReport };
Object.defineProperty(module.exports, '__esModule', { value: true });
