#!/usr/bin/env node
// The targets of docs/performance.md, P1 to P6, as one table of ratios, from the results
// of one `bash scripts/bench.sh` run (its folder, target/bench-results/ by default).
//
//   node benches/targets.mjs [DIR]
//
// Reads what the steps of that run wrote: criterion-run-*.json (native, one file per
// criterion run), callgrind.md (instruction counts), node.json (the side-by-side bench),
// c-abi.txt and native-json.txt (the C ABI and the native JSON path, timed in turn), scale-wall.txt
// (P5's two sizes timed in turn). A ratio is the peer's time over ours, so above 1 we
// are faster; the bracket after a figure is its spread, the lowest and highest ratio the
// runs or rounds allow (the peer's fastest over our slowest, and the other way round).
// A row whose inputs the run did not produce says which file is missing; nothing is
// filled in from an earlier run.

import fs from 'node:fs';
import path from 'node:path';

const DIR = path.resolve(process.argv[2] ?? 'target/bench-results');

function readIfPresent(name, parse) {
  const file = path.join(DIR, name);
  return fs.existsSync(file) ? parse(fs.readFileSync(file, 'utf8')) : null;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// ---------------------------------------------------------------- the run's results

/** Criterion: per bench id, the median over runs of the per-element median, and its range. */
function criterion() {
  const files = fs.existsSync(DIR) ? fs.readdirSync(DIR).filter((f) => /^criterion-run-\d+\.json$/.test(f)) : [];
  if (files.length === 0) return null;
  const runs = files.map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')));
  const ids = new Set(runs.flatMap((r) => Object.keys(r)));
  const out = {};
  for (const id of ids) {
    const per = runs.filter((r) => r[id]).map((r) => r[id].median / (r[id].elements ?? 1));
    out[id] = { median: median(per), min: Math.min(...per), max: Math.max(...per), runs: per.length };
  }
  return out;
}

/** callgrind.md: per workload label ("validate 46"), instructions per element. */
function callgrind(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^\|\s*([^|]+?)\s*\|\s*(\d+)\s*\|\s*(\d*)\s*\|$/.exec(line);
    if (m) out[m[1]] = { perRep: Number(m[2]), perElement: m[3] === '' ? null : Number(m[3]) };
  }
  return out;
}

/** scale-wall.txt: per case (`triggers`, `overlays`), the figures of its line. */
function scaleWallLines(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^scale-wall case=(\w+) (.*)$/.exec(line);
    if (!m) continue;
    out[m[1]] = Object.fromEntries(m[2].split(' ').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
  }
  return out;
}

/** c-abi.txt, native-json.txt: per line (one run of the timing loop), ns per plan. */
function timedRuns(text) {
  const runs = [];
  for (const m of text.matchAll(/plans=(\d+) .*median_ns=(\d+) min_ns=(\d+) max_ns=(\d+)/g)) {
    const plans = Number(m[1]);
    runs.push({ median: m[2] / plans, min: m[3] / plans, max: m[4] / plans });
  }
  return runs.length > 0 ? runs : null;
}

const crit = criterion();
const cg = readIfPresent('callgrind.md', callgrind);
const node = readIfPresent('node.json', JSON.parse);
const cabi = readIfPresent('c-abi.txt', timedRuns);
const nativeJson = readIfPresent('native-json.txt', timedRuns);
const scaleWall = readIfPresent('scale-wall.txt', scaleWallLines);

// ---------------------------------------------------------------- figures

/** A time per call from a Node side (per op) of a case. */
const perCall = (side, res) => ({
  median: side.median / res.callsPerOp,
  min: side.min / res.callsPerOp,
  max: side.max / res.callsPerOp,
});

/** peer over ours, faster-is-higher, with the range the two spreads allow. */
const speedup = (peer, ours) => ({
  value: peer.median / ours.median,
  lo: peer.min / ours.max,
  hi: peer.max / ours.min,
});

const x = (v) => `${v.toFixed(v >= 10 ? 0 : v >= 3 ? 1 : 2)}×`;
const fmtRatio = (r) => `${x(r.value)} (${x(r.lo)}–${x(r.hi)})`;
const ns = (v) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)} ms` : v >= 1e3 ? `${(v / 1e3).toFixed(2)} µs` : `${v.toFixed(0)} ns`);
const fmtTime = (t) => `${ns(t.median)} (${ns(t.min)}–${ns(t.max)})`;

const rows = [];
const missing = (target, measure, what) => rows.push([target, measure, `not measured: ${what}`, '']);
const row = (target, measure, figure, met) => rows.push([target, measure, figure, met ? 'met' : 'not met']);

// P1: warm plans through Node, at least 3x.
const p1 = node?.results?.P1;
if (p1?.claude?.ours) {
  const cases = [
    ['claude', 'plan + `.triggers.length`, claude, both scopes', p1.claude],
    ['all', `the same, ${p1.runtimes.length} installable runtimes × 2 scopes`, p1.all],
    ['claude read', 'claude, every trigger record read', p1.claudeTriggers],
    ['all read', 'all runtimes, every trigger record read', p1.allTriggers],
  ];
  for (const [, measure, res] of cases) {
    const r = speedup(res.peer, res.ours);
    let figure = fmtRatio(r);
    if (res.floor) {
      const bound = res.peer.median / res.floor.frozen.median;
      figure += `; deep-frozen records alone allow at most ${x(bound)}`;
    }
    row('**P1** a plan through Node ≥ 3×', measure, figure, r.value >= 3);
  }
} else {
  missing('**P1** a plan through Node ≥ 3×', 'plans through Node', node ? 'our addon was not built' : 'node.json');
}

// P2: the native plan against the peer's four calls, at least 20x.
const peerPlan = (res) => res && perCall(res.peer, res);
if (crit && p1) {
  const cases = [
    ['decided plan, claude', 'decide/claude x 2 scopes', p1.claude],
    ['decided plan, all runtimes', 'decide/18 runtimes x 2 scopes', p1.all],
    ['trigger records spelled out, claude', 'decide/claude x 2 scopes, triggers spelled out', p1.claude],
    ['trigger records spelled out, all runtimes', 'decide/18 runtimes x 2 scopes, triggers spelled out', p1.all],
    ['whole `Plan`, claude', 'plan/claude x 2 scopes', p1.claude],
    ['whole `Plan`, all runtimes', 'plan/18 runtimes x 2 scopes', p1.all],
  ];
  for (const [measure, id, res] of cases) {
    const ours = crit[id];
    if (!ours) {
      missing('**P2** native plan ≥ 20×', measure, `criterion bench ${id}`);
      continue;
    }
    const r = speedup(peerPlan(res), ours);
    row('**P2** native plan ≥ 20×', `${measure}: ${fmtTime(ours)} per plan`, fmtRatio(r), r.value >= 20);
  }
} else {
  missing('**P2** native plan ≥ 20×', 'native plans against the peer', crit ? 'node.json' : 'criterion-run-*.json');
}

// P3: cold start overhead, at most 25% of the peer's.
const p3 = node?.results?.P3;
if (p3?.ours) {
  const share = p3.ours.net.median / p3.peer.net.median;
  row(
    '**P3** cold start overhead ≤ 25% of the peer\'s',
    `\`node -e\` require + one plan, minus bare \`node -e 0\`, ${p3.runs} runs`,
    `ours ${p3.ours.net.median.toFixed(1)} ms against ${p3.peer.net.median.toFixed(1)} ms: ${(share * 100).toFixed(0)}%`,
    share <= 0.25,
  );
} else {
  missing('**P3** cold start overhead ≤ 25% of the peer\'s', 'cold start', node ? 'the run had no P3 or no addon' : 'node.json');
}

// P4: validation of the 46 manifests, at least 10x, through Node and native.
const p4 = node?.results?.P4;
if (p4?.ours) {
  const r = speedup(p4.peer, p4.ours);
  const parse = p4.peerParse.median / p4.peer.median;
  row(
    '**P4** validation ≥ 10×',
    `Node, ${p4.callsPerOp} manifests + warning records`,
    `${fmtRatio(r)}; the peer's \`JSON.parse\` alone is ${(parse * 100).toFixed(0)}% of its time`,
    r.value >= 10,
  );
  const native = crit?.['validate/46 manifests'];
  if (native) {
    const n = speedup(perCall(p4.peer, p4), native);
    row('**P4** validation ≥ 10×', `native, ${fmtTime(native)} per manifest`, fmtRatio(n), n.value >= 10);
  } else {
    missing('**P4** validation ≥ 10×', 'native', 'criterion bench validate/46 manifests');
  }
} else {
  missing('**P4** validation ≥ 10×', 'validation', node ? 'the run had no P4 or no addon' : 'node.json');
}

// P5: per-item cost growth 1k -> 10k, at most 1.2x, in instructions and in wall time (the
// two sizes timed in turn by `workload scale-wall`; criterion's runs of them stay in criterion.md).
for (const [what, cgKey] of [
  ['trigger stems', 'triggers'],
  ['overlays', 'overlays'],
]) {
  const target = '**P5** per-item growth 1k → 10k ≤ 1.2×';
  if (cg?.[`${cgKey} 1000`] && cg[`${cgKey} 10000`]) {
    const [a, b] = [cg[`${cgKey} 1000`].perElement, cg[`${cgKey} 10000`].perElement];
    row(target, `${what}, instructions: ${a} → ${b} per item`, x(b / a), b / a <= 1.2);
  } else {
    missing(target, `${what}, instructions`, 'callgrind.md');
  }
  const sw = scaleWall?.[cgKey];
  if (sw) {
    const drop = cgKey === 'overlays' ? `, of which dropping the registry ${ns(sw.drop_1k_ns)} → ${ns(sw.drop_10k_ns)}` : '';
    row(
      target,
      `${what}, wall time, 1k and 10k in turn (${sw.rounds} rounds): ${ns(sw.per_item_1k_ns)} → ${ns(sw.per_item_10k_ns)} per item${drop}`,
      `${x(sw.growth_median)} (${x(sw.growth_min)}–${x(sw.growth_max)})`,
      sw.growth_median <= 1.2,
    );
  } else {
    missing(target, `${what}, wall time`, 'scale-wall.txt');
  }
}

// P6: the C ABI within 15% of native, in instructions and in wall time.
{
  const target = '**P6** C ABI within 15% of native';
  const c = cg?.['c-abi plan claude x 2 scopes'];
  const j = cg?.['plan-claude-json 2'];
  if (c && j) {
    const over = c.perRep / j.perRep - 1;
    row(target, `instructions per 2 claude plans: ${c.perRep} against ${j.perRep} for native JSON in and out`, `${over >= 0 ? '+' : ''}${(over * 100).toFixed(1)}%`, over <= 0.15);
  } else {
    missing(target, 'instructions', 'callgrind.md with the C ABI row');
  }
  if (cabi && nativeJson && cabi.length === nativeJson.length) {
    // Each C run against the native run right after it; the median pair and the range.
    const overs = cabi.map((c, i) => c.median / nativeJson[i].median - 1).sort((a, b) => a - b);
    const over = median(overs);
    const pct = (v) => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)}%`;
    const times = (runs) => runs.map((r) => ns(r.median)).join(' / ');
    row(
      target,
      `wall time per plan, ${cabi.length} runs in turn: ${times(cabi)} against ${times(nativeJson)} for native JSON in and out`,
      `${pct(over)} (${pct(overs[0])} to ${pct(overs[overs.length - 1])})`,
      over <= 0.15,
    );
  } else {
    missing(target, 'wall time', cabi ? 'native-json.txt with one line per c-abi.txt line' : 'c-abi.txt');
  }
}

// ---------------------------------------------------------------- the table

const machine = readIfPresent('machine.txt', (t) => t.trim().split('\n').join('; '));
if (machine) console.log(`${machine}`);
if (node) console.log(`peer @opengsd/gsd-core ${node.peerVersion}; Node ${node.rounds} rounds; criterion runs: ${crit ? Object.values(crit)[0].runs : 0}`);
console.log('');
console.log('| target | measure | figure | status |');
console.log('|---|---|---|---|');
let last = null;
for (const [target, measure, figure, status] of rows) {
  console.log(`| ${target === last ? '' : target} | ${measure} | ${figure} | ${status} |`);
  last = target;
}
