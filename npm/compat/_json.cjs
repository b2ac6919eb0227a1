'use strict';
// The JSON-text crossing of the compat exports: each native `compat*` export answers
// `{"ok": value}` or `{"error": {code, message, field}}`; the compat modules turn an error
// into the peer's own error class and message.

/**
 * The answer of a compat export: `{ value }` or `{ error: { code, message, field } }`.
 * @param {string} text
 */
function answer(text) {
  const parsed = JSON.parse(text);
  return 'error' in parsed ? { error: parsed.error } : { value: parsed.ok };
}

/**
 * The value of a compat export, or a plain `Error` carrying the core's code and field.
 * @param {string} text
 */
function valueOf(text) {
  const a = answer(text);
  if (a.error) {
    const err = new Error(a.error.message);
    err.code = a.error.code;
    err.field = a.error.field;
    throw err;
  }
  return a.value;
}

/**
 * JSON text of caller data, with a BigInt read as absent, the way JSON already reads a
 * function or `undefined` (JSON has no integer beyond a double; `JSON.stringify` would
 * throw on one where the peer, reading the object, only finds a value of the wrong type).
 * @param {unknown} value
 * @returns {string | undefined}
 */
function jsonText(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? undefined : v));
}

module.exports = { answer, valueOf, jsonText };
