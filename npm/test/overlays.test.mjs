// Loading overlay folders from disk (loadOverlayDir): real temporary trees with links,
// FIFOs, directories where files are expected, non-UTF-8 bytes, too many files, too many
// bytes (sparse files: no disk used) and unreadable files (under a dropped uid). Every
// load runs in a child process with a timeout, so a loader that blocked on a FIFO fails
// the test instead of hanging it. The rules are those of docs/node.md "Overlay folders".
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, symlinkSync, unlinkSync, readFileSync, truncateSync, chmodSync, accessSync, constants as fsConstants } from 'node:fs';
import { join } from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { tempDir, npmDir, cli } from './helpers.mjs';

const api = (await import('../index.js')).default;

/** The corpus's third-party feature base (tests/hostile/bases.json). */
const FEATURE = JSON.parse(readFileSync(join(npmDir, '..', 'tests', 'hostile', 'bases.json'), 'utf8')).feature;
const OUTSIDE = 'OUTSIDE-SECRET-3f9c1a: this text lives outside the overlay tree';
const FRAGMENT = 'fragments/a.md';

/** A valid manifest for `id`; with a fragment contribution when `fragment` is set. */
function manifest(id, fragment = false) {
  const m = { ...FEATURE, id };
  if (fragment) {
    m.contributions = [{ point: 'plan:pre', into: 'planner', fragment: { path: FRAGMENT }, produces: [], consumes: [], onError: 'skip' }];
  }
  return JSON.stringify(m, null, 2);
}

/** Writes a capability folder `root/id` with a manifest and files. */
function capability(root, id, { fragment = null, files = {} } = {}) {
  const dir = join(root, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'capability.json'), manifest(id, fragment !== null));
  if (fragment !== null) {
    mkdirSync(join(dir, 'fragments'), { recursive: true });
    writeFileSync(join(dir, FRAGMENT), fragment);
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

/**
 * The child's program: `preamble` runs first (before the package is loaded), then
 * loadOverlayDir(argv[2]); the child prints the result, its uid, and what the preamble
 * observed (`globalThis.observed()`, when it defines one).
 */
const childScript = (preamble = '') => `
${preamble}
const api = require(process.argv[1]);
const first = new Set(Object.keys(api.firstPartyRegistry().toPeerJson().capabilities));
let out;
try {
  const { registry, diagnostics } = api.loadOverlayDir(process.argv[2]);
  const peerJson = registry.toPeerJson();
  const accepted = Object.keys(peerJson.capabilities).filter((id) => !first.has(id)).sort();
  out = { diagnostics, accepted, registryText: JSON.stringify(peerJson) };
} catch (err) {
  out = { error: { code: err.code, field: err.field, message: err.message } };
}
out.uid = process.getuid();
if (typeof globalThis.observed === 'function') out.observed = globalThis.observed();
process.stdout.write(JSON.stringify(out));
`;

/**
 * loadOverlayDir(dir) in a child process that must finish within 20 s (60 s for the big
 * sparse trees); `preamble` runs in the child first, `spawn` adds spawn options (uid, gid).
 */
/** Node has no mkfifo; the system command makes one. */
const mkfifo = (path) => execFileSync('mkfifo', [path]);

/** A capability whose fragment is a symbolic link to a file outside the overlay root. */
function fragmentLinkedOutside(t, root, id) {
  const elsewhere = tempDir(t);
  writeFileSync(join(elsewhere, 'secret.md'), OUTSIDE);
  const dir = capability(root, id, { fragment: 'placeholder' });
  unlinkSync(join(dir, FRAGMENT));
  symlinkSync(join(elsewhere, 'secret.md'), join(dir, FRAGMENT));
  return dir;
}

function load(dir, { preamble = '', spawn = {}, timeout = 20_000 } = {}) {
  const run = spawnSync(process.execPath, ['-e', childScript(preamble), join(npmDir, 'index.js'), dir], { encoding: 'utf8', timeout, maxBuffer: 256 << 20, ...spawn });
  assert.equal(run.error?.code, undefined, `the loader did not start or did not finish (blocked?): ${run.error}`);
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

const codes = (result) => result.diagnostics.map((d) => `${d.code}@${d.capabilityId}:${d.field ?? '-'}`);

/** A forbidden raw character in any message or field (C0, DEL, C1, bidi, zero-width). */
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

function assertClean(result) {
  for (const d of result.diagnostics) {
    assert.doesNotMatch(d.message, FORBIDDEN, `raw character in ${JSON.stringify(d.message)}`);
    if (d.field !== undefined) assert.doesNotMatch(d.field, FORBIDDEN, `raw character in field ${JSON.stringify(d.field)}`);
    assert.equal(d.severity === 'error' || d.severity === 'warning' || d.severity === 'info', true);
  }
}

test('overlays: a valid overlay with a fragment is admitted and its fragment inlined', (t) => {
  const root = tempDir(t);
  capability(root, 'acme-notes', { fragment: 'hello from acme' });
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-notes']);
  assert.deepStrictEqual(result.diagnostics, []);
  // Positive control for the symlinked-fragment test: fragment text does reach the registry.
  assert.ok(result.registryText.includes('hello from acme'), 'the fragment text is in the registry');
});

test('overlays: a symlinked capability folder is refused, never followed', (t) => {
  const root = tempDir(t);
  const elsewhere = tempDir(t);
  capability(elsewhere, 'acme-linked');
  symlinkSync(join(elsewhere, 'acme-linked'), join(root, 'acme-linked'));
  capability(root, 'acme-notes');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-notes']);
  assert.deepStrictEqual(codes(result), ['overlay_symlink_refused@acme-linked:-']);
  assertClean(result);
});

test('overlays: a symlinked capability.json refuses the folder', (t) => {
  const root = tempDir(t);
  const elsewhere = tempDir(t);
  writeFileSync(join(elsewhere, 'capability.json'), manifest('acme-notes'));
  mkdirSync(join(root, 'acme-notes'));
  symlinkSync(join(elsewhere, 'capability.json'), join(root, 'acme-notes', 'capability.json'));
  const result = load(root);
  assert.deepStrictEqual(result.accepted, []);
  assert.deepStrictEqual(codes(result), ['overlay_symlink_refused@acme-notes:capability.json']);
});

test('overlays: a symlinked fragment is refused and the outside file appears nowhere', (t) => {
  const root = tempDir(t);
  fragmentLinkedOutside(t, root, 'acme-notes');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, []);
  assert.deepStrictEqual(codes(result), [`overlay_symlink_refused@acme-notes:${FRAGMENT}`]);
  assert.ok(!JSON.stringify(result).includes('OUTSIDE-SECRET'), 'the outside file must not be read');
});

test('overlays: a symlinked directory inside a folder refuses the folder', (t) => {
  const root = tempDir(t);
  const elsewhere = tempDir(t);
  mkdirSync(join(elsewhere, 'more'));
  writeFileSync(join(elsewhere, 'more', 'x.md'), OUTSIDE);
  const dir = capability(root, 'acme-notes');
  symlinkSync(join(elsewhere, 'more'), join(dir, 'more'));
  const result = load(root);
  assert.deepStrictEqual(codes(result), ['overlay_symlink_refused@acme-notes:more']);
  assert.ok(!JSON.stringify(result).includes('OUTSIDE-SECRET'));
});

test('overlays: a FIFO as capability.json is refused without blocking', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-notes'));
  mkfifo(join(root, 'acme-notes', 'capability.json'));
  capability(root, 'acme-other');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-other']);
  assert.deepStrictEqual(codes(result), ['overlay_not_regular_file@acme-notes:capability.json']);
});

test('overlays: a FIFO as a fragment is refused without blocking', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-notes', { fragment: 'placeholder' });
  unlinkSync(join(dir, FRAGMENT));
  mkfifo(join(dir, FRAGMENT));
  const result = load(root);
  assert.deepStrictEqual(result.accepted, []);
  assert.deepStrictEqual(codes(result), [`overlay_not_regular_file@acme-notes:${FRAGMENT}`]);
});

test('overlays: a FIFO or a file at the root is ignored, not opened', (t) => {
  const root = tempDir(t);
  mkfifo(join(root, 'a-fifo'));
  writeFileSync(join(root, 'README.md'), 'not a capability');
  capability(root, 'acme-notes');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-notes']);
  assert.deepStrictEqual(result.diagnostics, []);
});

test('overlays: a directory named capability.json is not a manifest', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-notes', 'capability.json'), { recursive: true });
  const result = load(root);
  assert.deepStrictEqual(codes(result), ['overlay_not_regular_file@acme-notes:capability.json']);
});

test('overlays: a folder without capability.json is reported', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-empty'));
  writeFileSync(join(root, 'acme-empty', 'notes.md'), 'x');
  assert.deepStrictEqual(codes(load(root)), ['overlay_manifest_missing@acme-empty:capability.json']);
});

test('overlays: a non-UTF-8 fragment or manifest refuses the folder', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-notes', { fragment: 'placeholder' });
  writeFileSync(join(dir, FRAGMENT), Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x0a]));
  mkdirSync(join(root, 'acme-latin'));
  writeFileSync(join(root, 'acme-latin', 'capability.json'), Buffer.concat([Buffer.from(manifest('acme-latin')).subarray(0, 20), Buffer.from([0xe9])]));
  const result = load(root);
  assert.deepStrictEqual(result.accepted, []);
  assert.deepStrictEqual(codes(result), ['overlay_not_utf8@acme-latin:capability.json', `overlay_not_utf8@acme-notes:${FRAGMENT}`]);
});

test('overlays: a folder name that would not print as itself is refused, shown escaped (as the C loader)', (t) => {
  const root = tempDir(t);
  capability(root, 'acme-notes');
  for (const name of ['acme\u001b[31m', 'acme\u202eton', 'back\\slash']) {
    mkdirSync(join(root, name));
    writeFileSync(join(root, name, 'capability.json'), JSON.stringify({ ...FEATURE, id: 'acme-esc' }));
  }
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-notes']);
  const refused = (shown) => ({
    code: 'overlay_unsafe_name',
    severity: 'error',
    capabilityId: shown,
    message: `overlay folder name '${shown}' holds a control, bidi or zero-width character or a backslash (shown escaped); the overlay folder is refused unread`,
  });
  // Folder order is bytewise: `a` (0x61) sorts before `b`; ESC (0x1b) before U+202E (0xe2).
  assert.deepStrictEqual(result.diagnostics, [refused('acme\\u{1b}[31m'), refused('acme\\u{202e}ton'), refused('back\\\\slash')]);
  assertClean(result);
});

test('overlays: a file name that is not UTF-8 is refused, and file names are escaped in messages', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-notes');
  writeFileSync(Buffer.from(`${dir}/bad-\xff.md`, 'latin1'), 'x');
  const hostile = capability(root, 'acme-ansi');
  mkdirSync(join(hostile, 'x'));
  mkfifo(join(hostile, 'x', 'e\u001b[31m\u202ex'));
  const result = load(root);
  assert.deepStrictEqual(result.diagnostics.map((d) => d.code), ['overlay_not_regular_file', 'overlay_not_utf8']);
  // Escaped as the C loader writes names: \u{..} for hidden characters, \x.. for bad bytes.
  assert.equal(result.diagnostics[0].field, 'x/e\\u{1b}[31m\\u{202e}x');
  assert.equal(result.diagnostics[1].field, 'bad-\\xff.md');
  assertClean(result);
});

test('overlays: more than 1 024 files, or a path deeper than 16 levels, refuses the folder', (t) => {
  const root = tempDir(t);
  const many = capability(root, 'acme-many');
  mkdirSync(join(many, 'f'));
  for (let i = 0; i < 1024; i += 1) writeFileSync(join(many, 'f', `${i}.md`), '');
  const fits = capability(root, 'acme-fits');
  mkdirSync(join(fits, 'f'));
  for (let i = 0; i < 1023; i += 1) writeFileSync(join(fits, 'f', `${i}.md`), '');
  const deep = capability(root, 'acme-deep');
  mkdirSync(join(deep, ...Array(16).fill('d')), { recursive: true });
  writeFileSync(join(deep, ...Array(16).fill('d'), 'x.md'), '');
  const edge = capability(root, 'acme-edge');
  mkdirSync(join(edge, ...Array(15).fill('d')), { recursive: true });
  writeFileSync(join(edge, ...Array(15).fill('d'), 'x.md'), '');
  const result = load(root);
  assert.deepStrictEqual(
    result.diagnostics.map((d) => `${d.code}@${d.capabilityId}`),
    ['overlay_too_many_files@acme-deep', 'overlay_too_many_files@acme-many'],
  );
  // 1 023 files + the manifest, and a 16-level path, are within the bounds.
  assert.deepStrictEqual(result.accepted, ['acme-edge', 'acme-fits']);
});

test('overlays: a path is shown escaped in every component, the folders above the entry at fault too', (t) => {
  const root = tempDir(t);
  const folder = capability(root, 'acme-nested');
  mkdirSync(join(folder, 'd\u001b[31m', 'e\u202e'), { recursive: true });
  symlinkSync(join(root, 'elsewhere'), join(folder, 'd\u001b[31m', 'e\u202e', 'l'));
  const result = load(root);
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.code, d.field]), [['overlay_symlink_refused', 'd\\u{1b}[31m/e\\u{202e}/l']]);
  assertClean(result);
});

test('overlays: more than 1 024 directories refuses the folder, files or none', (t) => {
  const root = tempDir(t);
  const many = capability(root, 'acme-dirs');
  for (let i = 0; i < 1025; i += 1) mkdirSync(join(many, `d${i}`));
  const fits = capability(root, 'acme-fits');
  for (let i = 0; i < 1024; i += 1) mkdirSync(join(fits, `d${i}`));
  const result = load(root);
  assert.deepStrictEqual(result.diagnostics.map((d) => [d.code, d.capabilityId, d.field, d.message]), [
    ['overlay_too_many_files', 'acme-dirs', undefined, "overlay folder 'acme-dirs' holds more than 1024 directories"],
  ]);
  assert.deepStrictEqual(result.accepted, ['acme-fits']);
});

test('overlays: the same tree created in two orders gives identical results', (t) => {
  const build = (order) => {
    const root = tempDir(t);
    const steps = {
      b: () => capability(root, 'acme-b', { fragment: 'b' }),
      a: () => capability(root, 'acme-a', { files: { 'z.md': 'z', 'a.md': 'a', 'm/n.md': 'n' } }),
      link: () => symlinkSync(join(root, 'acme-a'), join(root, 'acme-c')),
      fifo: () => {
        mkdirSync(join(root, 'acme-d'));
        mkfifo(join(root, 'acme-d', 'capability.json'));
      },
      bad: () => {
        mkdirSync(join(root, 'Acme-E'));
        writeFileSync(join(root, 'Acme-E', 'capability.json'), '{"id":"Acme-E"}');
      },
    };
    for (const step of order) steps[step]();
    const { accepted, diagnostics, registryText } = load(root);
    return { accepted, diagnostics, registryText };
  };
  const one = build(['a', 'b', 'link', 'fifo', 'bad']);
  const two = build(['bad', 'fifo', 'link', 'b', 'a']);
  assert.deepStrictEqual(one, two);
  assert.deepStrictEqual(one.accepted, ['acme-a', 'acme-b']);
  assert.ok(one.diagnostics.some((d) => d.code === 'overlay_symlink_refused' && d.capabilityId === 'acme-c'));
  assert.ok(one.diagnostics.some((d) => d.code === 'overlay_not_regular_file' && d.capabilityId === 'acme-d'));
});

test('overlays: the root must be a real directory (INVALID_ARGUMENT, field dir)', (t) => {
  const root = tempDir(t);
  capability(root, 'acme-notes');
  symlinkSync(root, join(tempDir(t), 'link'));
  const file = join(root, 'acme-notes', 'capability.json');
  for (const dir of [join(root, 'missing'), file]) {
    const { error } = load(dir);
    assert.deepStrictEqual([error.code, error.field], ['INVALID_ARGUMENT', 'dir']);
  }
  const linkRoot = tempDir(t);
  symlinkSync(root, join(linkRoot, 'overlays'));
  // However it is spelled: lstat follows a link named with a trailing `/` or `/.`.
  for (const tail of ['', '/', '/.', '//', '/./', '/.//.']) {
    const { error } = load(join(linkRoot, 'overlays') + tail);
    assert.deepStrictEqual([error?.code, error?.field], ['INVALID_ARGUMENT', 'dir'], tail);
    assert.match(error.message, /is a symbolic link/, tail);
  }
  for (const tail of ['/', '/.', '/.//./']) assert.deepStrictEqual(load(root + tail).accepted, ['acme-notes'], tail);
  assert.throws(() => api.loadOverlayDir(42), { code: 'INVALID_ARGUMENT', field: 'dir' });
});

test('overlays: the registry\'s own rejections follow the loader\'s refusals', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-wrong'));
  writeFileSync(join(root, 'acme-wrong', 'capability.json'), manifest('acme-other'));
  mkdirSync(join(root, 'acme-z'));
  mkfifo(join(root, 'acme-z', 'capability.json'));
  const result = load(root);
  assert.equal(result.diagnostics[0].code, 'overlay_not_regular_file');
  assert.ok(result.diagnostics.slice(1).some((d) => d.code === 'overlay_rejected' && d.capabilityId === 'acme-wrong'));
  assertClean(result);
});

test('overlays: loadOverlayDir returns a usable registry in-process', (t) => {
  const root = tempDir(t);
  capability(root, 'acme-notes');
  const { registry, diagnostics } = api.loadOverlayDir(root);
  assert.ok(Object.isFrozen(diagnostics));
  assert.ok(Object.keys(registry.toPeerJson().capabilities).includes('acme-notes'));
  assert.ok(api.resolveInstallPlan('claude', 'global', { home: '/home/u', cwd: '/w' }, { registry }));
});

test('overlays: the CLI refuses the same trees with the same codes', (t) => {
  const root = tempDir(t);
  fragmentLinkedOutside(t, root, 'acme-frag');
  mkdirSync(join(root, 'acme-fifo'));
  mkfifo(join(root, 'acme-fifo', 'capability.json'));
  mkdirSync(join(root, 'acme-dir', 'capability.json'), { recursive: true });
  capability(root, 'acme-ok');
  const api = load(root);
  const run = spawnSync(process.execPath, [join(npmDir, 'bin', 'gsd-core.js'), 'validate', root, '--json'], { encoding: 'utf8', timeout: 20_000 });
  assert.equal(run.status, 1, run.stderr);
  const byFolder = Object.fromEntries(JSON.parse(run.stdout).map((r) => [r.folder, r.diagnostics.map((d) => `${d.code}:${d.field ?? '-'}`)]));
  const fromApi = {};
  for (const d of api.diagnostics) (fromApi[d.capabilityId] ??= []).push(`${d.code}:${d.field ?? '-'}`);
  assert.deepStrictEqual(byFolder, { ...fromApi, 'acme-ok': [] });
  assert.ok(!run.stdout.includes('OUTSIDE-SECRET'));
  // A single capability folder is read under the same rules.
  assert.equal(cli(['validate', join(root, 'acme-frag')]).status, 1);
  assert.match(cli(['validate', join(root, 'acme-frag'), '--json']).stdout, /overlay_symlink_refused/);
});

test('overlays: the mixed tree of the C loader\'s test gives the same diagnostics, byte for byte', (t) => {
  // The scenario and the expected records of tests/c/test_overlay_dir.c
  // (test_creation_order_does_not_matter): both loaders implement one contract.
  const root = tempDir(t);
  capability(root, 'acme-a', { files: { 'README.md': '# notes\n' } });
  symlinkSync('../outside/acme-link', join(root, 'acme-b'));
  capability(root, 'acme-c', { files: { 'zz.md': 'z' } });
  mkfifo(join(root, 'acme-c', 'aa.md'));
  mkdirSync(join(root, 'acme-d'));
  writeFileSync(join(root, 'acme-d', 'notes.md'), 'n');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-a']);
  assert.deepStrictEqual(result.diagnostics, [
    { code: 'overlay_symlink_refused', severity: 'error', capabilityId: 'acme-b', message: "overlay folder 'acme-b' is a symbolic link; links are never followed" },
    { code: 'overlay_not_regular_file', severity: 'error', capabilityId: 'acme-c', field: 'aa.md', message: "'acme-c/aa.md' is neither a regular file nor a directory; the overlay folder is refused" },
    { code: 'overlay_manifest_missing', severity: 'error', capabilityId: 'acme-d', field: 'capability.json', message: "overlay folder 'acme-d' has no capability.json" },
  ]);
});

// ---- Byte bounds (docs/reliability.md, "Overlay loading at the edge"). The limits are the
// contract's numbers, written out here, not read from the module under test.
const MIB = 1024 * 1024;
const FOLDER_LIMIT = 32 * MIB;
const ROOT_LIMIT = 256 * MIB;

/**
 * A preamble that records every file the loader opens through `fs.openSync` and the bytes
 * `fs.readSync` returns for each (the loader reads only through these two).
 */
const OBSERVE_OPENS = `
const fs = require('node:fs');
const opened = [];
const readBytes = {};
const fdPath = new Map();
const openSync = fs.openSync;
fs.openSync = function (p, ...rest) {
  const shown = Buffer.isBuffer(p) ? p.toString('utf8') : String(p);
  opened.push(shown);
  const fd = openSync.call(this, p, ...rest);
  fdPath.set(fd, shown);
  return fd;
};
const readSync = fs.readSync;
fs.readSync = function (fd, ...rest) {
  const n = readSync.call(this, fd, ...rest);
  const shown = fdPath.get(fd);
  if (shown !== undefined) readBytes[shown] = (readBytes[shown] ?? 0) + n;
  return n;
};
globalThis.observed = () => ({ opened, readBytes });
`;

/** Files opened under `root/folder/`. */
const openedIn = (result, root, folder) => result.observed.opened.filter((p) => p.startsWith(`${join(root, folder)}/`));

/** A sparse file of `size` bytes (no disk blocks). */
/**
 * A child preamble whose `lstat` reports the files matching `pattern` as empty, as if they
 * grew after the walk listed them.
 * @param {RegExp} pattern
 */
const lstatReportsEmpty = (pattern) => `
const lstatSync = require('node:fs').lstatSync;
const grown = new RegExp(${JSON.stringify(pattern.source)});
require('node:fs').lstatSync = function (p, ...rest) {
  const stat = lstatSync.call(this, p, ...rest);
  if (grown.test(String(p))) stat.size = 0;
  return stat;
};
`;

function sparse(file, size) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
  truncateSync(file, size);
}

test('overlays: a folder over 32 MiB is refused unread (overlay_too_large); exactly 32 MiB is admitted', (t) => {
  const root = tempDir(t);
  // Four fragments: the manifest plus 8 + 8 + 8 + (8 MiB - manifest) = exactly 32 MiB,
  // each file within the core's 8 MiB bound, so the folder is a valid overlay.
  for (const [id, extra] of [['acme-exact', 0], ['acme-over', 1]]) {
    const dir = capability(root, id);
    const manifestBytes = Buffer.byteLength(manifest(id));
    for (const f of ['a', 'b', 'c']) sparse(join(dir, 'big', `${f}.md`), 8 * MIB);
    sparse(join(dir, 'big', 'd.md'), 8 * MIB - manifestBytes + extra);
  }
  const result = load(root, { preamble: OBSERVE_OPENS, timeout: 60_000 });
  assert.deepStrictEqual(result.diagnostics, [
    {
      code: 'overlay_too_large',
      severity: 'error',
      capabilityId: 'acme-over',
      message: `overlay folder 'acme-over' holds ${FOLDER_LIMIT + 1} bytes, more than the ${FOLDER_LIMIT} bytes allowed per folder; the overlay folder is refused unread`,
    },
  ]);
  assert.deepStrictEqual(result.accepted, ['acme-exact']);
  // Never opened: not one file of the refused folder; all five of the admitted one.
  assert.deepStrictEqual(openedIn(result, root, 'acme-over'), []);
  assert.equal(openedIn(result, root, 'acme-exact').length, 5);
});

test('overlays: a file over the core\'s 8 MiB bound is read to one byte past it; the refusal names its size, as the core words it', (t) => {
  const root = tempDir(t);
  const bigManifest = join(root, 'acme-big-manifest');
  mkdirSync(bigManifest);
  sparse(join(bigManifest, 'capability.json'), 9 * MIB);
  sparse(join(capability(root, 'acme-big-fragment'), 'big.md'), 9 * MIB + 5);
  // Exactly one byte past the bound: the size read and the file's size agree, so the core
  // given the whole text must say what the loader says.
  const exact = capability(root, 'acme-exact-fragment');
  writeFileSync(join(exact, 'big.md'), 'x'.repeat(8 * MIB + 1));
  capability(root, 'acme-small');
  const result = load(root, { timeout: 60_000 });
  const refusal = (id, field, message) => ({ code: field === undefined ? 'overlay_manifest_too_large' : 'overlay_fragment_too_large', severity: 'error', capabilityId: id, ...(field === undefined ? {} : { field }), message });
  assert.deepStrictEqual(result.diagnostics, [
    refusal('acme-big-fragment', 'fragment.path', 'file "big.md" is 9437189 bytes, over the 8388608-byte limit'),
    refusal('acme-big-manifest', undefined, 'capability.json is 9437184 bytes, over the 8388608-byte limit'),
    refusal('acme-exact-fragment', 'fragment.path', 'file "big.md" is 8388609 bytes, over the 8388608-byte limit'),
  ]);
  assert.deepStrictEqual(result.accepted, ['acme-small']);
  const core = api.buildRegistry([{ folder: 'acme-exact-fragment', manifest: manifest('acme-exact-fragment'), fragments: { 'big.md': 'x'.repeat(8 * MIB + 1) } }]).diagnostics();
  assert.deepStrictEqual(core.find((d) => d.code === 'overlay_fragment_too_large'), result.diagnostics[2]);
  // The CLI reads the same way: a capability.json given alone, its folder, the root.
  for (const target of [join(bigManifest, 'capability.json'), bigManifest, root]) {
    const run = cli(['validate', target, '--json']);
    assert.equal(run.status, 1, target);
    const found = JSON.parse(run.stdout).find((r) => r.folder === 'acme-big-manifest');
    assert.deepStrictEqual(found.diagnostics, [result.diagnostics[1]], target);
  }
});

test('overlays: the 256 MiB root budget refuses, in name order, the folder that would pass it, unread', (t) => {
  const root = tempDir(t);
  // Nine folders of exactly 30 MiB each (a manifest and one sparse 30 MiB - manifest
  // file), created last name first: 8 x 30 = 240 MiB fit, the ninth by name does not.
  const ids = Array.from({ length: 9 }, (_, i) => `acme-big-${i + 1}`);
  for (const id of [...ids].reverse()) {
    const dir = capability(root, id);
    sparse(join(dir, 'big.md'), 30 * MIB - Buffer.byteLength(manifest(id)));
  }
  // A small folder after them still fits in what is left.
  capability(root, 'acme-small');
  const result = load(root, { preamble: OBSERVE_OPENS, timeout: 60_000 });
  const tooLarge = result.diagnostics.filter((d) => d.code === 'overlay_too_large');
  assert.deepStrictEqual(tooLarge, [
    {
      code: 'overlay_too_large',
      severity: 'error',
      capabilityId: 'acme-big-9',
      message: `overlay folder 'acme-big-9' holds ${30 * MIB} bytes, more than the ${ROOT_LIMIT - 8 * 30 * MIB} bytes left of the ${ROOT_LIMIT} bytes allowed per overlay root (the root budget is spent); the overlay folder is refused unread`,
    },
  ]);
  assert.deepStrictEqual(openedIn(result, root, 'acme-big-9'), []);
  for (const id of ids.slice(0, 8)) {
    // Read (the core then rejects the 30 MiB file as over its own fragment bound), not
    // refused for size by the loader.
    assert.equal(openedIn(result, root, id).length, 2, id);
    assert.ok(result.diagnostics.some((d) => d.capabilityId === id && d.code === 'overlay_fragment_too_large'), id);
  }
  assert.deepStrictEqual(result.accepted, ['acme-small']);
});

test('overlays: a file that grew after its lstat is read only to the folder budget + 1 byte, and the folder is refused', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-grow');
  for (const f of ['a', 'b', 'c', 'd']) sparse(join(dir, `${f}.md`), 8 * MIB);
  capability(root, 'acme-ok');
  // The child's lstat reports the four files as empty, as if they grew after it: the
  // folder looks tiny, so only the bytes counted while reading can stop it.
  const result = load(root, { preamble: OBSERVE_OPENS + lstatReportsEmpty(/acme-grow\/[a-d]\.md$/), timeout: 60_000 });
  assert.deepStrictEqual(result.diagnostics, [
    {
      code: 'overlay_too_large',
      severity: 'error',
      capabilityId: 'acme-grow',
      message: `'acme-grow/d.md' grew while being read: the folder passes the ${FOLDER_LIMIT} bytes it may hold; the overlay folder is refused`,
    },
  ]);
  assert.deepStrictEqual(result.accepted, ['acme-ok']);
  const read = Object.entries(result.observed.readBytes)
    .filter(([p]) => p.startsWith(`${dir}/`))
    .reduce((sum, [, n]) => sum + n, 0);
  assert.equal(read, FOLDER_LIMIT + 1, 'bytes read from the folder: its budget and the one byte that shows the overflow');
});

test('overlays: bytes read count against the root budget even when the file then refuses its folder (not UTF-8)', (t) => {
  const root = tempDir(t);
  // 34 folders, each with one 8 MiB fragment whose first byte is not UTF-8; the child's
  // lstat reports those fragments as empty (as if they grew after it), so only bytes
  // counted while reading can hold the root to its budget.
  const ids = Array.from({ length: 34 }, (_, i) => `acme-bad-${String(i).padStart(2, '0')}`);
  for (const id of ids) {
    const file = join(capability(root, id), 'notes.md');
    writeFileSync(file, Buffer.from([0xff]));
    truncateSync(file, 8 * MIB);
  }
  const result = load(root, { preamble: OBSERVE_OPENS + lstatReportsEmpty(/acme-bad-[0-9]+\/notes\.md$/), timeout: 120_000 });
  const byCode = {};
  for (const d of result.diagnostics) byCode[d.code] = (byCode[d.code] ?? 0) + 1;
  // 8 MiB + a manifest per folder: 31 folders fit in 256 MiB, the 32nd overflows while
  // read, and the root has nothing left for the last two.
  assert.deepStrictEqual(byCode, { overlay_not_utf8: 31, overlay_too_large: 3 });
  assert.deepStrictEqual(result.accepted, []);
  const read = Object.entries(result.observed.readBytes)
    .filter(([p]) => p.startsWith(`${root}/`))
    .reduce((sum, [, n]) => sum + n, 0);
  assert.ok(read <= ROOT_LIMIT + 1, `read ${read} bytes from the root, over its ${ROOT_LIMIT}-byte budget + 1`);
});

test('overlays: an unreadable capability.json or fragment is overlay_unreadable with the OS error (uid 65534 when run as root)', (t) => {
  const root = tempDir(t);
  // mkdtemp makes 0700 directories: open the way for the unprivileged child.
  chmodSync(root, 0o755);
  const locked = capability(root, 'acme-locked-manifest');
  chmodSync(join(locked, 'capability.json'), 0o000);
  const lockedFragment = capability(root, 'acme-locked-fragment', { fragment: 'hidden' });
  chmodSync(join(lockedFragment, FRAGMENT), 0o000);
  capability(root, 'acme-ok');
  const asRoot = process.getuid() === 0;
  if (!asRoot) {
    // Without root the mode bits must stop this very process; if they do not (a
    // capability overrides them), the case cannot be shown: fail, do not skip.
    assert.throws(() => accessSync(join(locked, 'capability.json'), fsConstants.R_OK), { code: 'EACCES' },
      'chmod 000 does not stop this user from reading, and it is not root so it cannot drop to another uid: the unreadable case cannot be exercised');
  }
  const result = load(root, { spawn: asRoot ? { uid: 65534, gid: 65534 } : {} });
  if (asRoot) assert.equal(result.uid, 65534, 'the child must run under the dropped uid');
  assert.deepStrictEqual(result.accepted, ['acme-ok']);
  assert.deepStrictEqual(result.diagnostics, [
    {
      code: 'overlay_unreadable',
      severity: 'error',
      capabilityId: 'acme-locked-fragment',
      field: FRAGMENT,
      message: `'acme-locked-fragment/${FRAGMENT}' cannot be read: EACCES (os error 13)`,
      detail: { osError: 13 },
    },
    {
      code: 'overlay_unreadable',
      severity: 'error',
      capabilityId: 'acme-locked-manifest',
      field: 'capability.json',
      message: "'acme-locked-manifest/capability.json' cannot be read: EACCES (os error 13)",
      detail: { osError: 13 },
    },
  ]);
  for (const d of result.diagnostics) assert.match(d.message, /EACCES|permission denied/i);
});
