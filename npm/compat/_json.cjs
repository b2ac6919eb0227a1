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

module.exports = { answer, valueOf };
