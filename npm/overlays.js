'use strict';
/**
 * Loading third-party overlay folders from disk: the one place the package reads an
 * overlay tree. The core takes overlays as data (`{ folder, manifest, fragments }`); this
 * module walks an overlay root, refuses what could make the result depend on anything but
 * the folder's own regular files, and hands the rest to the core.
 *
 * Rules (shared with the C library's loader, same diagnostic codes):
 * - the root must be a real directory (not a symbolic link): else `INVALID_ARGUMENT`,
 *   field `dir`;
 * - root entries are taken in bytewise name order; a symbolic link is refused
 *   (`overlay_symlink_refused`), anything else that is not a directory is ignored unopened;
 * - inside a capability folder every entry is `lstat`ed and no link is followed: a link is
 *   `overlay_symlink_refused`, a FIFO, socket or device `overlay_not_regular_file` (never
 *   opened, so nothing blocks), more than 1 024 files or a path deeper than 16 levels
 *   `overlay_too_many_files`, a file or name that is not UTF-8 `overlay_not_utf8`, a failed
 *   read `overlay_unreadable`; a missing `capability.json` is `overlay_manifest_missing`.
 *   Any of these refuses the whole folder;
 * - files are opened with `O_NOFOLLOW | O_NONBLOCK`, checked again with `fstat`, and read
 *   up to the core's bound + 1 byte: that byte refuses the folder with the core's own size
 *   refusal (`overlay_manifest_too_large`, `overlay_fragment_too_large`), naming the file's
 *   size, not the bytes read;
 * - bytes are bounded before anything is opened (`overlay_too_large`, field null): the
 *   regular files of one folder, summed from `lstat`, may hold at most
 *   {@link FOLDER_MAX_BYTES}; the folders of one root that get read, in name order, at most
 *   {@link ROOT_MAX_BYTES} together (a folder that would pass it is refused unread, and so
 *   are the later ones that do not fit). Bytes actually read count too: a file that grew
 *   after its `lstat` is read only up to what is left of the budget + 1 byte, and the folder
 *   is refused when that byte arrives.
 */

const fs = require('node:fs');
const path = require('node:path');
const native = require('./binding.js');

/** Largest number of files in one capability folder. */
const MAX_FILES = 1024;
/** Deepest path (in segments, the file's name included) inside one capability folder. */
const MAX_DEPTH = 16;
/** Largest number of directories in one capability folder (so a walk of no file ends). */
const MAX_DIRS = 1024;
/** The core's bounds: manifest (`MANIFEST_MAX_BYTES`) and fragment (`FRAGMENT_MAX_BYTES`). */
const MANIFEST_MAX_BYTES = 8 * 1024 * 1024;
const FRAGMENT_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The byte bounds of the loader (the same numbers as the C library's loader): the regular
 * files of one capability folder may sum to at most 32 MiB, the folders read from one
 * overlay root to at most 256 MiB. Beyond them a folder is `overlay_too_large`, never read.
 */
const FOLDER_MAX_BYTES = 32 * 1024 * 1024;
const ROOT_MAX_BYTES = 256 * 1024 * 1024;
const MANIFEST = 'capability.json';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Characters a message may not carry raw: C0, DEL, C1, bidi controls, zero-width and
 * invisible characters, line and paragraph separators.
 */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/**
 * A name or path made safe to print, as the C loader writes it: a hidden character becomes
 * `\u{1b}`, a byte that is not UTF-8 `\xff`, a backslash `\\` (so distinct names stay
 * distinct).
 * @param {Buffer | string} name
 */
function escapeName(name) {
  const bytes = Buffer.isBuffer(name) ? name : Buffer.from(name, 'utf8');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const len = utf8SequenceLength(bytes, i);
    if (len === 0) {
      out += `\\x${bytes[i].toString(16).padStart(2, '0')}`;
      i += 1;
      continue;
    }
    const c = bytes.toString('utf8', i, i + len);
    if (c === '\\') out += '\\\\';
    else if (HIDDEN.test(c)) out += `\\u{${/** @type {number} */ (c.codePointAt(0)).toString(16)}}`;
    else out += c;
    i += len;
  }
  return out;
}

/** @param {string} text */
const escapeText = (text) => escapeName(text);

/**
 * The length of the valid UTF-8 sequence starting at `i`, or 0 when it is not valid
 * (overlong forms, surrogates and values past U+10FFFF are invalid).
 * @param {Buffer} b
 * @param {number} i
 */
function utf8SequenceLength(b, i) {
  const c = b[i];
  const cont = (k) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const d = b[i + 1];
    if ((c === 0xe0 && d < 0xa0) || (c === 0xed && d > 0x9f)) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const d = b[i + 1];
    if ((c === 0xf0 && d < 0x90) || (c === 0xf4 && d > 0x8f)) return 0;
    return 4;
  }
  return 0;
}

/**
 * Offset of the first byte that is not valid UTF-8, or -1 when all are.
 * @param {Buffer} b
 */
function invalidUtf8At(b) {
  let i = 0;
  while (i < b.length) {
    const len = utf8SequenceLength(b, i);
    if (len === 0) return i;
    i += len;
  }
  return -1;
}

/**
 * An edge diagnostic in the core's Diagnostic shape (`field` omitted when there is none).
 * @param {string} code
 * @param {string} folder
 * @param {string | null} rel the relative path at fault
 * @param {string} message already escaped
 */
function diagnostic(code, folder, rel, message, detail) {
  const d = { code, severity: 'error', capabilityId: folder };
  if (rel !== null) d.field = rel;
  d.message = message;
  if (detail !== undefined) d.detail = detail;
  return d;
}

/**
 * `overlay_unreadable` with the OS error: its name and number in the message, the number
 * in `detail.osError` (as the C loader).
 * @param {string} folder escaped
 * @param {string | null} rel escaped
 * @param {unknown} err
 */
function unreadable(folder, rel, err) {
  const at = rel === null ? folder : `${folder}/${rel}`;
  const errno = err && typeof err === 'object' && 'errno' in err && typeof err.errno === 'number' ? Math.abs(err.errno) : undefined;
  const why = errno === undefined ? escapeText(osCode(err)) : `${escapeText(osCode(err))} (os error ${errno})`;
  return diagnostic('overlay_unreadable', folder, rel, `'${at}' cannot be read: ${why}`, errno === undefined ? undefined : { osError: errno });
}

/** @param {Buffer} a @param {Buffer} b */
const bytewise = (a, b) => Buffer.compare(a, b);

/** @param {unknown} err */
const osCode = (err) => (err && typeof err === 'object' && 'code' in err ? String(err.code) : String(err));

/**
 * Every regular file of one capability folder, walked depth first in bytewise name order
 * without following links; stops at the first fault. Returns `{ files: [{ rel, abs }] }`
 * or `{ diagnostic }`.
 * @param {string} folder escaped folder name
 * @param {Buffer} dirAbs
 */
function listFolder(folder, dirAbs) {
  const files = [];
  let total = 0;
  let dirs = 0;
  const refuse = (code, shown, what) =>
    ({ diagnostic: diagnostic(code, folder, shown, `'${folder}/${shown}' ${what}; the overlay folder is refused`) });
  /**
   * @param {Buffer} dir
   * @param {string} prefix the folder's path to `dir`, `/`-terminated (UTF-8 checked)
   * @param {string} shownPrefix the same, each name escaped (what a diagnostic prints)
   * @param {number} depth
   */
  const walk = (dir, prefix, shownPrefix, depth) => {
    let names;
    try {
      names = /** @type {Buffer[]} */ (fs.readdirSync(dir, { encoding: 'buffer' }));
    } catch (err) {
      const at = shownPrefix.replace(/\/$/, '');
      return { diagnostic: unreadable(folder, at === '' ? null : at, err) };
    }
    names.sort(bytewise);
    for (const name of names) {
      const shown = `${shownPrefix}${escapeName(name)}`;
      const abs = Buffer.concat([dir, Buffer.from('/'), name]);
      let stat;
      try {
        stat = fs.lstatSync(abs);
      } catch (err) {
        return { diagnostic: unreadable(folder, shown, err) };
      }
      if (stat.isSymbolicLink()) return refuse('overlay_symlink_refused', shown, 'is a symbolic link (links are never followed)');
      if (!stat.isDirectory() && !stat.isFile()) return refuse('overlay_not_regular_file', shown, 'is neither a regular file nor a directory');
      if (depth > MAX_DEPTH) return refuse('overlay_too_many_files', shown, `nests deeper than ${MAX_DEPTH} levels`);
      if (invalidUtf8At(name) !== -1) return refuse('overlay_not_utf8', shown, 'has a name that is not valid UTF-8');
      const rel = `${prefix}${name.toString('utf8')}`;
      if (stat.isDirectory()) {
        if (rel === MANIFEST) return refuse('overlay_not_regular_file', shown, 'is a directory, not a regular file');
        if (dirs === MAX_DIRS) {
          return { diagnostic: diagnostic('overlay_too_many_files', folder, null, `overlay folder '${folder}' holds more than ${MAX_DIRS} directories`) };
        }
        dirs += 1;
        const inner = walk(abs, `${rel}/`, `${shown}/`, depth + 1);
        if (inner) return inner;
      } else {
        if (files.length === MAX_FILES) {
          return { diagnostic: diagnostic('overlay_too_many_files', folder, null, `overlay folder '${folder}' holds more than ${MAX_FILES} files`) };
        }
        files.push({ rel, abs });
        total += stat.size;
      }
    }
    return null;
  };
  const fault = walk(dirAbs, '', '', 1);
  return fault ?? { files, total };
}

/**
 * The core's refusal of a file over its size bound, naming the file's size: the folder's
 * `capability.json` (`rel` null) or the file at `rel`.
 * @param {string} folder
 * @param {string | null} rel
 * @param {number} size
 */
const sizeRefusal = (folder, rel, size) => native.overlaySizeRefusal(folder, rel, size);

/**
 * Reads one regular file without blocking (and without following a link unless `follow`): at most
 * `min(bound, budget) + 1` bytes, however large `fstat` says it is (a file may grow while
 * read). Returns `{ text, length }`, `{ overBudget: length }` when more than `budget` bytes
 * came, `{ oversize: size, length }` when more than `bound` came (`size`: the larger of
 * `fstat`'s size and the bytes read), or `{ fault: [code, what, detail?], length? }`
 * (`length` when bytes were read).
 * @param {Buffer | string} abs
 * @param {number} bound the core's bound for this kind of file
 * @param {number} [budget] bytes the folder may still read (no limit when omitted)
 * @param {boolean} [follow] open the file a symbolic link names (never for overlays)
 */
function readBounded(abs, bound, budget = Number.POSITIVE_INFINITY, follow = false) {
  let fd;
  try {
    const noFollow = follow ? 0 : (fs.constants.O_NOFOLLOW ?? 0);
    fd = fs.openSync(abs, fs.constants.O_RDONLY | noFollow | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    // Without `follow`, ELOOP is O_NOFOLLOW meeting a link; with it, a loop of links,
    // which cannot be opened like any other unreadable path.
    if (!follow && osCode(err) === 'ELOOP') return { fault: ['overlay_symlink_refused', 'is a symbolic link (links are never followed)'] };
    return { fault: ['overlay_unreadable', err] };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { fault: ['overlay_not_regular_file', 'is not a regular file'] };
    const limit = Math.min(bound, budget) + 1;
    let buffer = Buffer.alloc(Math.min(stat.size + 1, limit));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length === limit) break;
        const bigger = Buffer.alloc(Math.min(limit, Math.max(2 * length, 64 * 1024)));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > budget) return { overBudget: length };
    if (length > bound) return { oversize: Math.max(stat.size, length), length };
    const bytes = buffer.subarray(0, length);
    const at = invalidUtf8At(bytes);
    if (at !== -1) return { fault: ['overlay_not_utf8', `is not valid UTF-8 (invalid byte at offset ${at})`], length };
    return { text: strictUtf8.decode(bytes), length };
  } catch (err) {
    return { fault: ['overlay_unreadable', err] };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads one capability folder under the loader's rules.
 * Returns `{ overlay }` (core data) or `{ diagnostic }` (the folder is refused).
 * @param {Buffer | string} dirPath the folder on disk (not followed if it is a link)
 * @param {Buffer | string} name its name (the capability id it must carry)
 * @param {{ used: number }} [root] bytes already charged to the overlay root; this folder's
 *   bytes are added when it is read (a fresh root when omitted)
 */
function readCapabilityFolder(dirPath, name, root = { used: 0 }) {
  const dirAbs = Buffer.isBuffer(dirPath) ? dirPath : Buffer.from(dirPath);
  const nameBytes = Buffer.isBuffer(name) ? name : Buffer.from(name);
  const folder = escapeName(nameBytes);
  if (invalidUtf8At(nameBytes) !== -1) {
    return { diagnostic: diagnostic('overlay_not_utf8', folder, null, `overlay folder name '${folder}' is not valid UTF-8`) };
  }
  // The core would carry the name raw as the `capabilityId` of its own diagnostics; a name
  // that does not print as itself is refused here, shown escaped. (It could never be
  // admitted: a capability id is kebab-case and equals its folder name.)
  if (folder !== nameBytes.toString('utf8')) {
    return {
      diagnostic: diagnostic(
        'overlay_unsafe_name',
        folder,
        null,
        `overlay folder name '${folder}' holds a control, bidi or zero-width character or a backslash (shown escaped); the overlay folder is refused unread`,
      ),
    };
  }
  const listing = listFolder(folder, dirAbs);
  if (listing.diagnostic) return { diagnostic: listing.diagnostic };
  const files = /** @type {Array<{ rel: string, abs: Buffer }>} */ (listing.files);
  const total = /** @type {number} */ (listing.total);
  const manifestFile = files.find((f) => f.rel === MANIFEST);
  if (manifestFile === undefined) {
    return { diagnostic: diagnostic('overlay_manifest_missing', folder, MANIFEST, `overlay folder '${folder}' has no ${MANIFEST}`) };
  }
  if (total > FOLDER_MAX_BYTES) {
    return { diagnostic: diagnostic('overlay_too_large', folder, null, `overlay folder '${folder}' holds ${total} bytes, more than the ${FOLDER_MAX_BYTES} bytes allowed per folder; the overlay folder is refused unread`) };
  }
  const rootLeft = ROOT_MAX_BYTES - root.used;
  if (total > rootLeft) {
    return { diagnostic: diagnostic('overlay_too_large', folder, null, `overlay folder '${folder}' holds ${total} bytes, more than the ${rootLeft} bytes left of the ${ROOT_MAX_BYTES} bytes allowed per overlay root (the root budget is spent); the overlay folder is refused unread`) };
  }
  // What this folder may read: its own bound, and no more than the root has left.
  const budget = Math.min(FOLDER_MAX_BYTES, rootLeft);
  let spent = 0;
  const read = (file, bound) => {
    const result = readBounded(file.abs, bound, budget - spent);
    const shown = escapeName(file.rel);
    if (result.overBudget !== undefined) {
      spent += result.overBudget;
      return { diagnostic: diagnostic('overlay_too_large', folder, null, `'${folder}/${shown}' grew while being read: the folder passes the ${budget} bytes it may hold; the overlay folder is refused`) };
    }
    // Bytes read count against the budgets whatever the file turns out to hold (the C
    // loader charges them before its UTF-8 check too).
    spent += result.length ?? 0;
    // The core's size refusal, with the file's size (the core would only see the bytes read).
    if (result.oversize !== undefined) return { diagnostic: sizeRefusal(folder, file === manifestFile ? null : file.rel, result.oversize) };
    if (!result.fault) return result;
    const [code, what] = result.fault;
    if (code === 'overlay_unreadable') return { diagnostic: unreadable(folder, shown, what) };
    return { diagnostic: diagnostic(code, folder, shown, `'${folder}/${shown}' ${what}; the overlay folder is refused`) };
  };
  try {
    const manifest = read(manifestFile, MANIFEST_MAX_BYTES);
    if (manifest.diagnostic) return manifest;
    /** @type {Record<string, string>} */
    const fragments = Object.create(null);
    for (const file of files) {
      if (file === manifestFile) continue;
      const fragment = read(file, FRAGMENT_MAX_BYTES);
      if (fragment.diagnostic) return fragment;
      fragments[file.rel] = /** @type {string} */ (fragment.text);
    }
    return { overlay: { folder: nameBytes.toString('utf8'), manifest: /** @type {string} */ (manifest.text), fragments } };
  } finally {
    // A folder that was read is charged, even when its content refuses it afterwards: the
    // larger of its listed and its read size, never past what it was allowed.
    root.used += Math.min(Math.max(total, spent), budget);
  }
}

/**
 * `dir` without its trailing `/` and `/.` components, lexically (no link is resolved):
 * `root/`, `root/.` and `root/.//.` are `root`; `/` and `/.` are `/`, `./` is `.`; a `..`
 * is kept (it names another directory).
 * @param {string} dir
 */
function trimTrailing(dir) {
  let out = dir;
  for (;;) {
    if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
    else if (out.endsWith('/.')) out = out.slice(0, -1);
    else return out;
  }
}

/**
 * Reads an overlay root: `{ overlays, diagnostics }` (overlays as core data, edge
 * diagnostics in folder order). Throws `INVALID_ARGUMENT` (field `dir`) when the root is
 * not a real directory.
 * @param {string} dir
 */
function readOverlayDir(dir) {
  if (typeof dir !== 'string' || dir === '') throw invalidDir(`dir must be a non-empty string, got ${render(dir)}`);
  // A lone surrogate has no UTF-8 form (the file system would be asked for another name,
  // with U+FFFD), and a path cannot hold NUL.
  if (!dir.isWellFormed()) throw invalidDir('dir is invalid: it holds a lone surrogate, which UTF-8 cannot carry');
  if (dir.includes('\u0000')) throw invalidDir(`dir must not contain NUL, got '${escapeText(dir)}'`);
  const shown = escapeText(dir);
  // `link/` and `link/.` name the link's target, and lstat follows them: the root is
  // inspected and read without its trailing `/` and `/.` components (lexically).
  const rootPath = trimTrailing(dir);
  let stat;
  try {
    stat = fs.lstatSync(rootPath);
  } catch (err) {
    throw invalidDir(`dir '${shown}' cannot be inspected: ${escapeText(osCode(err))}`);
  }
  if (stat.isSymbolicLink()) throw invalidDir(`dir '${shown}' is a symbolic link; the overlay root must be a real directory`);
  if (!stat.isDirectory()) throw invalidDir(`dir '${shown}' is not a directory`);
  const root = Buffer.from(path.resolve(rootPath));
  let names;
  try {
    names = /** @type {Buffer[]} */ (fs.readdirSync(root, { encoding: 'buffer' }));
  } catch (err) {
    throw invalidDir(`dir '${shown}': ${escapeText(osCode(err))}`);
  }
  names.sort(bytewise);
  const overlays = [];
  const diagnostics = [];
  const budget = { used: 0 };
  for (const name of names) {
    const abs = Buffer.concat([root, Buffer.from('/'), name]);
    const folder = escapeName(name);
    let entry;
    try {
      entry = fs.lstatSync(abs);
    } catch (err) {
      diagnostics.push(unreadable(folder, null, err));
      continue;
    }
    if (entry.isSymbolicLink()) {
      diagnostics.push(diagnostic('overlay_symlink_refused', folder, null, `overlay folder '${folder}' is a symbolic link; links are never followed`));
      continue;
    }
    if (!entry.isDirectory()) continue;
    const read = readCapabilityFolder(abs, name, budget);
    if (read.diagnostic) diagnostics.push(read.diagnostic);
    else overlays.push(read.overlay);
  }
  return { overlays, diagnostics };
}

/** @param {string} message */
function invalidDir(message) {
  return invalidArgument('dir', message);
}

/**
 * @param {string} field
 * @param {string} message
 */
function invalidArgument(field, message) {
  const err = /** @type {Error & { code: string, field: string }} */ (new Error(safeText(message, 2048)));
  err.code = 'INVALID_ARGUMENT';
  err.field = safeText(field, 512);
  return err;
}

/**
 * Characters the core never repeats raw in a message (`core/src/sanitize.rs`,
 * `is_unsafe_char`): C0 and C1 controls, bidi controls, default-ignorable and other
 * invisible characters.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\u{1bca0}-\u{1bca3}\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;

/** An ANSI CSI or OSC escape sequence (`ESC [ … final`, `ESC ] … BEL` or `ESC ] … ESC \`). */
const ANSI_SEQUENCE = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\))/g;

/**
 * Caller text in a message or field made safe to print, as the core renders it
 * (`sanitize_text`): an escape sequence, a control, bidi or invisible character, or a lone
 * surrogate becomes U+FFFD, and the text is clipped past `max` characters with `…` (a
 * rendered argument can be any size).
 * @param {string} text
 * @param {number} max
 */
function safeText(text, max) {
  // Only the head is ever shown: cut first (a character is at most two units, and a cut
  // escape sequence or surrogate pair only costs one U+FFFD at the end), then clean.
  const head = text.length > 2 * max + 16 ? text.slice(0, 2 * max + 16) : text;
  const clean = head.toWellFormed().replace(ANSI_SEQUENCE, '\ufffd').replace(UNSAFE, '\ufffd');
  if (clean.length <= max) return clean;
  const chars = [...clean];
  return chars.length > max || head !== text ? `${chars.slice(0, max).join('')}…` : clean;
}


/**
 * A wrong argument as its error message shows it: JSON where JSON can spell it, and a
 * plain description where it cannot (a BigInt or a cycle would make `JSON.stringify`
 * throw its own error in place of ours; `NaN` and the infinities it would spell `null`).
 * @param {unknown} value
 */
function render(value) {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return `${value}n`;
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : String(value);
    case 'symbol':
    case 'function':
      return `a ${typeof value}`;
    default:
      try {
        return JSON.stringify(value);
      } catch {
        return isArray(value) ? 'an array JSON cannot spell' : 'an object JSON cannot spell';
      }
  }
}

/**
 * `Array.isArray` that never throws (it does for a revoked Proxy).
 * @param {unknown} value
 */
function isArray(value) {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * Freezes a plain value deeply.
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze(/** @type {any} */ (value)[key]);
  }
  return value;
}

/**
 * Loads an overlay root from disk: the registry of first party (or `options.registry`)
 * plus every admitted capability folder, and the diagnostics: the loader's own refusals
 * (in folder order) followed by the registry's.
 * @param {string} dir the overlay root directory
 * @param {{ registry?: object }} [options]
 * @returns {{ registry: any, diagnostics: readonly object[] }}
 */
function loadOverlayDir(dir, options) {
  // Required lazily: index.js requires this module.
  const api = require('./index.js');
  if (options !== undefined && options !== null) {
    if (typeof options !== 'object' || isArray(options)) throw invalidArgument('options', `options must be an object, got ${render(options)}`);
    // An unknown member is refused before anything is read (buildRegistry checks the rest).
    let key = '';
    try {
      for (key of Object.keys(options)) {
        if (key !== 'registry' && /** @type {Record<string, unknown>} */ (options)[key] !== undefined) {
          const name = key.toWellFormed();
          throw invalidArgument(name, `${name} is invalid: unknown field \`${name}\`, expected \`registry\``);
        }
      }
    } catch (err) {
      if (/** @type {any} */ (err)?.code === 'INVALID_ARGUMENT') throw err;
      const name = key === '' ? 'options' : key.toWellFormed();
      let why;
      try {
        why = err instanceof Error ? err.message : String(err);
      } catch {
        why = 'an exception';
      }
      throw invalidArgument(name, `${name} is invalid: reading it threw: ${why.toWellFormed()}`);
    }
  }
  const { overlays, diagnostics } = readOverlayDir(dir);
  const registry = api.buildRegistry(overlays, options ?? undefined);
  return Object.freeze({ registry, diagnostics: deepFreeze([...diagnostics, ...registry.diagnostics()]) });
}

module.exports = {
  safeText,
  render,
  isArray,
  UNSAFE,
  loadOverlayDir,
  readOverlayDir,
  readCapabilityFolder,
  readBounded,
  trimTrailing,
  sizeRefusal,
  escapeText,
  escapeName,
  MAX_FILES,
  MAX_DEPTH,
  MAX_DIRS,
  MANIFEST_MAX_BYTES,
  FRAGMENT_MAX_BYTES,
  FOLDER_MAX_BYTES,
  ROOT_MAX_BYTES,
};
