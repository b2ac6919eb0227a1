'use strict';
// Shared edge for the compat modules: turns the peer's `{ env, home, cwd, existsSync }`
// options into host data for the core, checking on disk exactly the probe paths the core
// lists. No decisions are made here.

const fs = require('node:fs');
const os = require('node:os');

/**
 * Host data from peer-style options; `existingPaths` is filled later by `withProbes`.
 * @param {{ env?: Record<string, unknown>, home?: string, cwd?: string }} [opts]
 */
function hostFrom(opts = {}) {
  const env = {};
  for (const [name, value] of Object.entries(opts.env ?? process.env)) {
    if (typeof value === 'string') env[name] = value;
  }
  return { home: opts.home ?? os.homedir(), cwd: opts.cwd ?? process.cwd(), env, existingPaths: [] };
}

/**
 * The host with the probe paths that `existsSync` reports as existing.
 * @param {ReturnType<typeof hostFrom>} host
 * @param {string[]} probes
 * @param {(path: string) => boolean} [existsSync]
 */
function withProbes(host, probes, existsSync) {
  const exists = existsSync ?? fs.existsSync;
  return { ...host, existingPaths: probes.filter((p) => exists(p)) };
}

/** `JSON.stringify`-style rendering used by the peer's messages (`undefined` stays bare). */
function renderJson(value) {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

module.exports = { hostFrom, withProbes, renderJson };
