#!/usr/bin/env node
// Side-by-side bench: the JavaScript peer @opengsd/gsd-core and our native addon (npm/),
// in one process, on the same inputs. Prints medians, spread and peer/ours ratios.
//
//   node benches/node-bench.mjs [--quick] [--rounds N] [--cold-runs N] [--json FILE] [--only P1,P3,P4,M]
//                                [--against DIR]
//
// P1  warm whole plan, 72 real command stems + the real agent inventory, both scopes,
//     claude alone and every installable runtime; host home/cwd/env change on every call.
//     Peer: resolveScope + resolveInstallPlan + resolveRuntimeArtifactLayout +
//     resolveTriggerSurface (its pure half; staging files is IO and is left out).
//     Ours: resolveInstallPlan (scope, intent, layout, placements, triggers, diagnostics)
//     over an inventory built once, outside the timed loop, with `inventory()` (the peer
//     memoises its registry the same way); the rows read `.triggers.length` (answered
//     without building the trigger records on our side).
//     "every trigger record read": the same plans, reading `.trigger` of every trigger
//     record (the peer from its trigger surface, ours from `plan.triggers`), for claude and
//     for every installable runtime.
// P3  cold start: `node -e` that requires the library and resolves one plan, minus bare
//     `node -e 0`, runs interleaved.
// P4  validation of the 46 first-party manifests: peer JSON.parse + validateCapability +
//     collectReviewerWarningRecords; ours validateCapability + warningRecords on the text.
//     Then the peer's JSON.parse of the same texts alone, and its share of the peer's time.
// M   memory: the heap a plan keeps alive (V8 heap + external memory after a full
//     collection, many plans held at once), peer and ours, on P1's inputs; ours also with
//     every trigger record read.
//
// Without a built addon (npm/gsd-core.linux-x64-gnu.node) the peer half still runs and the
// ours/ratio columns say why they are missing.
//
// --against DIR: another checkout of this repository with its addon built (DIR/npm), e.g.
// main before a change, measured in the same process and interleaved with the peer and this
// checkout on the same inputs (P1 and P4), so a change is compared with what it replaces
// under the same load: a "before" line and its peer/before ratio follow each case.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PEER_PKG = path.join(ROOT, 'npm/node_modules/@opengsd/gsd-core');
const PEER_LIB = path.join(PEER_PKG, 'gsd-core/bin/lib');
const OURS_ENTRY = path.join(ROOT, 'npm/index.js');
const OURS_ADDON = path.join(ROOT, 'npm/gsd-core.linux-x64-gnu.node');

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const opts = { quick: false, rounds: 15, coldRuns: 30, json: null, only: null, against: null };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--quick') opts.quick = true;
    else if (a === '--rounds') opts.rounds = Number(argv[(i += 1)]);
    else if (a === '--cold-runs') opts.coldRuns = Number(argv[(i += 1)]);
    else if (a === '--json') opts.json = argv[(i += 1)];
    else if (a === '--only') opts.only = new Set(argv[(i += 1)].split(','));
    else if (a === '--against') opts.against = path.resolve(argv[(i += 1)]);
    else throw new Error(`unknown argument ${a}`);
  }
  if (opts.quick) {
    opts.rounds = Math.min(opts.rounds, 5);
    opts.coldRuns = Math.min(opts.coldRuns, 5);
  }
  if (!(opts.rounds >= 3) || !(opts.coldRuns >= 1)) throw new Error('--rounds must be >= 3 and --cold-runs >= 1');
  return opts;
}

const OPTS = parseArgs(process.argv.slice(2));
const wanted = (id) => OPTS.only === null || OPTS.only.has(id);

// ---------------------------------------------------------------- inputs

if (!fs.existsSync(PEER_LIB)) {
  throw new Error(`peer not installed at ${PEER_PKG}: run (cd npm && npm ci)`);
}
const PEER_VERSION = JSON.parse(fs.readFileSync(path.join(PEER_PKG, 'package.json'), 'utf8')).version;

function markdownStems(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => e.name.slice(0, -3))
    .sort();
}

/** `requires: [a, b]` of a command's front matter (the router's children). */
function frontMatterRequires(text) {
  const m = /^requires:\s*\[([^\]]*)\]/m.exec(text);
  return m ? m[1].split(',').map((s) => s.trim()).filter(Boolean) : [];
}

/** The package's source inventory, read the way the installer reads it. */
function inventory() {
  const commandsDir = path.join(PEER_PKG, 'commands/gsd');
  const commands = markdownStems(commandsDir);
  const agents = markdownStems(path.join(PEER_PKG, 'agents'));
  const routerStems = commands.filter((s) => s.startsWith('ns-'));
  const childToRouters = {};
  for (const router of routerStems) {
    for (const child of frontMatterRequires(fs.readFileSync(path.join(commandsDir, `${router}.md`), 'utf8'))) {
      (childToRouters[child] ??= []).push(router);
    }
  }
  return { commands, agents, routerStems, childToRouters };
}

const INV = inventory();
const MANIFESTS = fs
  .readdirSync(path.join(ROOT, 'capabilities'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort()
  .map((folder) => ({ folder, text: fs.readFileSync(path.join(ROOT, 'capabilities', folder, 'capability.json'), 'utf8') }));

// ---------------------------------------------------------------- libraries

const peer = {
  scope: require(path.join(PEER_LIB, 'install-scope.cjs')),
  intent: require(path.join(PEER_LIB, 'runtime-config-adapter-registry.cjs')),
  layout: require(path.join(PEER_LIB, 'runtime-artifact-layout.cjs')),
  validator: require(path.join(PEER_LIB, 'capability-validator.cjs')),
  registry: require(path.join(PEER_LIB, 'capability-registry.cjs')),
};

/** Our addon through its public entry point, or the reason it is not available. */
function loadOurs() {
  if (!fs.existsSync(OURS_ENTRY)) return { ours: null, why: 'npm/index.js is not on this branch yet' };
  if (!fs.existsSync(OURS_ADDON)) {
    return { ours: null, why: 'addon not built (cargo build --workspace --release; copy libgsd_core_node.so)' };
  }
  try {
    return { ours: require(OURS_ENTRY), why: null };
  } catch (err) {
    return { ours: null, why: `require(npm/index.js) failed: ${err.message}` };
  }
}
const { ours, why: oursMissing } = loadOurs();
/** The other checkout's library (`--against`), or null. */
const before = OPTS.against ? require(path.join(OPTS.against, 'npm/index.js')) : null;

const ALL_RUNTIMES = Object.keys(peer.registry.runtimes).sort();
// vscode has no installable config directory: both libraries refuse to plan it.
const INSTALLABLE = ALL_RUNTIMES.filter((r) => peer.registry.runtimes[r].runtime.configHome?.kind !== 'none');

// ---------------------------------------------------------------- timing

const now = () => process.hrtime.bigint();

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
  return { median: median(s), min: s[0], max: s[s.length - 1], q1: q(0.25), q3: q(0.75), n: s.length };
}

/**
 * Times `fn(i)` (one "operation") in rounds: calibrates the iteration count so a round takes
 * about `roundMs`, warms up for one round, then records ns/op per round.
 */
function measure(fn, roundMs = OPTS.quick ? 40 : 150) {
  let counter = 0;
  let iters = 1;
  for (;;) {
    const t0 = now();
    for (let k = 0; k < iters; k += 1) fn((counter += 1));
    const ms = Number(now() - t0) / 1e6;
    if (ms >= roundMs / 4 || iters >= 1 << 24) {
      iters = Math.max(1, Math.round((iters * roundMs) / Math.max(ms, 0.001)));
      break;
    }
    iters *= 4;
  }
  for (let k = 0; k < iters; k += 1) fn((counter += 1)); // warm-up round
  const perOp = [];
  for (let r = 0; r < OPTS.rounds; r += 1) {
    const t0 = now();
    for (let k = 0; k < iters; k += 1) fn((counter += 1));
    perOp.push(Number(now() - t0) / iters);
  }
  return { ...summary(perOp), iters };
}

/**
 * Runs the peer and our measurements alternately (peer, ours, peer, ours...) so slow
 * phases of a busy machine hit both sides; returns both summaries.
 */
function sideBySide(peerFn, oursFn, beforeFn = null) {
  if (!oursFn) return { peer: measure(peerFn), ours: null };
  const peerRuns = [];
  const oursRuns = [];
  const beforeRuns = [];
  for (let pass = 0; pass < 2; pass += 1) {
    peerRuns.push(measure(peerFn));
    oursRuns.push(measure(oursFn));
    if (beforeFn) beforeRuns.push(measure(beforeFn));
  }
  // Keep the later pass (JIT fully warm on both sides) and report the other pass's median as a check.
  const later = (runs) => ({ ...runs[1], firstPassMedian: runs[0].median });
  return {
    peer: later(peerRuns),
    ours: later(oursRuns),
    ...(beforeFn ? { before: later(beforeRuns) } : {}),
  };
}

// ---------------------------------------------------------------- workloads

/** A host that differs on every call, so no memo keyed on host facts can answer. */
function hostFor(i) {
  const home = `/home/bench-${i}`;
  return { home, cwd: `/work/project-${i}`, env: { XDG_CONFIG_HOME: `${home}/.config-${i}` } };
}

const noFile = () => false;

function peerPlan(runtime, scopeId, host) {
  const scope = peer.scope.resolveScope({
    id: scopeId,
    runtime,
    env: host.env,
    home: host.home,
    cwd: host.cwd,
    existsSync: noFile,
  });
  const intent = peer.intent.resolveInstallPlan(runtime);
  const layout = peer.layout.resolveRuntimeArtifactLayout(runtime, scope.configHome, scopeId);
  const triggers = peer.layout.resolveTriggerSurface(runtime, [scopeId], {
    stems: INV.commands,
    routerStems: INV.routerStems,
    childToRouters: INV.childToRouters,
  });
  return [scope, intent, layout, triggers];
}

const PLAN_OPTIONS = {
  commands: INV.commands,
  agents: INV.agents,
  routerStems: INV.routerStems,
  childToRouters: INV.childToRouters,
};

/**
 * A planner over one of our libraries: an inventory built once, like the peer's registry,
 * which it memoises on first use. The peer's `existsSync: noFile` is our host without
 * `existingPaths` (nothing exists).
 * @returns {(runtime: string, scopeId: string, host: object) => any}
 */
function plannerOf(lib) {
  const inv = typeof lib.inventory === 'function' ? lib.inventory(PLAN_OPTIONS) : null;
  const options = inv ? { inventory: inv } : PLAN_OPTIONS;
  return (runtime, scopeId, host) => lib.resolveInstallPlan(runtime, scopeId, host, options);
}
const oursPlan = ours ? plannerOf(ours) : null;
const beforePlan = before ? plannerOf(before) : null;

/** The length of every trigger name of a list of trigger records (reads each record). */
function readTriggers(triggers) {
  let n = 0;
  for (const t of triggers) n += t.trigger.length;
  return n;
}

/**
 * Plans of `runtimes` at both scopes, side by side; `read` consumes each plan's trigger list
 * on both sides (its length by default; `readTriggers` reads every record).
 */
function planCase(runtimes, read = (triggers) => triggers.length) {
  const calls = runtimes.flatMap((r) => [
    [r, 'global'],
    [r, 'local'],
  ]);
  let sink = 0;
  const peerFn = (i) => {
    const host = hostFor(i);
    for (const [r, s] of calls) sink += read(peerPlan(r, s, host)[3]);
  };
  const planFn = (plan) =>
    plan &&
    ((i) => {
      const host = hostFor(i);
      for (const [r, s] of calls) sink += read(plan(r, s, host).triggers);
    });
  const oursFn = planFn(oursPlan);
  return { ...sideBySide(peerFn, oursFn, planFn(beforePlan)), callsPerOp: calls.length, sink };
}

/**
 * What building the records alone costs, for the plans `planCase(runtimes, readTriggers)`
 * reads: per operation, every trigger record of every (runtime, scope) plan made again as
 * a plain object of the same seven fields, from values made beforehand (so no string is
 * built), and read the same way; once unfrozen and once frozen, as a plan's records are.
 * No design that returns deep-frozen plain records can cost less than the frozen figure
 * (plus deciding the plan and crossing into the core), so it bounds the every-record ratio.
 */
function recordFloor(runtimes) {
  if (!oursPlan) return null;
  const host = hostFor(0);
  const rows = runtimes.flatMap((r) =>
    ['global', 'local'].map((s) =>
      Array.from(oursPlan(r, s, host).triggers, (t) => [
        t.trigger,
        t.kind,
        t.scope,
        t.destPath,
        t.registration,
        t.routerTrigger,
        t.shadowedBy,
      ]),
    ),
  );
  let sink = 0;
  const build = (freeze) => () => {
    for (const plan of rows) {
      const list = [];
      for (const v of plan) {
        const record = {
          trigger: v[0],
          kind: v[1],
          scope: v[2],
          destPath: v[3],
          registration: v[4],
          routerTrigger: v[5],
          shadowedBy: v[6],
        };
        list.push(freeze ? Object.freeze(record) : record);
      }
      sink += readTriggers(freeze ? Object.freeze(list) : list);
    }
  };
  const records = rows.reduce((n, plan) => n + plan.length, 0);
  return { unfrozen: measure(build(false)), frozen: measure(build(true)), records, sink };
}

/** Prints what `recordFloor` measured beside the peer's time of the same case. */
function printFloor(res, floor) {
  if (!floor) return;
  const peer = res.peer.median;
  console.log(
    `  records alone (${floor.records} per op, made from ready values): ${fmtNs(floor.unfrozen.median)} unfrozen, ${fmtNs(floor.frozen.median)} frozen = ${((floor.frozen.median / peer) * 100).toFixed(0)}% of the peer's time; with frozen records the ratio cannot pass ${(peer / floor.frozen.median).toFixed(1)}× (3× leaves ${fmtNs(peer / 3)})`,
  );
}

function validationCase() {
  let sink = 0;
  const peerFn = () => {
    for (const { folder, text } of MANIFESTS) {
      const cap = JSON.parse(text);
      sink += peer.validator.validateCapability(cap, folder).length;
      sink += peer.validator.collectReviewerWarningRecords(cap).length;
    }
  };
  const checkFn = (lib) =>
    lib &&
    (() => {
      for (const { folder, text } of MANIFESTS) {
        sink += lib.validateCapability(text, folder).length;
        sink += lib.warningRecords(text).length;
      }
    });
  const oursFn = checkFn(ours);
  const result = { ...sideBySide(peerFn, oursFn, checkFn(before)), callsPerOp: MANIFESTS.length, sink };
  // The peer's `JSON.parse` of the same texts alone, measured right after: the part of the
  // peer's time that is V8 parsing JSON, which bounds how far ahead a parser of the text
  // can get (see docs/performance.md, "P4: the bound").
  result.peerParse = measure(() => {
    for (const { text } of MANIFESTS) sink += JSON.parse(text) === null ? 1 : 0;
  });
  return result;
}

// ---------------------------------------------------------------- cold start

const COLD_INPUT = JSON.stringify(PLAN_OPTIONS);
const COLD_HOST = JSON.stringify({ home: '/home/cold', cwd: '/work/cold', env: {} });

const COLD_SCRIPTS = {
  bare: '0',
  peer: `
const L = ${JSON.stringify(PEER_LIB)} + '/';
const inv = ${COLD_INPUT};
const host = ${COLD_HOST};
const scope = require(L + 'install-scope.cjs').resolveScope({ id: 'global', runtime: 'claude', env: host.env, home: host.home, cwd: host.cwd, existsSync: () => false });
require(L + 'runtime-config-adapter-registry.cjs').resolveInstallPlan('claude');
const lay = require(L + 'runtime-artifact-layout.cjs');
lay.resolveRuntimeArtifactLayout('claude', scope.configHome, 'global');
if (!lay.resolveTriggerSurface('claude', ['global'], { stems: inv.commands, routerStems: inv.routerStems, childToRouters: inv.childToRouters }).length) process.exit(3);
`,
  ours: `
const inv = ${COLD_INPUT};
const plan = require(${JSON.stringify(OURS_ENTRY)}).resolveInstallPlan('claude', 'global', { ...${COLD_HOST}, existingPaths: [] }, inv);
if (!plan.triggers.length) process.exit(3);
`,
};

function runNode(script) {
  const t0 = now();
  const r = spawnSync(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(now() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`cold-start script failed (${r.status}): ${r.stderr}`);
  return ms;
}

function coldStart() {
  const names = ours ? ['bare', 'peer', 'ours'] : ['bare', 'peer'];
  for (let w = 0; w < 3; w += 1) for (const n of names) runNode(COLD_SCRIPTS[n]);
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let k = 0; k < OPTS.coldRuns; k += 1) for (const n of names) runs[n].push(runNode(COLD_SCRIPTS[n]));
  // Each run minus the bare run of the same interleaved triple, so drift cancels pairwise.
  const net = (n) => summary(runs[n].map((ms, k) => ms - runs.bare[k]));
  return {
    runs: OPTS.coldRuns,
    bare: summary(runs.bare),
    peer: { total: summary(runs.peer), net: net('peer') },
    ours: ours ? { total: summary(runs.ours), net: net('ours') } : null,
  };
}

// ---------------------------------------------------------------- memory

/** A full collection, without a command-line flag: V8 gives `gc` to a new context once
 * the flag is set. */
const collect = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc');
})();

/** Bytes of V8 heap and external memory in use after two full collections. */
function heldBytes() {
  collect();
  collect();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * The bytes one plan keeps alive: `iterations` × the plans of `runtimes` at both scopes,
 * each for a new host, all held at once, measured against the heap before them. `read`
 * consumes each plan's trigger list as in P1.
 */
function heldPerPlan(plan, runtimes, iterations, read) {
  // One plan of each first (not kept): what a library builds once per process (a
  // planner, shared constants, compiled code) is not a plan's.
  for (const r of runtimes) for (const s of ['global', 'local']) read(plan(r, s, hostFor(999_999)));
  const kept = [];
  const before = heldBytes();
  for (let i = 0; i < iterations; i += 1) {
    const host = hostFor(1_000_000 + i);
    for (const r of runtimes) {
      for (const s of ['global', 'local']) {
        const p = plan(r, s, host);
        read(p);
        kept.push(p);
      }
    }
  }
  const after = heldBytes();
  if (kept.length === 0) throw new Error('no plan kept');
  return (after - before) / kept.length;
}

function memoryCase(runtimes, iterations) {
  const none = () => {};
  const peer = heldPerPlan(peerPlan, runtimes, iterations, none);
  const oursHead = oursPlan && heldPerPlan(oursPlan, runtimes, iterations, (p) => p.triggers.length);
  const oursRead = oursPlan && heldPerPlan(oursPlan, runtimes, iterations, (p) => readTriggers(p.triggers));
  return { plans: iterations * runtimes.length * 2, peer, ours: oursHead, oursRead };
}

// ---------------------------------------------------------------- report

const fmtNs = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
const spread = (s) => `${fmtNs(s.min)}–${fmtNs(s.max)}`;
const ratio = (p, o) => {
  if (!o) return `n/a (${oursMissing})`;
  const r = p.median / o.median;
  return r >= 1 ? `${r.toFixed(1)}× (ours faster)` : `${r.toFixed(3)}× (ours ${(1 / r).toFixed(1)}× slower)`;
};

function printWarm(label, res) {
  const { peer: p, ours: o, before: b, callsPerOp } = res;
  const line = (name, m) =>
    console.log(`  ${name.padEnd(6)} median ${fmtNs(m.median)}/op  (rounds ${spread(m)}; ${fmtNs(m.median / callsPerOp)} per call)`);
  console.log(`${label}`);
  line('peer', p);
  if (o) line('ours', o);
  if (b) line('before', b);
  console.log(`  peer/ours ${ratio(p, o)}`);
  if (b) console.log(`  peer/before ${ratio(p, b)}`);
}

const msFmt = (s) => `${s.median.toFixed(1)} ms (${s.min.toFixed(1)}–${s.max.toFixed(1)})`;

const report = {
  node: process.version,
  peerVersion: PEER_VERSION,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model ?? 'unknown',
  load: os.loadavg(),
  rounds: OPTS.rounds,
  inventory: {
    commands: INV.commands.length,
    agents: INV.agents.length,
    routers: INV.routerStems.length,
    manifests: MANIFESTS.length,
  },
  oursAvailable: ours !== null,
  against: OPTS.against,
  oursMissing,
  results: {},
};

console.log(
  `node ${process.version}, peer @opengsd/gsd-core ${PEER_VERSION}, ${report.cpus} cpus (${report.cpuModel}), load ${report.load.map((l) => l.toFixed(2)).join(' ')}`,
);
console.log(
  `inventory: ${INV.commands.length} command stems, ${INV.agents.length} agent stems, ${INV.routerStems.length} routers; ${MANIFESTS.length} manifests; ${OPTS.rounds} rounds`,
);
if (!ours) console.log(`ours: not measured — ${oursMissing}`);

if (wanted('P1')) {
  const claude = planCase(['claude']);
  printWarm('P1 warm plan: claude, global + local', claude);
  const claudeTriggers = planCase(['claude'], readTriggers);
  claudeTriggers.floor = recordFloor(['claude']);
  printWarm('P1 warm plan: claude, global + local, every trigger record read', claudeTriggers);
  printFloor(claudeTriggers, claudeTriggers.floor);
  const all = planCase(INSTALLABLE);
  printWarm(`P1 warm plan: ${INSTALLABLE.length} installable runtimes × 2 scopes`, all);
  const allTriggers = planCase(INSTALLABLE, readTriggers);
  allTriggers.floor = recordFloor(INSTALLABLE);
  printWarm(`P1 warm plan: ${INSTALLABLE.length} installable runtimes × 2 scopes, every trigger record read`, allTriggers);
  printFloor(allTriggers, allTriggers.floor);
  report.results.P1 = { claude, claudeTriggers, all, allTriggers, runtimes: INSTALLABLE };
}
if (wanted('P4')) {
  const v = validationCase();
  printWarm(`P4 validation of ${MANIFESTS.length} manifests (+ warning records)`, v);
  const share = v.peerParse.median / v.peer.median;
  console.log(
    `  peer JSON.parse alone ${fmtNs(v.peerParse.median / v.callsPerOp)} per manifest: ${(share * 100).toFixed(0)}% of the peer's time; 10× the peer leaves ${fmtNs(v.peer.median / v.callsPerOp / 10)} per manifest`,
  );
  report.results.P4 = v;
}
if (wanted('P3')) {
  const c = coldStart();
  console.log(`P3 cold start (${c.runs} interleaved runs each; net = run − bare run of the same triple)`);
  console.log(`  bare node -e 0   ${msFmt(c.bare)}`);
  console.log(`  peer  total ${msFmt(c.peer.total)}  net ${msFmt(c.peer.net)}`);
  if (c.ours) {
    console.log(`  ours  total ${msFmt(c.ours.total)}  net ${msFmt(c.ours.net)}`);
    if (c.ours.net.median > 0) {
      console.log(`  peer/ours (net medians) ${(c.peer.net.median / c.ours.net.median).toFixed(1)}×`);
    } else {
      console.log('  peer/ours n/a: our net median is within the noise of bare node (≤ 0)');
    }
  } else {
    console.log(`  peer/ours n/a (${oursMissing})`);
  }
  report.results.P3 = c;
}

if (wanted('M')) {
  const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
  const cases = [
    ['claude, global + local', memoryCase(['claude'], 1000)],
    [`${INSTALLABLE.length} installable runtimes × 2 scopes`, memoryCase(INSTALLABLE, 100)],
  ];
  console.log('M memory kept per plan (V8 heap + external after full collections, all plans held)');
  for (const [label, m] of cases) {
    console.log(`  ${label} (${m.plans} plans)`);
    console.log(`    peer   ${kb(m.peer)}`);
    if (m.ours === null) {
      console.log(`    ours   n/a (${oursMissing})`);
      continue;
    }
    console.log(`    ours   ${kb(m.ours)}  peer/ours ${(m.peer / m.ours).toFixed(1)}×`);
    console.log(`    ours, every trigger record read   ${kb(m.oursRead)}  peer/ours ${(m.peer / m.oursRead).toFixed(1)}×`);
  }
  report.results.M = Object.fromEntries(cases);
}

if (OPTS.json) fs.writeFileSync(OPTS.json, `${JSON.stringify(report, null, 2)}\n`);
