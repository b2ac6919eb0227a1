// Asks the peer for installed-surface facts: readInstallManifest over manifest texts,
// resolveInstalledSurfaces / buildShadowReport / renderShadowReport over fabricated
// machines, sanitizeForRender over strings, and writeManifest's file text.
// Request (stdin JSON): { manifests?: [text|null], manifestBytes?: [[byte]], machines?: [Machine], sanitize?: [string],
//   renders?: [{report, sampleLimit?}], writes?: [{runtime, mode, scope, files: [[rel, body]]}],
//   assigns?: [[[key, value]]] }
// `assigns` is JavaScript itself, not the peer: each list of pairs assigned in turn to a
// fresh object (as the peer's writer assigns each file's hash), answered as its entries.
// Machine: { runtime: string|null, registry?: <peer registry object>, home, cwd, env, existing: [path],
//   homes: { <configHome>: { manifest: text|null, configHomeIsSymlink, manifestIsSymlink } },
//   sampleLimits: [n] }
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const lib = process.env.GSD_PEER_LIB;
const { readInstallManifest, MANIFEST_NAME } = require(path.join(lib, 'installer-migrations.cjs'));
const { resolveInstalledSurfaces } = require(path.join(lib, 'installed-surface-resolver.cjs'));
const shadow = require(path.join(lib, 'install-shadow-report.cjs'));

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-surface-peer-'));
let counter = 0;

// A JavaScript string may hold a lone surrogate; the Rust side cannot. Make every string
// well-formed (lone halves become U+FFFD, as they print) before JSON leaves this process.
function wellFormed(value) {
  if (typeof value === 'string') return value.toWellFormed();
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value && typeof value === 'object') {
    const out = Object.create(null); // so a "__proto__" key stays a plain property
    for (const key of Object.keys(value)) out[wellFormed(key)] = wellFormed(value[key]);
    return out;
  }
  return value;
}

// Key order of every object, depth first, so the Rust side can compare order too.
function keyOrder(value, at = '$', out = []) {
  if (Array.isArray(value)) value.forEach((v, i) => keyOrder(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') {
    out.push([at, Object.keys(value).map((k) => k.toWellFormed())]);
    for (const k of Object.keys(value)) keyOrder(value[k], `${at}.${k.toWellFormed()}`, out);
  }
  return out;
}

/** readInstallManifest over a directory holding `text` as the manifest (null: no file). */
function readText(text) {
  const dir = path.join(scratch, `m${counter++}`);
  fs.mkdirSync(dir);
  if (text !== null) fs.writeFileSync(path.join(dir, MANIFEST_NAME), text, 'utf8');
  return readInstallManifest(dir);
}

function errorOf(error) {
  return { error: { name: error.constructor.name, message: error.message } };
}

function machine(m) {
  const texts = new Map();
  const symlinks = new Set();
  for (const [home, facts] of Object.entries(m.homes || {})) {
    if (facts.manifest !== null && facts.manifest !== undefined) texts.set(home, facts.manifest);
    if (facts.configHomeIsSymlink) symlinks.add(home);
    if (facts.manifestIsSymlink) symlinks.add(path.join(home, MANIFEST_NAME));
  }
  const existing = new Set(m.existing || []);
  const opts = {
    ...(m.registry ? { registry: m.registry } : {}),
    home: m.home,
    cwd: m.cwd,
    env: m.env || {},
    existsSync: (p) => existing.has(p),
    readManifest: (configHome) => readText(texts.has(configHome) ? texts.get(configHome) : null),
    lstatSync: (p) => {
      if (!symlinks.has(p)) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return { isSymbolicLink: () => true };
    },
  };
  const runtime = m.runtime === null ? undefined : m.runtime;
  const out = {};
  try {
    out.surfaces = wellFormed(resolveInstalledSurfaces(runtime, opts));
  } catch (error) {
    out.surfaces = errorOf(error);
  }
  if (typeof runtime === 'string') {
    try {
      const report = shadow.buildShadowReport(runtime, opts);
      out.report = wellFormed(report);
      out.lines = (m.sampleLimits || [5]).map((n) => wellFormed(shadow.renderShadowReport(report, { sampleLimit: n })));
    } catch (error) {
      out.report = errorOf(error);
    }
  }
  return out;
}

function writeOne(w) {
  const dir = path.join(scratch, `w${counter++}`);
  fs.mkdirSync(dir);
  for (const [rel, body] of w.files) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  }
  installer.writeManifest(dir, w.runtime, { mode: w.mode, scope: w.scope });
  return fs.readFileSync(path.join(dir, MANIFEST_NAME), 'utf8');
}

let installer = null;
function loadInstaller() {
  // The installer prints a banner when loaded; keep stdout for the JSON answer.
  process.env.GSD_TEST_MODE = '1';
  process.env.HOME = fs.mkdtempSync(path.join(scratch, 'home-'));
  const write = process.stdout.write;
  const log = console.log;
  process.stdout.write = () => true;
  console.log = () => {};
  try {
    installer = require(path.join(process.env.GSD_PEER_DIR, 'bin/install.js'));
  } finally {
    process.stdout.write = write;
    console.log = log;
  }
}

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const result = {};
try {
  if (input.manifests) {
    result.manifests = input.manifests.map((text) => {
      const value = readText(text);
      return { value: wellFormed(value), order: keyOrder(value) };
    });
  }
  if (input.manifestBytes) {
    result.manifestBytes = input.manifestBytes.map((bytes) => {
      const dir = path.join(scratch, `b${counter++}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, MANIFEST_NAME), Buffer.from(bytes));
      return wellFormed(readInstallManifest(dir));
    });
  }
  if (input.machines) result.machines = input.machines.map(machine);
  if (input.sanitize) result.sanitize = input.sanitize.map((s) => wellFormed(shadow.sanitizeForRender(s)));
  if (input.renders) {
    result.renders = input.renders.map((r) => shadow.renderShadowReport(r.report, r.sampleLimit === undefined ? {} : { sampleLimit: r.sampleLimit }));
  }
  if (input.assigns) {
    result.assigns = input.assigns.map((pairs) => {
      const files = {};
      for (const [key, value] of pairs) files[key] = value;
      return Object.entries(files);
    });
  }
  if (input.writes) {
    loadInstaller();
    result.writes = input.writes.map(writeOne);
  }
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(result));
