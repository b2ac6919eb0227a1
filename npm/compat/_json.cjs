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
 * One value of caller data as it can cross: a BigInt read as absent, the way JSON already
 * reads a function or `undefined` (JSON has no integer beyond a double; `JSON.stringify`
 * would throw on one where the peer, reading the object, only finds a value of the wrong
 * type); a string or key holding a lone surrogate with U+FFFD in its place (UTF-8 has no
 * form for it: `JSON.stringify` would write an escape no JSON reader takes, and the whole
 * text would be refused where the peer reads one odd character; U+FFFD is one UTF-16
 * unit as well, so lengths and patterns read the same).
 * @param {string} _key
 * @param {unknown} v
 */
function crossable(_key, v) {
  if (typeof v === 'bigint') return undefined;
  if (typeof v === 'string') return v.isWellFormed() ? v : v.toWellFormed();
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => !k.isWellFormed())) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k.toWellFormed(), x]));
  }
  return v;
}

/** How `JSON.stringify` spells a lone surrogate (a false hit only costs the slower path). */
const SURROGATE_ESCAPE = /\\ud[89a-f]/i;

/**
 * JSON text of caller data, as [`crossable`] lets each value cross. The plain spelling is
 * kept when it succeeds and holds no surrogate escape (almost always: it is the fast one);
 * otherwise the value is spelled again through `crossable`.
 * @param {unknown} value
 * @returns {string | undefined}
 */
function jsonText(value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    return JSON.stringify(value, crossable);
  }
  return text !== undefined && SURROGATE_ESCAPE.test(text) ? JSON.stringify(value, crossable) : text;
}

/**
 * Values that cross to the core as tokens: each distinct value (equal as a Map key
 * compares them, so objects by identity) gets one string the core cannot confuse with
 * another (`\0<n>\0`); answers are turned back into values.
 */
class Tokens {
  constructor() {
    this.values = [];
    this.index = new Map();
  }

  /** The token of `value` (made on first use). */
  of(value) {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return `\0${i}\0`;
  }

  /** The value a token stands for. */
  value(token) {
    return this.values[Number(token.slice(1, -1))];
  }
}

module.exports = { answer, valueOf, jsonText, Tokens };
