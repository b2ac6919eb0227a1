'use strict';
// Shared edge for the compat modules: turns the peer's `{ env, home, cwd, existsSync }`
// options into host data for the core, checking on disk exactly the probe paths the core
// lists. No decisions are made here.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const native = require('../binding.js');

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

/** The environment variables the core reads (each runtime's `configHome.env`, and the two fallbacks). */
const ENV_NAMES = Object.freeze(native.compatEnvNames());

/**
 * The `env` names of a caller-supplied config-home descriptor and of its `skillsHome`.
 * @param {any} configHome
 * @returns {string[]}
 */
function declaredNames(configHome) {
  const names = [];
  for (let home = configHome; home !== null && typeof home === 'object'; home = home.skillsHome) {
    if (Array.isArray(home.env)) names.push(...home.env.filter((n) => typeof n === 'string'));
  }
  return names;
}

/**
 * Host data from peer-style options; `existingPaths` is filled later by `withProbes`.
 * The environment is read as the peer reads it: `env[name]` for each variable the core may
 * read (those of the registry and, for a caller-supplied descriptor, its own), so an
 * inherited member (`Object.create(process.env)`), a getter or a Proxy trap counts as it
 * does there; a value that is not a string is absent.
 * @param {{ env?: Record<string, unknown>, home?: unknown, cwd?: unknown }} [opts]
 * @param {unknown} [configHome] a descriptor the call resolves, whose `env` names are read too
 */
function hostFrom(opts = {}, configHome = undefined) {
  const source = opts.env ?? process.env;
  /** @type {Record<string, string>} */
  const env = {};
  for (const name of configHome === undefined ? ENV_NAMES : new Set([...ENV_NAMES, ...declaredNames(configHome)])) {
    const value = source[name];
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
