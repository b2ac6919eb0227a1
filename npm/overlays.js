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
 *   up to the core's bound + 1 byte, so the core reports an oversized file itself.
 */

const fs = require('node:fs');
const path = require('node:path');

/** Largest number of files in one capability folder. */
const MAX_FILES = 1024;
/** Deepest path (in segments, the file's name included) inside one capability folder. */
const MAX_DEPTH = 16;
/** The core's bounds: manifest (`MANIFEST_MAX_BYTES`) and fragment (`FRAGMENT_MAX_BYTES`). */
const MANIFEST_MAX_BYTES = 8 * 1024 * 1024;
const FRAGMENT_MAX_BYTES = 8 * 1024 * 1024;
const MANIFEST = 'capability.json';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Characters a message may not carry raw: C0, DEL, C1, bidi controls, zero-width and
 * invisible characters, line and paragraph separators.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * A name or path made safe to print: every unsafe character becomes its `\uXXXX` escape
 * (a backslash is doubled first, so the escape cannot be forged).
 * @param {string} text
 */
function escapeText(text) {
  return text
    .replace(/\\/g, '\\\\')
    .replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * An edge diagnostic in the core's Diagnostic shape (`field` omitted when there is none).
 * @param {string} code
 * @param {string} folder
 * @param {string | null} rel the relative path at fault
 * @param {string} message already escaped
 */
function diagnostic(code, folder, rel, message) {
  const d = { code, severity: 'error', capabilityId: folder };
  if (rel !== null) d.field = escapeText(rel);
  d.message = message;
  return d;
}

/** @param {Buffer} a @param {Buffer} b */
const bytewise = (a, b) => Buffer.compare(a, b);

/**
 * A file or folder name as text, or `null` when the bytes are not UTF-8.
 * @param {Buffer} name
 */
function utf8Name(name) {
  try {
    return strictUtf8.decode(name);
  } catch {
    return null;
  }
}

/** @param {unknown} err */
const osCode = (err) => (err && typeof err === 'object' && 'code' in err ? String(err.code) : String(err));

/**
 * Every file of one capability folder, walked without following links; stops at the first
 * fault. Returns `{ files: [{ rel, abs }] }` or `{ fault: [code, rel, why] }`.
 * @param {Buffer} dirAbs
 */
function listFolder(dirAbs) {
  const files = [];
  /** @type {Array<{ abs: Buffer, rel: string, depth: number }>} */
  const stack = [{ abs: dirAbs, rel: '', depth: 0 }];
  while (stack.length > 0) {
    const dir = /** @type {{ abs: Buffer, rel: string, depth: number }} */ (stack.pop());
    let names;
    try {
      names = /** @type {Buffer[]} */ (fs.readdirSync(dir.abs, { encoding: 'buffer' }));
    } catch (err) {
      return { fault: ['overlay_unreadable', dir.rel || null, `cannot be listed (${osCode(err)})`] };
    }
    names.sort(bytewise);
    const subdirs = [];
    for (const name of names) {
      const text = utf8Name(name);
      const rel = (dir.rel ? `${dir.rel}/` : '') + (text ?? lenientUtf8.decode(name));
      if (text === null) return { fault: ['overlay_not_utf8', rel, 'has a name that is not UTF-8'] };
      const abs = Buffer.concat([dir.abs, Buffer.from('/'), name]);
      const depth = dir.depth + 1;
      if (depth > MAX_DEPTH) return { fault: ['overlay_too_many_files', rel, `is deeper than ${MAX_DEPTH} levels`] };
      let stat;
      try {
        stat = fs.lstatSync(abs);
      } catch (err) {
        return { fault: ['overlay_unreadable', rel, `cannot be read (${osCode(err)})`] };
      }
      if (stat.isSymbolicLink()) return { fault: ['overlay_symlink_refused', rel, 'is a symbolic link; it is not followed'] };
      if (stat.isDirectory()) {
        if (rel === MANIFEST) return { fault: ['overlay_not_regular_file', rel, 'is a directory, not a regular file'] };
        subdirs.push({ abs, rel, depth });
      } else if (stat.isFile()) {
        files.push({ rel, abs });
        if (files.length > MAX_FILES) return { fault: ['overlay_too_many_files', rel, `exceeds ${MAX_FILES} files in one capability folder`] };
      } else {
        return { fault: ['overlay_not_regular_file', rel, 'is not a regular file (FIFO, socket or device); it is not opened'] };
      }
    }
    // Depth first, in bytewise order: push in reverse so the smallest name is walked next.
    for (let i = subdirs.length - 1; i >= 0; i -= 1) stack.push(subdirs[i]);
  }
  return { files };
}

/**
 * Reads one regular file without following a link or blocking: at most `bound + 1` bytes.
 * Returns `{ text }` or `{ fault: [code, why] }`.
 * @param {Buffer | string} abs
 * @param {number} bound
 */
function readBounded(abs, bound) {
  let fd;
  try {
    fd = fs.openSync(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if (osCode(err) === 'ELOOP') return { fault: ['overlay_symlink_refused', 'is a symbolic link; it is not followed'] };
    return { fault: ['overlay_unreadable', `cannot be opened (${osCode(err)})`] };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { fault: ['overlay_not_regular_file', 'is not a regular file'] };
    const buffer = Buffer.alloc(Math.min(stat.size, bound) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    const bytes = buffer.subarray(0, length);
    // Over the bound, the core reports the size; the cut may split a character, so the
    // text is decoded leniently (its length stays over the bound).
    if (length > bound) return { text: lenientUtf8.decode(bytes) };
    try {
      return { text: strictUtf8.decode(bytes) };
    } catch {
      return { fault: ['overlay_not_utf8', 'is not valid UTF-8'] };
    }
  } catch (err) {
    return { fault: ['overlay_unreadable', `cannot be read (${osCode(err)})`] };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads one capability folder under the loader's rules.
 * Returns `{ overlay }` (core data) or `{ diagnostic }` (the folder is refused).
 * @param {Buffer | string} dirPath the folder on disk (not followed if it is a link)
 * @param {string} folder its name (the capability id it must carry)
 */
function readCapabilityFolder(dirPath, folder) {
  const dirAbs = Buffer.isBuffer(dirPath) ? dirPath : Buffer.from(dirPath);
  const shown = escapeText(folder);
  const refuse = (code, rel, why) =>
    ({ diagnostic: diagnostic(code, folder, rel, `overlay "${shown}": ${rel === null ? 'the folder' : `"${escapeText(rel)}"`} ${why}`) });
  const listing = listFolder(dirAbs);
  if (listing.fault) return refuse(...listing.fault);
  const files = /** @type {Array<{ rel: string, abs: Buffer }>} */ (listing.files);
  if (!files.some((f) => f.rel === MANIFEST)) return refuse('overlay_manifest_missing', MANIFEST, 'is missing');
  let manifest = '';
  /** @type {Record<string, string>} */
  const fragments = Object.create(null);
  for (const file of files) {
    const isManifest = file.rel === MANIFEST;
    const read = readBounded(file.abs, isManifest ? MANIFEST_MAX_BYTES : FRAGMENT_MAX_BYTES);
    if (read.fault) return refuse(read.fault[0], file.rel, read.fault[1]);
    if (isManifest) manifest = /** @type {string} */ (read.text);
    else fragments[file.rel] = /** @type {string} */ (read.text);
  }
  return { overlay: { folder, manifest, fragments } };
}

/**
 * Reads an overlay root: `{ overlays, diagnostics }` (overlays as core data, edge
 * diagnostics in folder order). Throws `INVALID_ARGUMENT` (field `dir`) when the root is
 * not a real directory.
 * @param {string} dir
 */
function readOverlayDir(dir) {
  if (typeof dir !== 'string' || dir === '') throw invalidDir(`dir must be a non-empty string, got ${JSON.stringify(dir) ?? 'undefined'}`);
  let stat;
  try {
    stat = fs.lstatSync(dir);
  } catch (err) {
    throw invalidDir(`overlay root "${escapeText(dir)}" cannot be read (${osCode(err)})`);
  }
  if (stat.isSymbolicLink()) throw invalidDir(`overlay root "${escapeText(dir)}" is a symbolic link; it is not followed`);
  if (!stat.isDirectory()) throw invalidDir(`overlay root "${escapeText(dir)}" is not a directory`);
  const root = Buffer.from(path.resolve(dir));
  let names;
  try {
    names = /** @type {Buffer[]} */ (fs.readdirSync(root, { encoding: 'buffer' }));
  } catch (err) {
    throw invalidDir(`overlay root "${escapeText(dir)}" cannot be listed (${osCode(err)})`);
  }
  names.sort(bytewise);
  const overlays = [];
  const diagnostics = [];
  for (const name of names) {
    const abs = Buffer.concat([root, Buffer.from('/'), name]);
    const folder = utf8Name(name);
    let entry;
    try {
      entry = fs.lstatSync(abs);
    } catch (err) {
      const shown = escapeText(folder ?? lenientUtf8.decode(name));
      diagnostics.push(diagnostic('overlay_unreadable', folder ?? lenientUtf8.decode(name), null, `overlay "${shown}" cannot be read (${osCode(err)})`));
      continue;
    }
    if (entry.isSymbolicLink()) {
      const shown = escapeText(folder ?? lenientUtf8.decode(name));
      diagnostics.push(diagnostic('overlay_symlink_refused', folder ?? lenientUtf8.decode(name), null, `overlay "${shown}" is a symbolic link; it is not followed`));
      continue;
    }
    if (!entry.isDirectory()) continue;
    if (folder === null) {
      const lossy = lenientUtf8.decode(name);
      diagnostics.push(diagnostic('overlay_not_utf8', lossy, null, `overlay "${escapeText(lossy)}" has a folder name that is not UTF-8`));
      continue;
    }
    const read = readCapabilityFolder(abs, folder);
    if (read.diagnostic) diagnostics.push(read.diagnostic);
    else overlays.push(read.overlay);
  }
  return { overlays, diagnostics };
}

/** @param {string} message */
function invalidDir(message) {
  const err = /** @type {Error & { code: string, field: string }} */ (new Error(message));
  err.code = 'INVALID_ARGUMENT';
  err.field = 'dir';
  return err;
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
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) {
    const err = /** @type {Error & { code: string, field: string }} */ (new Error(`options must be an object, got ${JSON.stringify(options)}`));
    err.code = 'INVALID_ARGUMENT';
    err.field = 'options';
    throw err;
  }
  const { overlays, diagnostics } = readOverlayDir(dir);
  const registry = api.buildRegistry(overlays, options ?? undefined);
  return Object.freeze({ registry, diagnostics: deepFreeze([...diagnostics, ...registry.diagnostics()]) });
}

module.exports = {
  loadOverlayDir,
  readOverlayDir,
  readCapabilityFolder,
  readBounded,
  escapeText,
  MAX_FILES,
  MAX_DEPTH,
  MANIFEST_MAX_BYTES,
  FRAGMENT_MAX_BYTES,
};
