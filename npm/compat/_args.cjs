'use strict';
// Argument checks for the compat modules. The peer does not check its arguments: it calls
// a string method on them, and a value without that method fails there with a TypeError.
// These checks fail at the same point, for the same values, with a message of our own
// that names the argument; every value the peer reads is let through.

/** `typeof`, with `null` and arrays named apart (for messages). */
function kindOf(value) {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Throws a TypeError unless `value` has a callable `method`, the string method the peer
 * calls on it (a string, a `String` object, or anything else that carries one).
 * @param {unknown} value
 * @param {string} method e.g. `replace`
 * @param {string} what e.g. `isNamespacedByDir: destSubpath`
 */
function stringLike(value, method, what) {
  if (value === null || value === undefined || typeof Object(value)[method] !== 'function') {
    throw new TypeError(`${what} must be a string (got ${kindOf(value)})`);
  }
}

/**
 * `value` as a template literal spells it: a Symbol is a TypeError (a file or trigger
 * name cannot hold one), every other value its string conversion.
 * @param {unknown} value
 * @param {string} what
 */
function spelled(value, what) {
  if (typeof value === 'symbol') throw new TypeError(`${what} cannot be a Symbol`);
  return `${value}`;
}

module.exports = { kindOf, stringLike, spelled };
