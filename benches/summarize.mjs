#!/usr/bin/env node
// Reads criterion's results and turns repeated runs into one table.
//
//   node benches/summarize.mjs collect [target/criterion]   > run-N.json   (one run's medians)
//   node benches/summarize.mjs report run-1.json run-2.json ...             (median + spread)
//
// `report` prints, per bench, the median over runs of criterion's per-run median estimate,
// the min–max over runs, the cost per element, and the per-element growth 1k → 10k of the
// scaling groups (target ≤ 1.2×).

import fs from 'node:fs';
import path from 'node:path';

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name === 'benchmark.json' && path.basename(dir) === 'new') out.push(dir);
  }
  return out;
}

function collect(root) {
  const results = {};
  for (const dir of walk(root)) {
    const bench = JSON.parse(fs.readFileSync(path.join(dir, 'benchmark.json'), 'utf8'));
    const est = JSON.parse(fs.readFileSync(path.join(dir, 'estimates.json'), 'utf8'));
    const elements = bench.throughput?.Elements ?? null;
    results[bench.full_id] = {
      group: bench.group_id,
      elements,
      median: est.median.point_estimate,
      lo: est.median.confidence_interval.lower_bound,
      hi: est.median.confidence_interval.upper_bound,
    };
  }
  return results;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const fmt = (ns) =>
  ns >= 1e9 ? `${(ns / 1e9).toFixed(2)} s` : ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(1)} ns`;

function report(files) {
  const runs = files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  const ids = [...new Set(runs.flatMap((r) => Object.keys(r)))].sort();
  const rows = {};
  console.log(`| bench | median of ${runs.length} run(s) | spread (min–max of run medians) | per element |`);
  console.log('|---|---|---|---|');
  for (const id of ids) {
    const ms = runs.map((r) => r[id]?.median).filter((x) => x !== undefined);
    const elements = runs.find((r) => r[id])[id].elements;
    const m = median(ms);
    rows[id] = { median: m, min: Math.min(...ms), max: Math.max(...ms), elements };
    const per = elements ? fmt(m / elements) : '';
    console.log(`| ${id} | ${fmt(m)} | ${fmt(Math.min(...ms))} – ${fmt(Math.max(...ms))} | ${per} |`);
  }
  const growth = (group) => {
    const small = rows[`${group}/1000`];
    const large = rows[`${group}/10000`];
    if (!small || !large) return;
    const g = large.median / large.elements / (small.median / small.elements);
    const perRun = runs
      .filter((r) => r[`${group}/1000`] && r[`${group}/10000`])
      .map((r) => r[`${group}/10000`].median / 10000 / (r[`${group}/1000`].median / 1000));
    const verdict = g <= 1.2 ? 'met' : 'NOT met';
    console.log(
      `\nper-element growth 1k → 10k, ${group}: ${g.toFixed(2)}× (per run: ${perRun.map((x) => x.toFixed(2)).join(', ')}; target ≤ 1.2×: ${verdict})`,
    );
  };
  growth('registry_with_overlays');
  growth('trigger_surface');
}

const [mode, ...rest] = process.argv.slice(2);
if (mode === 'collect') {
  console.log(JSON.stringify(collect(rest[0] ?? 'target/criterion'), null, 2));
} else if (mode === 'report') {
  report(rest);
} else {
  console.error('usage: summarize.mjs collect [dir] | report run.json...');
  process.exit(2);
}
