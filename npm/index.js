'use strict';
/**
 * gsd-core: decides how GSD is installed into an AI coding host CLI.
 *
 * The decisions are made by a native Rust core (loaded through `binding.js`). This module
 * is the public surface: it checks argument types at the boundary, calls the core once
 * per call, and returns deep-frozen plain objects. Failures are `Error`s whose `code` is
 * one of {@link errorCodes} and whose `field` names the input at fault (or `null`).
 */

const native = require('./binding.js');

/**
 * Freezes a value and everything reachable from it; returns the value.
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(value[key]);
  }
  return value;
}

/**
 * An argument error raised before the core is asked (same shape as the core's errors).
 * @param {string} field
 * @param {string} message
 * @returns {Error & { code: string, field: string }}
 */
function invalidArgument(field, message) {
  const err = /** @type {Error & { code: string, field: string }} */ (new Error(message));
  err.code = 'INVALID_ARGUMENT';
  err.field = field;
  return err;
}

/** @param {unknown} value */
function render(value) {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/**
 * @param {unknown} value
 * @param {string} field
 */
function requireString(value, field) {
  if (typeof value !== 'string') {
    throw invalidArgument(field, `${field} must be a string, got ${render(value)}`);
  }
  return value;
}

/**
 * @param {unknown} registry
 * @returns {InstanceType<typeof native.Registry>}
 */
function registryOrDefault(registry) {
  if (registry === undefined || registry === null) return firstPartyRegistry();
  if (!(registry instanceof native.Registry)) {
    throw invalidArgument('registry', 'registry must be a Registry from firstPartyRegistry() or buildRegistry()');
  }
  return registry;
}

let firstParty;
/**
 * The embedded first-party registry (46 capabilities, 19 runtimes), built once.
 * @returns {InstanceType<typeof native.Registry>}
 */
function firstPartyRegistry() {
  if (firstParty === undefined) firstParty = native.Registry.firstParty();
  return firstParty;
}

/**
 * Every registered runtime with its descriptor, sorted by id.
 * @param {InstanceType<typeof native.Registry>} [registry] defaults to the first-party registry
 */
function runtimes(registry) {
  return deepFreeze(registryOrDefault(registry).runtimes());
}

/**
 * Every `code` an error of this package may carry, in table order.
 * @type {readonly string[]}
 */
const errorCodes = deepFreeze(native.errorCodes());

module.exports = {
  errorCodes,
  firstPartyRegistry,
  runtimes,
  Registry: native.Registry,
};
