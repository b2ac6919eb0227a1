'use strict';
// Shared edge for the compat modules: turns the peer's `{ env, home, cwd, existsSync }`
// options into host data for the core, checking on disk exactly the probe paths the core
// lists. No decisions are made here.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/**
 * What stands in for a `home` or `cwd` that is not a string. The peer fails on one only
 * when it joins a path onto it (Node's path functions throw their own `TypeError`), and
 * never when its answer does not depend on it (an environment override wins first; a
 * global scope ignores `cwd`). The core takes strings only, so it resolves with this
 * stand-in, and `failLikeThePeer` raises Node's error when the answer shows it was used.
 */
const NOT_A_STRING = Object.freeze({ home: '/gsd-core-compat/home-is-not-a-string', cwd: '/gsd-core-compat/cwd-is-not-a-string' });

/** Whether a `home` or `cwd` option is given and is not a string (it gets the stand-in). */
function notAString(value) {
  return value !== undefined && value !== null && typeof value !== 'string';
}

/** `value` when it is a string, the stand-in when it is another value, else `fallback()`. */
function pathOption(value, name, fallback) {
  if (notAString(value)) return NOT_A_STRING[name];
  return value ?? fallback();
}

/**
 * Host data from peer-style options; `existingPaths` is filled later by `withProbes`.
 * @param {{ env?: Record<string, unknown>, home?: unknown, cwd?: unknown }} [opts]
 */
function hostFrom(opts = {}) {
  const env = {};
  for (const [name, value] of Object.entries(opts.env ?? process.env)) {
    if (typeof value === 'string') env[name] = value;
  }
  return { home: pathOption(opts.home, 'home', os.homedir), cwd: pathOption(opts.cwd, 'cwd', process.cwd), env, existingPaths: [] };
}

/**
 * `answer`, unless it was resolved over a stand-in for a `home` or `cwd` of `opts` that is
 * not a string: then the peer, joining a path onto that value, would have thrown, and so
 * does this, with Node's own error for the same value.
 * @template T
 * @param {{ home?: unknown, cwd?: unknown } | undefined} opts
 * @param {T} answer
 * @returns {T}
 */
function failLikeThePeer(opts, answer) {
  const used = standInUsed(opts, answer);
  if (used !== undefined) path.join(/** @type {string} */ (opts?.[used]));
  return answer;
}

/**
 * Which option of `opts` (`home` or `cwd`), not being a string, had its stand-in used by
 * `answer`; `undefined` when none was (the peer would have answered too).
 * @param {{ home?: unknown, cwd?: unknown } | undefined} opts
 * @param {unknown} answer
 * @returns {'home' | 'cwd' | undefined}
 */
function standInUsed(opts, answer) {
  const text = JSON.stringify(answer) ?? '';
  for (const name of /** @type {const} */ (['home', 'cwd'])) {
    if (notAString(opts?.[name]) && text.includes(NOT_A_STRING[name])) return name;
  }
  return undefined;
}

/**
 * The host with the probe paths that `existsSync` reports as existing.
 * @param {ReturnType<typeof hostFrom>} host
 * @param {string[]} probes
 * @param {(path: string) => boolean} [existsSync]
 */
function withProbes(host, probes, existsSync) {
  // Named as the peer names it, so a non-function fails with the peer's message.
  const existsSyncFn = existsSync ?? fs.existsSync;
  return { ...host, existingPaths: probes.filter((p) => existsSyncFn(p)) };
}

/** `JSON.stringify`-style rendering used by the peer's messages (`undefined` stays bare). */
function renderJson(value) {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

module.exports = { hostFrom, withProbes, renderJson, failLikeThePeer, standInUsed, notAString };
