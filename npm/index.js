'use strict';
/**
 * gsd-core: decides how GSD is installed into an AI coding host CLI.
 *
 * The decisions are made by a native Rust core (loaded through `binding.js`). This module
 * is the public surface: it checks arguments at the boundary (types, option names, data
 * JSON can carry as it is: see {@link plainData}), calls the core once per call, and
 * returns deep-frozen plain objects. Failures are `Error`s whose `code` is one of
 * {@link errorCodes} and whose `field` names the input at fault (or `null`); no error of
 * napi's own reaches a caller.
 *
 * The hot calls cross as text: large inputs go in as one `JSON.stringify`d string, results
 * come back as JSON text and are `JSON.parse`d here. A plan's large sections (kinds,
 * placements, uninstall, triggers, diagnostics) stay text until first read; each is then
 * parsed once, deep-frozen and cached (see {@link resolveInstallPlan}).
 */

const native = require('./binding.js');
const { loadOverlayDir, safeText, UNSAFE, render, isArray } = require('./overlays.js');

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
 * Deep-freezes a fresh `JSON.parse` result (nothing in it is frozen yet, and it holds only
 * arrays, plain objects and primitives); returns it.
 * @param {any} value
 * @returns {any}
 */
function freezeParsed(value) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item = value[i];
      if (typeof item === 'object' && item !== null) freezeParsed(item);
    }
  } else {
    for (const key of Object.keys(value)) {
      const item = value[key];
      if (typeof item === 'object' && item !== null) freezeParsed(item);
    }
  }
  return Object.freeze(value);
}

/*
 * The Registry methods as the package exposes them, on the class itself (a registry's
 * methods are called on the handle, with no package function in between):
 * - `diagnostics()` and `toPeerJson()` can be very large (hundreds of thousands of
 *   diagnostics): they cross as one JSON text parsed here, since napi converts a value
 *   property by property and refuses very large ones;
 * - `diagnostics()`, `requiresClosure()` and `runtimes()` return deep-frozen values, as every function
 *   of the package does; `runtimeIds()` and `toPeerJson()` return a fresh, mutable copy
 *   on every call (`toPeerJson()` is the peer's registry shape, which the compat module
 *   hands on as the peer's own);
 * - `withOverlays()` checks its argument as `buildRegistry` does (a typed error naming
 *   the member at fault, never one of napi's own).
 */
const nativeRequiresClosure = native.Registry.prototype.requiresClosure;
const nativeRuntimes = native.Registry.prototype.runtimes;
const nativeWithOverlays = native.Registry.prototype.withOverlays;
/** Each registry's `runtimes()`, built once: a registry never changes, the answer is frozen. */
const runtimesOf = new WeakMap();
Object.defineProperties(native.Registry.prototype, {
  requiresClosure: {
    /** @this {any} @param {string} id */
    value: function requiresClosure(id) {
      if (typeof id !== 'string') throw invalidArgument('id', `id must be a capability id (a string), got ${render(id)}`);
      // napi would read a lone surrogate as U+FFFD and answer for another id.
      if (!id.isWellFormed()) throw invalidArgument('id', `id is invalid: ${LONE_SURROGATE}`);
      return frozenList(nativeRequiresClosure.call(this, id));
    },
    writable: true,
    configurable: true,
  },
  runtimes: {
    /** @this {any} */
    value: function runtimes() {
      let entries = runtimesOf.get(this);
      if (entries === undefined) {
        entries = deepFreeze(nativeRuntimes.call(this));
        runtimesOf.set(this, entries);
      }
      return entries;
    },
    writable: true,
    configurable: true,
  },
  withOverlays: {
    /** @this {any} @param {unknown} overlays */
    value: function withOverlays(overlays) {
      return nativeWithOverlays.call(this, overlaysArg(overlays));
    },
    writable: true,
    configurable: true,
  },
  diagnostics: {
    /** @this {any} */
    value: function diagnostics() {
      return frozenList(JSON.parse(this.diagnosticsJson()));
    },
    writable: true,
    configurable: true,
  },
  toPeerJson: {
    /** @this {any} */
    value: function toPeerJson() {
      return JSON.parse(this.toPeerJsonText());
    },
    writable: true,
    configurable: true,
  },
});

/** The shared result of a list call that found nothing. */
const EMPTY = Object.freeze([]);

/** The largest `sampleLimit` the addon takes (32 bits); a larger one means the same: every sample. */
const MAX_SAMPLE_LIMIT = 0xffffffff;

/**
 * A parsed list, deep-frozen; the shared {@link EMPTY} when it has no item.
 * @param {any[]} items
 */
function frozenList(items) {
  return items.length === 0 ? EMPTY : freezeParsed(items);
}

/**
 * A list that crossed as JSON text, `null` meaning empty.
 * @param {string | null} text
 */
function parsedList(text) {
  return text === null ? EMPTY : frozenList(JSON.parse(text));
}

/**
 * An argument as JSON text for the core (one string crosses instead of every property),
 * once {@link plainData} has checked it. A lone surrogate is left to the core, which names
 * it exactly as `plainData` would (`host.home is invalid: it holds a lone surrogate...`).
 * @param {unknown} value
 * @param {string} field
 */
function jsonArg(value, field) {
  if (value === undefined) return undefined;
  return JSON.stringify(plainData(value, field, true));
}

/**
 * An argument error raised before the core is asked (same shape as the core's errors).
 * @param {string} field
 * @param {string} message
 * @returns {Error & { code: string, field: string }}
 */
function invalidArgument(field, message) {
  const err = /** @type {Error & { code: string, field: string }} */ (new Error(safeText(message, 2048)));
  err.code = 'INVALID_ARGUMENT';
  err.field = safeText(field, 512);
  return err;
}


/**
 * What an exception a caller's value threw says, never throwing itself.
 * @param {unknown} err
 */
function thrownMessage(err) {
  try {
    const text = err instanceof Error ? err.message : String(err);
    return text.isWellFormed() ? text : text.toWellFormed();
  } catch {
    return 'an exception';
  }
}

/** The message of a string argument holding a lone surrogate (the core's own wording). */
const LONE_SURROGATE = 'it holds a lone surrogate, which UTF-8 cannot carry';

/**
 * A string argument, refused when it is not a string or holds a lone surrogate (UTF-8 has
 * no form for one: napi would silently turn it into U+FFFD).
 * @param {unknown} value
 * @param {string} field
 */
function requireString(value, field) {
  if (typeof value !== 'string') {
    throw invalidArgument(field, `${field} must be a string, got ${render(value)}`);
  }
  if (!value.isWellFormed()) throw invalidArgument(field, `${field} is invalid: ${LONE_SURROGATE}`);
  return value;
}

/**
 * A path as the core quotes it in a message: unsafe characters as U+FFFD, clipped past
 * 1,024 characters with `…`.
 * @param {string} path
 */
function quotedPath(path) {
  const chars = [...path.replace(UNSAFE, '\ufffd')];
  return `"${chars.length > 1024 ? `${chars.slice(0, 1024).join('')}…` : chars.join('')}"`;
}

/**
 * A path argument: a string without lone surrogate or NUL (a C caller, and the file
 * system, would read a path with one as cut short there). The message is the core's
 * (`explicitDir must not contain NUL, got "/x\uFFFDy"`).
 * @param {unknown} value
 * @param {string} field
 */
function requirePath(value, field) {
  const path = requireString(value, field);
  if (path.includes('\u0000')) throw invalidArgument(field, `${field} must not contain NUL, got ${quotedPath(path)}`);
  return path;
}

/**
 * @param {unknown} registry
 * @returns {InstanceType<typeof native.Registry>}
 */
function registryOrDefault(registry) {
  if (registry === undefined || registry === null) return firstPartyRegistry();
  if (genuineRegistries.has(registry)) return registry;
  // Asked natively, once per object: `instanceof` would pass an object that only inherits
  // from Registry.prototype (or a Proxy over a registry), which napi then fails to unwrap
  // with an error of its own; a revoked Proxy would throw from `instanceof` itself.
  let genuine = false;
  try {
    genuine = native.isRegistry(registry);
  } catch {
    genuine = false;
  }
  if (!genuine) throw invalidArgument('registry', `registry must be a Registry from firstPartyRegistry() or buildRegistry(), got ${render(registry)}`);
  genuineRegistries.add(/** @type {object} */ (registry));
  return registry;
}

/** The registries {@link registryOrDefault} has checked. */
const genuineRegistries = new WeakSet();

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
  return registryOrDefault(registry).runtimes();
}

/**
 * Every `code` an error of this package may carry, in table order.
 * @type {readonly string[]}
 */
const errorCodes = deepFreeze(native.errorCodes());

/**
 * The closed vocabularies of the manifest format by enum name, in the peer's order.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
const vocabulary = deepFreeze(native.vocabulary());

/**
 * The bounds a manifest text is checked against before it is parsed.
 * @type {Readonly<{ maxBytes: number, maxDepth: number }>}
 */
const manifestLimits = deepFreeze(native.manifestLimits());

/**
 * Host data as the plan's fast path reads it: the host itself, or a copy whose
 * `existingPaths` Set is a list. Nothing else is checked here: {@link compactHost} takes
 * only a host of plain strings, and any other crosses through {@link plainData}.
 * @param {unknown} host
 */
function hostArg(host) {
  if (host === undefined || host === null) return undefined;
  if (typeof host !== 'object' || isArray(host)) {
    throw invalidArgument('host', `host must be an object { home, cwd, env?, existingPaths? }, got ${render(host)}`);
  }
  // Only a plain host whose `existingPaths` is a Set is copied (its own members, each read
  // once, the Set as a list); any other crosses as it is: plainData, which takes a Set there
  // too, judges a class instance or a host with toJSON whole, and names a getter or trap
  // that throws.
  try {
    const paths = /** @type {Record<string, unknown>} */ (host).existingPaths;
    if (!(paths instanceof Set)) return host;
    const proto = Object.getPrototypeOf(host);
    if ((proto !== Object.prototype && proto !== null) || /** @type {any} */ (host).toJSON !== undefined) return host;
    // A plain object, so the plan's compact path takes it; `__proto__` defined, not set.
    /** @type {Record<string, unknown>} */
    const copy = {};
    for (const key of Object.keys(host)) {
      const value = key === 'existingPaths' ? [...paths] : /** @type {Record<string, unknown>} */ (host)[key];
      Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return copy;
  } catch {
    return host;
  }
}

/**
 * Host data for the calls that take it as an object: a checked plain copy (see
 * {@link plainData}), `undefined` for the real machine.
 * @param {unknown} host
 */
function hostData(host) {
  if (host === undefined || host === null) return undefined;
  if (typeof host !== 'object' || isArray(host)) {
    throw invalidArgument('host', `host must be an object { home, cwd, env?, existingPaths? }, got ${render(host)}`);
  }
  return plainData(host, 'host', false);
}

/** Options with nothing in them. */
// Without a prototype, like every bag `optionsArg` returns: an option the caller did not
// give is read from these as `undefined`, never from a polluted Object.prototype.
const NO_OPTIONS = Object.freeze(Object.create(null));

/**
 * An options bag as a plain copy of its members (each read once), checked against the
 * names the call knows: an unknown member is an `INVALID_ARGUMENT` naming it, never
 * ignored. A member whose value is `undefined` is absent (as JSON leaves it out).
 * @param {unknown} options
 * @param {readonly string[]} known
 * @param {string} [field] the argument's name in an error
 * @returns {Record<string, any>}
 */
function optionsArg(options, known, field = 'options') {
  if (options === undefined || options === null) return NO_OPTIONS;
  if (typeof options !== 'object' || isArray(options)) {
    throw invalidArgument(field, `${field} must be an object, got ${render(options)}`);
  }
  /** @type {Record<string, any>} */
  const out = Object.create(null);
  let keys;
  try {
    // A Map or Set has no members of its own to read: its entries would be ignored.
    if (options instanceof Map || options instanceof Set) {
      throw invalidArgument(field, `${field} must be an object of options, got a ${options instanceof Map ? 'Map' : 'Set'} (its entries are not members)`);
    }
    keys = Object.keys(options);
  } catch (err) {
    if (/** @type {any} */ (err)?.code === 'INVALID_ARGUMENT') throw err;
    throw invalidArgument(field, `${field} is invalid: reading it threw: ${thrownMessage(err)}`);
  }
  // An own member the call does not know is refused (unless it is `undefined`: absent).
  for (const key of keys) {
    if (known.includes(key)) continue;
    if (readOption(options, key) !== undefined) throw unknownMember(key, known);
  }
  // The known options are read as properties, so one an object inherits (a prototype's
  // member or getter) counts, as it always has; except one only Object.prototype holds,
  // which no caller gives (a polluted prototype).
  for (const key of known) {
    const value = readOption(options, key);
    if (value !== undefined && !onlyOnObjectPrototype(options, key)) out[key] = value;
  }
  return out;
}

/**
 * Whether the nearest holder of `key` along `object`'s prototype chain is
 * `Object.prototype` itself. A chain that cannot be walked (a Proxy trap that throws)
 * reads as not polluted: the value was already read through it.
 * @param {object} object
 * @param {string} key
 */
function onlyOnObjectPrototype(object, key) {
  try {
    for (let o = object; o !== null; o = Object.getPrototypeOf(o)) {
      if (Object.hasOwn(o, key)) return o === Object.prototype;
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * One member of an options bag, a getter that throws named as the member.
 * @param {object} options
 * @param {string} key
 */
function readOption(options, key) {
  try {
    return /** @type {Record<string, unknown>} */ (options)[key];
  } catch (err) {
    const name = key.toWellFormed();
    throw invalidArgument(name, `${name} is invalid: reading it threw: ${thrownMessage(err)}`);
  }
}

/**
 * The error of a member an input does not know, worded as the core's (serde's) own.
 * @param {string} key
 * @param {readonly string[]} known
 */
function unknownMember(key, known) {
  const name = key.toWellFormed();
  const names = known.map((k) => `\`${k}\``);
  const expected =
    names.length === 0
      ? 'there are no fields'
      : names.length === 1
        ? `expected ${names[0]}`
        : names.length === 2
          ? `expected ${names[0]} or ${names[1]}`
          : `expected one of ${names.join(', ')}`;
  return invalidArgument(name, `${name} is invalid: unknown field \`${name}\`, ${expected}`);
}

/**
 * An argument that must be an object (its members are checked by the core).
 * @param {unknown} value
 * @param {string} field
 */
function objectArg(value, field) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || isArray(value)) {
    throw invalidArgument(field, `${field} must be an object, got ${render(value)}`);
  }
  return value;
}

/**
 * A list of strings (`scopes`, `modes`), copied: every item is read once, in order, and
 * must be a string (a hole is `undefined`, named by its index).
 * @param {unknown} value
 * @param {string} field
 * @returns {string[]}
 */
function stringList(value, field) {
  if (!isArray(value)) throw invalidArgument(field, `${field} must be an array, got ${render(value)}`);
  const list = /** @type {unknown[]} */ (value);
  const out = [];
  let i = 0;
  try {
    const length = list.length;
    if (length > MAX_LIST_ITEMS) throw invalidArgument(field, tooManyItems(field, length));
    for (; i < length; i += 1) out.push(requireString(list[i], `${field}[${i}]`));
  } catch (err) {
    if (/** @type {any} */ (err)?.code === 'INVALID_ARGUMENT') throw err;
    throw invalidArgument(`${field}[${i}]`, `${field}[${i}] is invalid: reading it threw: ${thrownMessage(err)}`);
  }
  return out;
}

/** The deepest nesting of objects and arrays an argument may have (the JSON reader's bound). */
const MAX_NESTING = 127;

/**
 * The most items a list argument may have (16,777,216): far past any real inventory, and
 * below what V8 can hold in one array, so a Proxy claiming a length of 2³²−1 is refused
 * before its copy would abort the process.
 */
const MAX_LIST_ITEMS = 2 ** 24;

/**
 * @param {string} field
 * @param {number} length
 */
function tooManyItems(field, length) {
  return `${field} is invalid: it has ${length} items, more than the ${MAX_LIST_ITEMS} a list may have`;
}

/** The arguments whose members are named on their own (`commands[1]`), as the core does. */
const BAGS = ['options', 'input', 'inventory'];

/**
 * A fresh plain copy of argument `value` (objects, arrays, strings, finite numbers,
 * booleans, `null`), each property read once, so what is checked is what crosses. Refused
 * with `INVALID_ARGUMENT`, instead of being dropped, changed or left to napi's untyped
 * errors:
 * - on the member at fault (`host.env.HOME`, `overlays[0]`, or for an options bag the
 *   member alone, `commands[0]`): a Symbol or a function (JSON drops them), `NaN` or an
 *   infinity (JSON writes `null`), `undefined` or a hole in a list (JSON writes `null`), an
 *   object with a `toJSON` method (JSON would send what it returns), a `Map` or a `Set`
 *   (JSON writes `{}`; `host.existingPaths` may be a Set, read as its list), a getter or
 *   Proxy trap that throws, a member name holding a lone surrogate, and, unless the copy
 *   crosses as JSON text (`asText`, where the core names it identically), a string value
 *   holding one;
 * - on the argument itself, as before: a BigInt and a cycle (JSON cannot write them), and
 *   nesting too deep to walk.
 * A member whose value is `undefined` is absent, as in JSON. `String`, `Number` and
 * `Boolean` objects are their values, as in JSON.
 * @param {unknown} value
 * @param {string} field the argument's name
 * @param {boolean} asText whether the copy crosses as JSON text
 * @returns {any}
 */
function plainData(value, field, asText) {
  const walk = new DataWalk(field, asText);
  try {
    return walk.copy(value);
  } catch (err) {
    if (/** @type {any} */ (err)?.code === 'INVALID_ARGUMENT' && typeof (/** @type {any} */ (err).field) === 'string') throw err;
    // Only the engine throws anything else here: a stack overflow on very deep data.
    throw invalidArgument(field, `${field} is invalid: it nests too deeply to cross (${thrownMessage(err)})`);
  }
}

/** A member name a field path spells after a dot; any other goes in brackets, quoted. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * One walk of {@link plainData}: the argument, the path to the value being copied (only
 * spelled when an error names it) and the objects open above it (to find a cycle).
 */
class DataWalk {
  /**
   * @param {string} field
   * @param {boolean} asText
   */
  constructor(field, asText) {
    this.field = field;
    this.asText = asText;
    this.bag = BAGS.includes(field);
    /** @type {Array<string | number>} */
    this.path = [];
    /** @type {object[]} */
    this.open = [];
  }

  /**
   * The field the current path names (`host.env.HOME`, or `commands[0]` in a bag), spelled
   * as the core spells it (`gsd_core::strict::field_path`): a member whose name is not an
   * identifier as a JSON string in brackets (`facts.homes["/h/.claude"]`).
   */
  name() {
    let inner = '';
    for (const step of this.path) {
      if (typeof step === 'number') inner += `[${step}]`;
      else if (IDENTIFIER.test(step)) inner += inner === '' ? step : `.${step}`;
      else inner += `[${JSON.stringify(step.toWellFormed())}]`;
    }
    if (inner === '') return this.field;
    if (this.bag) return inner;
    return inner.startsWith('[') ? `${this.field}${inner}` : `${this.field}.${inner}`;
  }

  /**
   * An error on the value at the current path.
   * @param {string} why
   */
  member(why) {
    const at = this.name();
    return invalidArgument(at, `${at} is invalid: ${why}`);
  }

  /**
   * An error on the whole argument, naming the value at fault in its message.
   * @param {string} why
   */
  whole(why) {
    const field = this.field;
    return invalidArgument(field, `${field} is invalid: ${this.path.length === 0 ? 'it' : this.name()} ${why}`);
  }

  /**
   * The error of a getter or Proxy trap that threw while the current path was read.
   * @param {unknown} err
   */
  threw(err) {
    return this.member(`reading it threw: ${thrownMessage(err)}`);
  }

  /**
   * A checked copy of `v`.
   * @param {unknown} v
   * @returns {unknown}
   */
  copy(v) {
    switch (typeof v) {
      case 'string':
        if (!this.asText && !v.isWellFormed()) throw this.member(LONE_SURROGATE);
        return v;
      case 'object':
        return v === null ? null : this.copyObject(v);
      case 'number':
        if (!Number.isFinite(v)) throw this.member(`${v} is not a JSON number`);
        return v;
      case 'boolean':
        return v;
      case 'bigint':
        throw this.whole(`is a bigint (${v}n), which JSON cannot carry`);
      case 'undefined':
        throw this.member('an item of a list may not be undefined or a hole (JSON would write null)');
      default:
        throw this.member(`a ${typeof v} is not JSON data`);
    }
  }

  /**
   * A checked copy of an object or array.
   * @param {object} object
   */
  copyObject(object) {
    // The addon reads at most MAX_NESTING levels (serde's bound); deeper data is refused
    // here, before any of it crosses.
    if (this.open.length >= MAX_NESTING) throw this.whole(`nests deeper than ${MAX_NESTING} levels, which the core does not read`);
    if (this.open.includes(object)) throw this.whole('refers back to an object that holds it (a cycle), which JSON cannot carry');
    let list;
    let toJSON;
    let boxed;
    let keyed;
    try {
      list = Array.isArray(object);
      toJSON = /** @type {any} */ (object).toJSON;
      // `instanceof` asks a Proxy's getPrototypeOf trap, which may throw too.
      boxed = object instanceof String || object instanceof Number || object instanceof Boolean;
      keyed = object instanceof Map || object instanceof Set;
    } catch (err) {
      throw this.threw(err);
    }
    if (typeof toJSON === 'function') throw this.member('it has a toJSON method: pass the data itself');
    if (boxed) return this.copy(/** @type {String | Number | Boolean} */ (object).valueOf());
    if (keyed) {
      const path = this.path;
      if (object instanceof Set && this.field === 'host' && path.length === 1 && path[0] === 'existingPaths') {
        let items;
        try {
          items = [...object];
        } catch (err) {
          throw this.threw(err);
        }
        return this.copy(items);
      }
      throw this.member(`a ${object instanceof Map ? 'Map' : 'Set'} is not JSON data (JSON would write {})`);
    }
    this.open.push(object);
    const out = list ? this.copyItems(/** @type {unknown[]} */ (object)) : this.copyMembers(object);
    this.open.pop();
    return out;
  }

  /**
   * A checked copy of an array's items (a hole is an item `undefined`).
   * @param {unknown[]} array
   */
  copyItems(array) {
    const path = this.path;
    const out = [];
    let i = 0;
    let length;
    try {
      length = array.length;
    } catch (err) {
      throw this.threw(err);
    }
    if (length > MAX_LIST_ITEMS) {
      const at = this.name();
      throw invalidArgument(at, tooManyItems(at, length));
    }
    path.push(0);
    for (; i < length; i += 1) {
      let item;
      try {
        item = array[i];
      } catch (err) {
        path[path.length - 1] = i;
        throw this.threw(err);
      }
      // Strings first: the common item, checked without a call.
      if (typeof item === 'string' && (this.asText || item.isWellFormed())) {
        out.push(item);
      } else {
        path[path.length - 1] = i;
        out.push(this.copy(item));
      }
    }
    path.pop();
    return out;
  }

  /**
   * A checked copy of an object's own enumerable members (`undefined` ones left out).
   * @param {object} object
   */
  copyMembers(object) {
    const path = this.path;
    // Without a prototype: napi reads an object's inherited enumerable members too, so a
    // copy inheriting from a polluted Object.prototype would cross with members the
    // caller never gave.
    /** @type {Record<string, unknown>} */
    const out = Object.create(null);
    let keys;
    try {
      keys = Object.keys(object);
    } catch (err) {
      throw this.threw(err);
    }
    path.push('');
    for (const key of keys) {
      path[path.length - 1] = key;
      // Always here: the core could only name such a member `?`.
      if (!key.isWellFormed()) throw this.member(`its name ${LONE_SURROGATE.slice(3)}`);
      let item;
      try {
        item = /** @type {Record<string, unknown>} */ (object)[key];
      } catch (err) {
        throw this.threw(err);
      }
      if (item === undefined) continue;
      const copied = typeof item === 'string' && (this.asText || item.isWellFormed()) ? item : this.copy(item);
      if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else out[key] = copied;
    }
    path.pop();
    return out;
  }
}

/**
 * Data given as an object to a call that takes it as such (`facts`, `overlays`,
 * `sources`): a checked plain copy ({@link plainData}), `undefined` when absent.
 * @param {unknown} value
 * @param {string} field
 */
function dataArg(value, field) {
  if (value === undefined || value === null) return undefined;
  return plainData(value, field, false);
}

/**
 * An optional string option (`undefined` and `null` are absent).
 * @param {unknown} value
 * @param {string} field
 */
function optionalString(value, field) {
  return value === undefined || value === null ? undefined : requireString(value, field);
}

/**
 * An optional path option (`undefined` and `null` are absent); see {@link requirePath}.
 * @param {unknown} value
 * @param {string} field
 */
function optionalPath(value, field) {
  return value === undefined || value === null ? undefined : requirePath(value, field);
}

/** The options of the calls that take a registry only. */
const REGISTRY_ONLY = ['registry'];

/** The options of {@link resolveInstalledSurfaces}. */
const SURFACE_OPTIONS = ['facts', 'registry'];

/** The options of {@link buildShadowReport}. */
const SHADOW_OPTIONS = ['facts', 'sampleLimit', 'registry'];

/**
 * Overlay folders as data (`[{ folder, manifest, fragments? }]`): a checked plain copy.
 * @param {unknown} overlays
 */
function overlaysArg(overlays) {
  if (!isArray(overlays)) throw invalidArgument('overlays', `overlays must be an array, got ${render(overlays)}`);
  return plainData(overlays, 'overlays', false);
}

/**
 * Resolves one install scope of a runtime.
 * @param {string} runtime
 * @param {string} scope `global` or `local`
 * @param {object} [host] plain host data; omitted: the real machine
 * @param {{ explicitDir?: string, registry?: object }} [options]
 */
function resolveScope(runtime, scope, host, options) {
  const { explicitDir, registry } = optionsArg(options, SCOPE_OPTIONS);
  return deepFreeze(
    native.resolveScope(
      requireString(runtime, 'runtime'),
      requireString(scope, 'scope'),
      hostData(host),
      optionalPath(explicitDir, 'explicitDir'),
      registryOrDefault(registry),
    ),
  );
}

/** The options of {@link resolveScope}. */
const SCOPE_OPTIONS = ['explicitDir', 'registry'];

/**
 * The global config directory of a runtime and the rule that decided it.
 * @param {string} runtime
 * @param {object} [host]
 * @param {{ registry?: object }} [options]
 */
function resolveConfigHome(runtime, host, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  return deepFreeze(native.resolveConfigHome(requireString(runtime, 'runtime'), hostData(host), registryOrDefault(registry)));
}

/**
 * The artifact layout of a runtime at a scope, rooted at `configDir`.
 * @param {string} runtime
 * @param {string} configDir
 * @param {string} scope
 * @param {object} [host]
 * @param {{ registry?: object }} [options]
 */
function resolveLayout(runtime, configDir, scope, host, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  return deepFreeze(
    native.resolveLayout(
      requireString(runtime, 'runtime'),
      requirePath(configDir, 'configDir'),
      requireString(scope, 'scope'),
      hostData(host),
      registryOrDefault(registry),
    ),
  );
}

/**
 * The trigger surface of a runtime across scopes; every shadowed trigger names its winner.
 * @param {string} runtime
 * @param {string[]} scopes
 * @param {{ stems: string[], routerStems?: string[], childToRouters?: Record<string, string[]> }} input
 * @param {{ registry?: object }} [options]
 */
function resolveTriggerSurface(runtime, scopes, input, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  const ids = stringList(scopes, 'scopes');
  return freezeParsed(
    JSON.parse(
      native.resolveTriggerSurfaceJson(
        requireString(runtime, 'runtime'),
        ids,
        /** @type {string} */ (jsonArg(objectArg(input, 'input'), 'input')),
        registryOrDefault(registry),
      ),
    ),
  );
}

/**
 * A plan as a frozen plain object over the texts the core returned: the small fields are
 * parsed now, each large section (kinds, placements, uninstall, triggers, diagnostics) on
 * first read, then deep-frozen and kept. The keys, their order and the values are those of
 * the plan; the large ones are enumerable getters, so `JSON.stringify`, spreading and
 * `assert.deepStrictEqual` see plain values.
 * @param {string[]} texts `[head, kinds, placements, uninstall, triggers, diagnostics]`
 */
function planObject(texts) {
  const head = freezeParsed(JSON.parse(texts[0]));
  /** @type {any} */
  let kinds;
  /** @type {any} */
  let placements;
  /** @type {any} */
  let uninstall;
  /** @type {any} */
  let triggers;
  /** @type {any} */
  let diagnostics;
  const plan = {
    runtime: head.runtime,
    scope: head.scope,
    commandStyle: head.commandStyle,
    config: head.config,
    hooks: head.hooks,
    sandboxTier: head.sandboxTier,
    supportTier: head.supportTier,
    get kinds() {
      return (kinds ??= freezeParsed(JSON.parse(texts[1])));
    },
    get placements() {
      return (placements ??= freezeParsed(JSON.parse(texts[2])));
    },
    get uninstall() {
      return (uninstall ??= freezeParsed(JSON.parse(texts[3])));
    },
    get triggers() {
      return (triggers ??= freezeParsed(JSON.parse(texts[4])));
    },
    installManifest: head.installManifest,
    get diagnostics() {
      return (diagnostics ??= freezeParsed(JSON.parse(texts[5])));
    },
  };
  // `console.log(plan)` shows values, not `[Getter]` (not enumerable: equality ignores it).
  Object.defineProperty(plan, INSPECT, INSPECT_PLAN);
  return Object.freeze(plan);
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * @this {Record<string, unknown>}
 * @param {number} depth
 * @param {object} options
 * @param {(value: unknown, options: object) => string} inspect
 */
function inspectPlan(depth, options, inspect) {
  const shown = { ...this };
  // A lazy list is inspected as its values (util.inspect looks through a Proxy at its
  // target, which holds nothing before the first read).
  for (const key of LAZY_SECTIONS) shown[key] = [...shown[key]];
  for (const key of ['kinds', 'uninstall']) shown[key] = [...shown[key]];
  shown.scope = { ...shown.scope };
  return inspect(shown, options);
}

/**
 * The descriptor of a plan's custom inspect (not enumerable, so equality, spreading and
 * JSON ignore it), one shared object: a descriptor literal per plan cost about 0.2 µs.
 */
const INSPECT_PLAN = Object.freeze({ value: inspectPlan });

/** The members of the plan options. */
const PLAN_OPTIONS = ['explicitDir', 'inventory', 'commands', 'agents', 'routerStems', 'childToRouters', 'profile', 'registry'];

/** The inventory keys of the plan options (given raw, or held by an {@link inventory}). */
const INVENTORY_FIELDS = ['commands', 'agents', 'routerStems', 'childToRouters'];

/** The native handle of each object {@link inventory} returned (no other object has one). */
const inventoryHandles = new WeakMap();

/**
 * A source inventory built once for any number of plans: the stems are copied, checked by
 * the core once (an invalid stem fails here, `INVALID_ARGUMENT` naming it, e.g.
 * `commands[3]`) and kept native, so a plan given `{ inventory }` sends no stems. Returns
 * a frozen plain object with the four lists (a copy: changing the caller's arrays later
 * changes nothing).
 * @param {{ commands?: string[], agents?: string[], routerStems?: string[], childToRouters?: Record<string, string[]> }} [input]
 */
function inventory(input) {
  if (input !== undefined && input !== null && (typeof input !== 'object' || isArray(input))) {
    throw invalidArgument('inventory', `inventory must be an object { commands?, agents?, routerStems?, childToRouters? }, got ${render(input)}`);
  }
  const text = /** @type {string} */ (jsonArg(input ?? {}, 'inventory'));
  const handle = native.Inventory.fromJson(text);
  const given = JSON.parse(text);
  // Own members only, as the native side read them: an absent list must not be found on
  // a polluted Object.prototype.
  const own = (key, absent) => (Object.hasOwn(given, key) ? given[key] : absent);
  const copy = freezeParsed({
    commands: own('commands', []),
    agents: own('agents', []),
    routerStems: own('routerStems', []),
    childToRouters: own('childToRouters', {}),
  });
  inventoryHandles.set(copy, handle);
  return copy;
}

/**
 * What a lazy section of a plan over an inventory needs to be computed: the inputs of the
 * head call, kept as given (texts and shared handles, no native object per plan).
 */
class PlanInputs {
  /**
   * @param {string} runtime
   * @param {string} scope
   * @param {string | undefined} host host data as JSON text
   * @param {string | undefined} options
   * @param {object} inventory the native inventory handle
   * @param {object} registry
   * @param {readonly string[]} stems the inventory's commands (see {@link fillTriggerSegments})
   */
  constructor(runtime, scope, host, options, inventory, registry, stems) {
    this.runtime = runtime;
    this.scope = scope;
    this.host = host;
    this.options = options;
    this.inventory = inventory;
    this.registry = registry;
    this.stems = stems;
  }

  /**
   * One lazy part of the plan as JSON text (see `planSection`).
   * @param {string} name
   * @returns {string}
   */
  section(name) {
    return native.planSection(name, this.runtime, this.scope, this.host, this.options, this.inventory, this.registry);
  }
}

/**
 * The inputs of a plan decided through a planner: the planner, the target number and the
 * compact host text, all immutable (the host was copied into the text at call time).
 */
class PlannerInputs {
  /**
   * @param {object} planner
   * @param {number} target
   * @param {string} host
   * @param {readonly string[]} stems the commands of the planner's inventory (see {@link fillTriggerSegments})
   */
  constructor(planner, target, host, stems) {
    this.planner = planner;
    this.target = target;
    this.host = host;
    this.stems = stems;
  }

  /**
   * @param {string} name
   * @returns {string}
   */
  section(name) {
    return native.planSectionAt(name, this.planner, this.target, this.host);
  }
}

/**
 * The records of a plan's placements and triggers, and a trigger's `shadowedBy`, are built
 * by these constructors rather than by object literals. V8 tracks an allocation site for
 * every literal and, once it sees the objects of a site survive a young-generation
 * collection, allocates all later ones straight into the old generation. Records built
 * there hold the young strings they point to alive until a full collection, and every
 * young collection copies those strings: in a process where V8 took that decision,
 * reading every trigger record of a plan ran about 2.5x slower (docs/performance.md,
 * change 23). Objects built by `new` carry no allocation site. Each prototype is
 * `Object.prototype`, so a record is the plain object the literal would make: the same
 * own properties in the same order, the same prototype, frozen by the caller.
 */

/**
 * @constructor
 * @param {string} kind
 * @param {string} stem
 * @param {string} source
 * @param {string} destination
 * @param {string | null} converter
 */
function PlacementRecord(kind, stem, source, destination, converter) {
  this.kind = kind;
  this.stem = stem;
  this.source = source;
  this.destination = destination;
  this.converter = converter;
}
PlacementRecord.prototype = Object.prototype;

/**
 * @constructor
 * @param {string} trigger
 * @param {string} kind
 * @param {string} scope
 * @param {string} destPath
 * @param {string} registration
 * @param {string | null} routerTrigger
 * @param {object | null} shadowedBy
 */
function TriggerRecord(trigger, kind, scope, destPath, registration, routerTrigger, shadowedBy) {
  this.trigger = trigger;
  this.kind = kind;
  this.scope = scope;
  this.destPath = destPath;
  this.registration = registration;
  this.routerTrigger = routerTrigger;
  this.shadowedBy = shadowedBy;
}
TriggerRecord.prototype = Object.prototype;

/**
 * @constructor
 * @param {string} kind
 * @param {string} scope
 */
function ShadowedBy(kind, scope) {
  this.kind = kind;
  this.scope = scope;
}
ShadowedBy.prototype = Object.prototype;

/**
 * Records from the rows the core sends for placements and triggers (values in field
 * order, no keys: about half the text, parsed in about half the time); the constructors
 * take the values in the core's field order. Diagnostics cross as records.
 * @type {Record<string, (row: any[]) => object>}
 */
const RECORD_OF_ROW = {
  placements: (row) => Object.freeze(new PlacementRecord(row[0], row[1], row[2], row[3], row[4])),
  triggers: (row) =>
    Object.freeze(
      new TriggerRecord(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6] === null ? null : Object.freeze(new ShadowedBy(row[6], row[7])),
      ),
    ),
};

/** `null` in fields text (see {@link fillPlacementFields}). */
const NULL_FIELD = '\u0001';

/** Values per placement in fields text. */
const PLACEMENT_FIELDS = 5;

/**
 * Throws unless the core returned as many records as the head call announced.
 * @param {string} name
 * @param {number} count
 * @param {number} length
 */
function checkCount(name, count, length) {
  if (count !== length) throw new Error(`plan.${name}: the core returned ${count} records for a list of ${length}`);
}

/**
 * Placement records from fields text, the other form the core sends placement rows in
 * (`bindings/node/src/rows.rs`): NUL, then every value followed by NUL, `null` written as
 * U+0001, used whenever no value holds either character. `String.prototype.split` reads it
 * about 2.5x faster than `JSON.parse` reads the same rows.
 * @param {string} text
 * @param {number} length the length the head call announced
 * @param {any[]} target filled in place
 */
function fillPlacementFields(text, length, target) {
  // '' before the leading NUL and after the last value's NUL.
  const f = text.split('\u0000');
  checkCount('placements', (f.length - 2) / PLACEMENT_FIELDS, length);
  for (let i = 1; i < f.length - 1; i += PLACEMENT_FIELDS) {
    target.push(
      Object.freeze(new PlacementRecord(f[i], f[i + 1], f[i + 2], f[i + 3], f[i + 4] === NULL_FIELD ? null : f[i + 4])),
    );
  }
}

/** Codes per trigger in segments text (see {@link fillTriggerSegments}). */
const SEGMENT_CODES = 10;

/**
 * Trigger records from segments text (`bindings/node/src/rows.rs`, `trigger_segments`):
 * U+0002, ten codes per trigger, then a table of pieces, each after a NUL. A code is the
 * index of a piece in `text.split('\0')`; 1 is the empty slot and stands for `null`.
 * Each string is the concatenation the codes name, so the text carries each stem, prefix
 * and destination head once. `shadowedBy` records of one winner are one frozen object.
 * The codes of a trigger: kind, scope, registration, prefix, stem, destination head and
 * extension, router, `shadowedBy.kind`, `shadowedBy.scope`.
 *
 * With `stems` (text starting with U+0003), the text leaves the stems out because they
 * are the inventory's `commands`, which this side holds: nine codes per trigger (no stem
 * code), trigger `i` bearing `stems[i % stems.length]`, and the pieces from index 2.
 * @param {string} text
 * @param {number} length the length the head call announced
 * @param {any[]} target filled in place
 * @param {readonly string[]} [stems] the stems the text leaves out
 */
function fillTriggerSegments(text, length, target, stems) {
  const t = text.split('\u0000');
  const c = t[0];
  const width = stems === undefined ? SEGMENT_CODES : SEGMENT_CODES - 1;
  const count = (c.length - 1) / width;
  checkCount('triggers', count, length);
  const n = stems === undefined ? 0 : stems.length;
  if (stems !== undefined && (n === 0 ? count !== 0 : count % n !== 0)) {
    throw new Error(`plan.triggers: ${count} records do not cover ${n} stems evenly`);
  }
  // Where the codes after the stem's slot start within a trigger's codes.
  const after = stems === undefined ? 5 : 4;
  let next = 0;
  let byKind = 0;
  let byScope = 0;
  /** @type {object | null} */
  let by = null;
  for (let i = 1; i < c.length; i += width) {
    const prefix = t[c.charCodeAt(i + 3)];
    let stem;
    if (stems === undefined) {
      stem = t[c.charCodeAt(i + 4)];
    } else {
      stem = stems[next];
      next = next + 1 === n ? 0 : next + 1;
    }
    const a = i + after;
    const router = c.charCodeAt(a + 2);
    const k = c.charCodeAt(a + 3);
    const s = c.charCodeAt(a + 4);
    if (k !== 1 && (k !== byKind || s !== byScope)) {
      by = Object.freeze(new ShadowedBy(t[k], t[s]));
      byKind = k;
      byScope = s;
    }
    target.push(
      Object.freeze(
        new TriggerRecord(
          prefix + stem,
          t[c.charCodeAt(i)],
          t[c.charCodeAt(i + 1)],
          t[c.charCodeAt(a)] + stem + t[c.charCodeAt(a + 1)],
          t[c.charCodeAt(i + 2)],
          router === 1 ? null : prefix + t[router],
          k === 1 ? null : by,
        ),
      ),
    );
  }
}

/**
 * The records of one lazy list from the text the core sent: segments text for triggers
 * (starts with U+0002, or U+0003 when it leaves out the inventory's stems), fields text
 * for placements (starts with NUL) or JSON (rows for placements and triggers, records for
 * the other lists).
 * @param {string} name
 * @param {string} text
 * @param {number} length the length the head call announced
 * @param {any[]} target filled in place
 * @param {readonly string[]} stems the inventory's commands
 */
function fillList(name, text, length, target, stems) {
  const marker = text.charCodeAt(0);
  if (marker === 2 || marker === 3) return fillTriggerSegments(text, length, target, marker === 3 ? stems : undefined);
  if (marker === 0) return fillPlacementFields(text, length, target);
  const items = JSON.parse(text);
  checkCount(name, items.length, length);
  const record = RECORD_OF_ROW[name];
  for (let i = 0; i < items.length; i += 1) {
    target.push(record === undefined ? freezeParsed(items[i]) : record(items[i]));
  }
}

/**
 * The Proxy handler of one lazy list of a plan (`this` in the traps). The target starts
 * as an empty array and `length` is the handler's (the list's length, known from the
 * head call), so a plan allocates no storage for a list nobody reads; every other
 * operation first fills the target from the core (one native call, the rows parsed,
 * deep-freeze), freezes it, and then acts on it, so the proxy behaves exactly as the
 * frozen array and the Proxy invariants hold (the target is extensible until filled and
 * frozen after; `length` is writable on an array, so reporting it before the fill breaks
 * no invariant, and every operation that could compare it with the target fills first).
 * The prototype is the target's (`Array.prototype`) without filling.
 */
class LazySection {
  /**
   * @param {PlanInputs | PlannerInputs | null} inputs
   * @param {string} name
   * @param {number} length the list's length, or -1 for `scope` (an object)
   */
  constructor(inputs, name, length) {
    /** @type {PlanInputs | PlannerInputs | null} */
    this.inputs = inputs;
    this.name = name;
    this.length = length;
    /** @type {(() => Iterator<any>) | undefined} */
    this.iterate = undefined;
  }

  /**
   * The filled, frozen target.
   * @param {any[]} target
   */
  filled(target) {
    const inputs = this.inputs;
    if (inputs !== null) {
      delete target[INSPECT];
      fillList(this.name, inputs.section(this.name), this.length, target, inputs.stems);
      Object.freeze(target);
      this.inputs = null;
    }
    return target;
  }

  /** @param {any[]} target @param {string | symbol} key */
  get(target, key) {
    if (key === 'length' && this.length >= 0) return this.length;
    const filled = this.filled(target);
    // Iteration (for-of, spreading, Array.from, destructuring) walks the frozen array
    // itself: the same values in the same order, without a trap per element.
    if (key === Symbol.iterator && Array.isArray(filled)) return (this.iterate ??= () => filled[Symbol.iterator]());
    return filled[/** @type {any} */ (key)];
  }

  /** @param {any[]} target @param {string | symbol} key @param {unknown} value */
  set(target, key, value) {
    return Reflect.set(this.filled(target), key, value);
  }

  /** @param {any[]} target @param {string | symbol} key */
  has(target, key) {
    return Reflect.has(this.filled(target), key);
  }

  /** @param {any[]} target */
  ownKeys(target) {
    return Reflect.ownKeys(this.filled(target));
  }

  /** @param {any[]} target @param {string | symbol} key */
  getOwnPropertyDescriptor(target, key) {
    return Reflect.getOwnPropertyDescriptor(this.filled(target), key);
  }

  /** @param {any[]} target @param {string | symbol} key @param {PropertyDescriptor} descriptor */
  defineProperty(target, key, descriptor) {
    return Reflect.defineProperty(this.filled(target), key, descriptor);
  }

  /** @param {any[]} target @param {string | symbol} key */
  deleteProperty(target, key) {
    return Reflect.deleteProperty(this.filled(target), key);
  }

  /** @param {any[]} target */
  isExtensible(target) {
    return Reflect.isExtensible(this.filled(target));
  }

  /** @param {any[]} target */
  preventExtensions(target) {
    return Reflect.preventExtensions(this.filled(target));
  }

  /** @param {any[]} target @param {object | null} proto */
  setPrototypeOf(target, proto) {
    return Reflect.setPrototypeOf(this.filled(target), proto);
  }
}

/**
 * Per registry handle: runtime id → `[global, local]`, the plan fields of that runtime at
 * that scope that depend on neither the host nor the inventory (`runtime`, `commandStyle`,
 * `config`, `hooks`, `sandboxTier`, `supportTier`, `installManifest`), deep-frozen, from
 * the first head of that runtime and scope (`undefined` before it). Later heads leave
 * them out. The pair is shared with every planner of the registry.
 * @type {WeakMap<object, Map<string, [Record<string, any> | undefined, Record<string, any> | undefined]>>}
 */
const planConstants = new WeakMap();

/**
 * The `[global, local]` constants of a runtime in a registry (filled as first heads come).
 * @param {object} registry
 * @param {string} runtime
 */
function constantsOfRuntime(registry, runtime) {
  let known = planConstants.get(registry);
  if (known === undefined) planConstants.set(registry, (known = new Map()));
  let pair = known.get(runtime);
  if (pair === undefined) {
    /** @type {[Record<string, any> | undefined, Record<string, any> | undefined]} */
    const fresh = [undefined, undefined];
    known.set(runtime, (pair = fresh));
  }
  return pair;
}

/**
 * The planner of an inventory over a registry (built once per pair): the native value that
 * holds both, and per runtime id its target number (its index times two; `+ 1` for
 * `local`) with its shared constants.
 * @typedef {{ planner: object, targets: Map<string, { target: number, constants: [Record<string, any> | undefined, Record<string, any> | undefined] }> }} PlannerEntry
 * @type {WeakMap<object, WeakMap<object, PlannerEntry>>}
 */
const planners = new WeakMap();

/**
 * @param {object} handle the native inventory
 * @param {object} registry
 * @returns {PlannerEntry}
 */
function plannerOf(handle, registry) {
  let byRegistry = planners.get(handle);
  if (byRegistry === undefined) planners.set(handle, (byRegistry = new WeakMap()));
  let entry = byRegistry.get(registry);
  if (entry === undefined) {
    const planner = native.planner(handle, registry);
    const targets = new Map();
    native.plannerRuntimes(planner).forEach((runtime, index) => {
      targets.set(runtime, { target: index * 2, constants: constantsOfRuntime(registry, runtime) });
    });
    entry = { planner, targets };
    byRegistry.set(registry, entry);
  }
  return entry;
}

/**
 * Host data as the planner's compact text (`envCount`, `pathCount`, `home`, `cwd`, the env
 * names and values, the existing paths, separated by NUL), or `undefined` when the host is
 * anything but a plain object of exactly those fields holding plain strings: such a host
 * crosses as JSON, which gives its error or its value exactly. The strings are read once
 * and copied into the text, so a later change to the host changes nothing of the plan. A
 * NUL or a lone surrogate inside a string is caught natively (`planHeadAt` answers `-2`).
 * With the text comes `data`, a plain copy of what was read: a plan that crosses as JSON
 * after all spells that copy, so no getter of the host is read twice.
 * @param {Record<string, any>} host
 * @returns {{ text: string, data: Record<string, unknown> } | undefined}
 */
function compactHost(host) {
  if (Object.getPrototypeOf(host) !== Object.prototype || host.toJSON !== undefined) return undefined;
  let home;
  let cwd;
  let env;
  let paths;
  for (const key in host) {
    const value = host[key];
    if (key === 'home') home = value;
    else if (key === 'cwd') cwd = value;
    else if (key === 'env') env = value;
    else if (key === 'existingPaths') paths = value;
    else return undefined;
  }
  if (typeof home !== 'string' || typeof cwd !== 'string') return undefined;
  let text = `${home}\0${cwd}`;
  // Without a prototype, as every copy: a member named `__proto__` stays a member.
  /** @type {Record<string, unknown>} */
  const data = Object.assign(Object.create(null), { home, cwd });
  let envCount = 0;
  if (env !== undefined) {
    if (env === null || typeof env !== 'object' || Object.getPrototypeOf(env) !== Object.prototype || env.toJSON !== undefined) {
      return undefined;
    }
    /** @type {Record<string, string>} */
    const envData = Object.create(null);
    for (const name in env) {
      const value = env[name];
      if (typeof value !== 'string') return undefined;
      text += `\0${name}\0${value}`;
      envData[name] = value;
      envCount += 1;
    }
    data.env = envData;
  }
  let pathCount = 0;
  if (paths !== undefined) {
    if (!Array.isArray(paths) || /** @type {any} */ (paths).toJSON !== undefined) return undefined;
    const length = paths.length;
    // Past the bound, the JSON path refuses it by name.
    if (length > MAX_LIST_ITEMS) return undefined;
    const pathData = [];
    for (; pathCount < length; pathCount += 1) {
      const item = paths[pathCount];
      if (typeof item !== 'string') return undefined;
      text += `\0${item}`;
      pathData.push(item);
    }
    data.existingPaths = pathData;
  }
  return { text: `${envCount}\0${pathCount}\0${text}`, data };
}

/**
 * The shared state of a plan's `scope`, `kinds` and `uninstall`: the plan's inputs until
 * the first access of any of the three, which fills all three targets with one native call
 * (deciding the plan again from the inputs) and freezes them.
 */
class HeadParts {
  /**
   * @param {PlanInputs | PlannerInputs} inputs
   * @param {number} kinds the length of `kinds` and of `uninstall`
   */
  constructor(inputs, kinds) {
    /** @type {PlanInputs | PlannerInputs | null} */
    this.inputs = inputs;
    this.kinds = kinds;
    /** The unfilled targets (`kinds` and `uninstall` stay `null` when the lists are empty). */
    this.scopeTarget = unfilled({});
    /** @type {any[] | null} */
    this.kindsTarget = null;
    /** @type {any[] | null} */
    this.uninstallTarget = null;
  }

  fill() {
    const inputs = this.inputs;
    if (inputs === null) return;
    const parts = JSON.parse(inputs.section('head'));
    this.inputs = null;
    for (const target of [this.scopeTarget, this.kindsTarget, this.uninstallTarget]) {
      if (target !== null) delete (/** @type {any} */ (target))[INSPECT];
    }
    Object.freeze(Object.assign(this.scopeTarget, freezeParsed(parts.scope)));
    for (const [name, target] of [
      ['kinds', this.kindsTarget],
      ['uninstall', this.uninstallTarget],
    ]) {
      if (target === null) continue;
      const items = parts[name];
      checkCount(name, items.length, this.kinds);
      for (let i = 0; i < items.length; i += 1) target.push(freezeParsed(items[i]));
      Object.freeze(target);
    }
  }
}

/**
 * The Proxy handler of `scope`, `kinds` or `uninstall` of a plan over an inventory: as a
 * lazy list, but filled through the plan's shared {@link HeadParts}. `scope` is a plain
 * object (its target `{}`); `length` of `kinds` and `uninstall` is known at once.
 */
class LazyHeadPart extends LazySection {
  /**
   * @param {HeadParts} parts
   * @param {string} name
   * @param {number} length
   */
  constructor(parts, name, length) {
    super(null, name, length);
    this.parts = parts;
  }

  /** @param {any} target */
  filled(target) {
    this.parts.fill();
    return target;
  }
}

/**
 * A plan over an inventory: the runtime's constants (shared, frozen) and, as lazy values
 * of known shape, the rest: `scope` (an object), `kinds` and `uninstall` (lists of the
 * same length), all three filled by one native call on the first access of any of them;
 * and `placements`, `triggers` and `diagnostics`, each filled by its own native call on
 * first access. An empty list is the shared frozen `[]`. The literal lists the keys in
 * the plan's field order; each value is the plan's own, kept once filled.
 * @param {Record<string, any>} constants
 * @param {ArrayLike<number>} lengths `[placements, triggers, diagnostics, kinds]`
 * @param {PlanInputs | PlannerInputs} inputs
 */
function lazyPlanObject(constants, lengths, inputs) {
  const kinds = lengths[3];
  const parts = new HeadParts(inputs, kinds);
  /** @type {any[]} */
  let kindsList = EMPTY;
  /** @type {any[]} */
  let uninstallList = EMPTY;
  if (kinds !== 0) {
    parts.kindsTarget = unfilled([]);
    parts.uninstallTarget = unfilled([]);
    kindsList = new Proxy(parts.kindsTarget, new LazyHeadPart(parts, 'kinds', kinds));
    uninstallList = new Proxy(parts.uninstallTarget, new LazyHeadPart(parts, 'uninstall', kinds));
  }
  const plan = {
    runtime: constants.runtime,
    scope: new Proxy(parts.scopeTarget, new LazyHeadPart(parts, 'scope', -1)),
    commandStyle: constants.commandStyle,
    config: constants.config,
    hooks: constants.hooks,
    sandboxTier: constants.sandboxTier,
    supportTier: constants.supportTier,
    kinds: kindsList,
    placements: lazyList(lengths[0], inputs, 'placements'),
    uninstall: uninstallList,
    triggers: lazyList(lengths[1], inputs, 'triggers'),
    installManifest: constants.installManifest,
    diagnostics: lazyList(lengths[2], inputs, 'diagnostics'),
  };
  Object.defineProperty(plan, INSPECT, INSPECT_PLAN);
  return Object.freeze(plan);
}

/**
 * A lazy list of `length` records, or the shared frozen `[]`.
 * @param {number} length
 * @param {PlanInputs | PlannerInputs} inputs
 * @param {string} name
 */
function lazyList(length, inputs, name) {
  return length === 0 ? EMPTY : new Proxy(unfilled([]), new LazySection(inputs, name, length));
}

/**
 * A lazy section's target before it is filled: `util.inspect` (and so `console.log`) looks
 * through a Proxy at its target, which holds nothing yet, and would print `[]`; the target
 * carries a custom inspect that reads the values through the Proxy instead (which fills
 * it). Filling removes it, before any trap could show it, so equality, spreading and
 * `Object.getOwnPropertySymbols` never see it. An assignment, not `defineProperty`: about
 * 7 ns against 140 ns per list.
 * @template {object} T
 * @param {T} target
 * @returns {T}
 */
function unfilled(target) {
  /** @type {any} */ (target)[INSPECT] = inspectLazy;
  return target;
}

/**
 * @this {any} the Proxy of an unfilled section
 * @param {number} depth
 * @param {object} options
 * @param {(value: unknown, options: object) => string} inspect
 */
function inspectLazy(depth, options, inspect) {
  return inspect(Array.isArray(this) ? [...this] : { ...this }, options);
}

/** What `planHead` and `planHeadAt` return when a length is too large to pack. */
const TOO_LARGE = -1;

/**
 * `[placements, triggers, diagnostics, kinds]` from the one number `planHead` returns:
 * `placements + triggers·2¹⁶ + diagnostics·2³² + kinds·2⁴⁸` (an exact integer: 53 bits).
 * @param {number} packed
 */
function unpackLengths(packed) {
  const placements = packed % 65536;
  let rest = (packed - placements) / 65536;
  const triggers = rest % 65536;
  rest = (rest - triggers) / 65536;
  const diagnostics = rest % 65536;
  return [placements, triggers, diagnostics, (rest - diagnostics) / 65536];
}

/**
 * The runtime's constants as the first head of a registry, runtime and scope gave them.
 * @param {string} text
 */
function constantsOf(text) {
  return freezeParsed(JSON.parse(text));
}

/** The plan lists a plan over an inventory computes on first access. */
const LAZY_SECTIONS = ['placements', 'triggers', 'diagnostics'];

/**
 * The install plan of a runtime at a scope: scope, config intent, hooks, layout kinds,
 * placements, uninstall items, trigger surface (with shadowing), the install-manifest
 * record, and diagnostics. The plan is a deep-frozen plain object.
 *
 * Give the source inventory as `{ inventory }` (from {@link inventory}, built once) for the
 * fast path: the call decides the plan (every error raises here) but only the lengths of
 * its lists cross; `scope`, `kinds` and `uninstall` are computed together by the core on
 * the first access of any of them, and `placements`, `triggers` and `diagnostics` each on
 * its own first access (a list's `length` is known without that). Raw `commands` / `agents` / `routerStems`
 * / `childToRouters` still work (they cross as text on every call, and the plan's large
 * sections are parsed on first read); giving both is an `INVALID_ARGUMENT` naming the raw
 * field. Either way the values are the same.
 * @param {string} runtime
 * @param {string} scope
 * @param {object} [host] plain host data; omitted: the real machine
 * @param {object} [options] inventory or (commands, agents, routerStems, childToRouters); explicitDir, profile, registry
 */
function resolveInstallPlan(runtime, scope, host, options) {
  // The options are checked and read as every options bag is (optionsArg: own members
  // checked for unknown names, the known ones read as properties, inherited ones too); the
  // rest, beside the inventory and the registry, cross as JSON, and only when there are any.
  const { inventory: held, registry, ...others } = /** @type {Record<string, any>} */ (optionsArg(options, PLAN_OPTIONS));
  /** @type {Record<string, unknown> | undefined} */
  const rest = Object.keys(others).length > 0 ? others : undefined;
  if (held === undefined || held === null) {
    return planObject(
      native.resolveInstallPlanSections(
        requireString(runtime, 'runtime'),
        requireString(scope, 'scope'),
        jsonArg(hostArg(host), 'host'),
        jsonArg(rest, 'options'),
        registryOrDefault(registry),
      ),
    );
  }
  const handle = typeof held === 'object' ? inventoryHandles.get(held) : undefined;
  if (handle === undefined) throw invalidArgument('inventory', 'inventory must be an object returned by inventory()');
  if (rest !== undefined) {
    // Own members only: `for...in` would also see a polluted Object.prototype's.
    for (const key of Object.keys(rest)) {
      if (INVENTORY_FIELDS.includes(key)) {
        throw invalidArgument(key, `${key} cannot be given together with inventory (the inventory holds the stems)`);
      }
    }
  }
  const runtimeId = requireString(runtime, 'runtime');
  const scopeId = requireString(scope, 'scope');
  const givenHost = hostArg(host);
  // 0 for global, 1 for local (the index of a runtime's constants, and the target's low
  // bit); -1 for any other scope, which the core refuses.
  const local = scopeId === 'global' ? 0 : scopeId === 'local' ? 1 : -1;
  /** @type {{ text: string, data: Record<string, unknown> } | undefined} */
  let compact;
  if (givenHost !== undefined) {
    try {
      compact = compactHost(givenHost);
    } catch {
      // A getter or Proxy trap of the host threw: the JSON path reads the host again and
      // refuses it with the error every other path gives (INVALID_ARGUMENT, its member).
      compact = undefined;
    }
  }
  const text = rest === undefined ? compact?.text : undefined;
  let unpackable = false;
  if (text !== undefined && local >= 0) {
    // The common call: a planner, a target number and the compact host cross, and only the
    // lengths come back, packed in one number (see unpackLengths). (A compact host cannot
    // fail JSON.stringify, so checking the registry first raises what the JSON path would.)
    const entry = plannerOf(handle, registryOrDefault(registry));
    const known = entry.targets.get(runtimeId);
    const constants = known === undefined ? undefined : known.constants[local];
    if (constants !== undefined) {
      const target = /** @type {{ target: number }} */ (known).target + local;
      const packed = native.planHeadAt(entry.planner, target, text);
      if (packed >= 0) return lazyPlanObject(constants, unpackLengths(packed), new PlannerInputs(entry.planner, target, text, held.commands));
      unpackable = packed === TOO_LARGE;
    }
  }
  // The first plan of this runtime and scope, a plan with options, of the real machine or
  // of a host that is not plain strings, or lengths too large to pack: through JSON.
  const inputs = new PlanInputs(
    runtimeId,
    scopeId,
    // A host the compact text carries is plain strings: JSON spells it as it is, and a lone
    // surrogate is left to the core, which names it as plainData would.
    compact === undefined ? jsonArg(givenHost, 'host') : JSON.stringify(compact.data),
    rest === undefined ? undefined : jsonArg(rest, 'options'),
    handle,
    registryOrDefault(registry),
    held.commands,
  );
  const constants = local >= 0 ? planConstants.get(inputs.registry)?.get(runtimeId)?.[local] : undefined;
  if (constants !== undefined && inputs.host !== undefined && !unpackable) {
    const packed = native.planHead(runtimeId, scopeId, inputs.host, inputs.options, handle, inputs.registry);
    if (packed >= 0) return lazyPlanObject(constants, unpackLengths(packed), inputs);
  }
  const texts = native.planHeadFirst(runtimeId, scopeId, inputs.host, inputs.options, handle, constants === undefined, inputs.registry);
  // Without host data the addon read the machine once; the lazy parts use that same host.
  if (texts[2] !== '') inputs.host = texts[2];
  let shared = constants;
  if (shared === undefined) {
    // Kept only now that the core accepted the runtime and scope.
    shared = constantsOf(texts[1]);
    constantsOfRuntime(inputs.registry, runtimeId)[local] = shared;
  }
  return lazyPlanObject(shared, JSON.parse(texts[0]), inputs);
}

/**
 * The config-writing, hooks and sandbox intent of a runtime.
 * @param {string} runtime
 * @param {{ registry?: object }} [options]
 */
function installIntent(runtime, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  return deepFreeze(native.installIntent(requireString(runtime, 'runtime'), registryOrDefault(registry)));
}

/**
 * Spells a GSD command for a runtime: `/gsd-plan-phase`, or `$gsd-plan-phase` for codex.
 * A runtime the registry does not hold is spelled `/gsd-…`, as the peer spells it.
 * @param {string} commandName
 * @param {string} [runtime] default `claude`; aliases are canonicalized
 * @param {{ registry?: object }} [options] the registry whose runtimes are known (an
 *   overlay runtime's `commandStyle` counts); default the first-party registry
 */
function formatGsdSlash(commandName, runtime, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  return native.formatGsdSlash(requireString(commandName, 'commandName'), optionalString(runtime, 'runtime'), registryOrDefault(registry));
}

/** @param {unknown} manifest */
function manifestText(manifest) {
  if (typeof manifest === 'string') return manifest;
  if (manifest !== null && typeof manifest === 'object') {
    // Checked as every data argument is, so what JSON.stringify would drop or change
    // silently (a function, NaN, a Map, a toJSON method) or cannot write (a BigInt, a
    // cycle, a lone surrogate) is refused by the member it is at, `manifest.version`.
    return JSON.stringify(plainData(manifest, 'manifest', false));
  }
  throw invalidArgument('manifest', `manifest must be JSON text or an object, got ${render(manifest)}`);
}

/**
 * The last manifest text validated and its warning records, computed from the same parse:
 * a caller that validates a manifest and then asks for its warning records (what a loader
 * does) crosses and parses the text once.
 * @type {{ text: string, warnings: readonly object[] } | null}
 */
let lastChecked = null;

/**
 * Validates one capability manifest against its folder id. Errors in the peer's order, as
 * diagnostics; an empty array means valid. Text is bounded in size and depth before parsing
 * (failures: MANIFEST_TOO_LARGE, MANIFEST_TOO_DEEP, MANIFEST_INVALID_JSON).
 * @param {string | object} manifest JSON text or a parsed object
 * @param {string} folder
 */
function validateCapability(manifest, folder) {
  const text = manifestText(manifest);
  lastChecked = null;
  const checked = native.checkManifestJson(text, requireString(folder, 'folder'));
  if (checked === null) {
    lastChecked = { text, warnings: EMPTY };
    return EMPTY;
  }
  const { errors, warnings } = JSON.parse(checked);
  lastChecked = { text, warnings: frozenList(warnings) };
  return frozenList(errors);
}

/**
 * The typed warning records of one capability manifest (unknown keys etc.; never errors).
 * @param {string | object} manifest
 */
function warningRecords(manifest) {
  const text = manifestText(manifest);
  if (lastChecked !== null && lastChecked.text === text) return lastChecked.warnings;
  return parsedList(native.warningRecordsJson(text));
}

/**
 * Which GSD surfaces are installed, at which scopes, and the triggers they occupy:
 * `{ surfaces, diagnostics }` for one runtime, or every registered runtime when `runtime`
 * is omitted. Without `host`/`facts` the real machine is read (exactly the paths the core
 * lists); both may be passed as data.
 * @param {string} [runtime]
 * @param {object} [host]
 * @param {{ facts?: object, registry?: object }} [options]
 */
function resolveInstalledSurfaces(runtime, host, options) {
  const { facts, registry } = optionsArg(options, SURFACE_OPTIONS);
  return deepFreeze(
    native.resolveInstalledSurfaces(
      optionalString(runtime, 'runtime'),
      hostData(host),
      dataArg(facts, 'facts'),
      registryOrDefault(registry),
    ),
  );
}

/**
 * The shadow report of a runtime (which installed triggers hide which) and its rendered
 * lines: `{ report, lines }`; `lines` is empty unless something is shadowed.
 * @param {string} runtime
 * @param {object} [host]
 * @param {{ facts?: object, sampleLimit?: number, registry?: object }} [options]
 */
function buildShadowReport(runtime, host, options) {
  const { facts, sampleLimit: given, registry } = optionsArg(options, SHADOW_OPTIONS);
  // `null` is absent, as for every other option.
  // A Number object counts as its value, as it does in data.
  let sampleLimit = given ?? undefined;
  try {
    if (sampleLimit instanceof Number) sampleLimit = sampleLimit.valueOf();
  } catch (err) {
    throw invalidArgument('sampleLimit', `sampleLimit is invalid: reading it threw: ${thrownMessage(err)}`);
  }
  if (sampleLimit !== undefined && !(Number.isInteger(sampleLimit) && sampleLimit >= 0)) {
    throw invalidArgument('sampleLimit', `sampleLimit must be a non-negative integer, got ${render(sampleLimit)}`);
  }
  return deepFreeze(
    native.buildShadowReport(
      requireString(runtime, 'runtime'),
      hostData(host),
      dataArg(facts, 'facts'),
      // A limit past any sample count means every sample; the addon takes 32 bits.
      sampleLimit === undefined ? undefined : Math.min(sampleLimit, MAX_SAMPLE_LIMIT),
      registryOrDefault(registry),
    ),
  );
}

/**
 * A registry: the first-party capabilities plus third-party overlay folders. Rejected
 * overlays are reported by `registry.diagnostics()`, never thrown.
 * @param {Array<{ folder: string, manifest: string, fragments?: Record<string, string> }>} overlays
 * @param {{ registry?: object }} [options] the base registry (default: first-party)
 */
function buildRegistry(overlays, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  return nativeWithOverlays.call(registryOrDefault(registry), overlaysArg(overlays));
}

/**
 * Resolves an install profile (`core`, `standard`, `full`, or a composition such as
 * `core,audit`) over a GSD source tree given as data.
 * @param {string[]} modes
 * @param {{ commands: Array<{ stem: string, body: string }>, workflows?: Array<{ path: string, body: string }> }} sources
 * @param {{ registry?: object }} [options]
 */
function resolveProfile(modes, sources, options) {
  const { registry } = optionsArg(options, REGISTRY_ONLY);
  const names = stringList(modes, 'modes');
  return deepFreeze(native.resolveProfile(names, plainData(objectArg(sources, 'sources'), 'sources', false), registryOrDefault(registry)));
}

/**
 * The `requires:` list of a command file's front matter.
 * @param {string} text
 */
function parseRequires(text) {
  return deepFreeze(native.parseRequires(requireString(text, 'text')));
}

module.exports = {
  errorCodes,
  vocabulary,
  manifestLimits,
  firstPartyRegistry,
  runtimes,
  resolveScope,
  resolveConfigHome,
  resolveLayout,
  resolveTriggerSurface,
  resolveInstallPlan,
  inventory,
  installIntent,
  formatGsdSlash,
  validateCapability,
  warningRecords,
  resolveInstalledSurfaces,
  buildShadowReport,
  buildRegistry,
  resolveProfile,
  parseRequires,
  loadOverlayDir,
  Registry: native.Registry,
};
