// Loading overlay folders from disk (loadOverlayDir): real temporary trees with links,
// FIFOs, directories where files are expected, non-UTF-8 bytes and too many files. Every
// load runs in a child process with a timeout, so a loader that blocked on a FIFO fails
// the test instead of hanging it. The rules are those of docs/node.md "Overlay folders".
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, symlinkSync, readFileSync } from 'node:fs';
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

const CHILD = `
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
process.stdout.write(JSON.stringify(out));
`;

/** loadOverlayDir(dir) in a child process that must finish within 20 s. */
function load(dir) {
  const run = spawnSync(process.execPath, ['-e', CHILD, join(npmDir, 'index.js'), dir], { encoding: 'utf8', timeout: 20_000, maxBuffer: 256 << 20 });
  assert.equal(run.error?.code, undefined, `the loader did not finish (blocked?): ${run.error}`);
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
  const elsewhere = tempDir(t);
  writeFileSync(join(elsewhere, 'secret.md'), OUTSIDE);
  const dir = capability(root, 'acme-notes', { fragment: 'placeholder' });
  execFileSync('rm', [join(dir, FRAGMENT)]);
  symlinkSync(join(elsewhere, 'secret.md'), join(dir, FRAGMENT));
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
  execFileSync('mkfifo', [join(root, 'acme-notes', 'capability.json')]);
  capability(root, 'acme-other');
  const result = load(root);
  assert.deepStrictEqual(result.accepted, ['acme-other']);
  assert.deepStrictEqual(codes(result), ['overlay_not_regular_file@acme-notes:capability.json']);
});

test('overlays: a FIFO as a fragment is refused without blocking', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-notes', { fragment: 'placeholder' });
  execFileSync('rm', [join(dir, FRAGMENT)]);
  execFileSync('mkfifo', [join(dir, FRAGMENT)]);
  const result = load(root);
  assert.deepStrictEqual(result.accepted, []);
  assert.deepStrictEqual(codes(result), [`overlay_not_regular_file@acme-notes:${FRAGMENT}`]);
});

test('overlays: a FIFO or a file at the root is ignored, not opened', (t) => {
  const root = tempDir(t);
  execFileSync('mkfifo', [join(root, 'a-fifo')]);
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

test('overlays: a file name that is not UTF-8 is refused, and file names are escaped in messages', (t) => {
  const root = tempDir(t);
  const dir = capability(root, 'acme-notes');
  writeFileSync(Buffer.from(`${dir}/bad-\xff.md`, 'latin1'), 'x');
  const hostile = capability(root, 'acme-ansi');
  mkdirSync(join(hostile, 'x'));
  execFileSync('mkfifo', [join(hostile, 'x', 'e\u001b[31m\u202ex')]);
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

test('overlays: the same tree created in two orders gives identical results', (t) => {
  const build = (order) => {
    const root = tempDir(t);
    const steps = {
      b: () => capability(root, 'acme-b', { fragment: 'b' }),
      a: () => capability(root, 'acme-a', { files: { 'z.md': 'z', 'a.md': 'a', 'm/n.md': 'n' } }),
      link: () => symlinkSync(join(root, 'acme-a'), join(root, 'acme-c')),
      fifo: () => {
        mkdirSync(join(root, 'acme-d'));
        execFileSync('mkfifo', [join(root, 'acme-d', 'capability.json')]);
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
  const { error } = load(join(linkRoot, 'overlays'));
  assert.deepStrictEqual([error.code, error.field], ['INVALID_ARGUMENT', 'dir']);
  assert.throws(() => api.loadOverlayDir(42), { code: 'INVALID_ARGUMENT', field: 'dir' });
});

test('overlays: the registry\'s own rejections follow the loader\'s refusals', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, 'acme-wrong'));
  writeFileSync(join(root, 'acme-wrong', 'capability.json'), manifest('acme-other'));
  mkdirSync(join(root, 'acme-z'));
  execFileSync('mkfifo', [join(root, 'acme-z', 'capability.json')]);
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
  const elsewhere = tempDir(t);
  writeFileSync(join(elsewhere, 'secret.md'), OUTSIDE);
  const dir = capability(root, 'acme-frag', { fragment: 'placeholder' });
  execFileSync('rm', [join(dir, FRAGMENT)]);
  symlinkSync(join(elsewhere, 'secret.md'), join(dir, FRAGMENT));
  mkdirSync(join(root, 'acme-fifo'));
  execFileSync('mkfifo', [join(root, 'acme-fifo', 'capability.json')]);
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
  execFileSync('mkfifo', [join(root, 'acme-c', 'aa.md')]);
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
