#!/usr/bin/env node
// Performance regression guard, run by CI (scripts/bench-guard.sh builds what it needs).
//
//   node benches/guard.mjs --workload PATH --plan-bench PATH --requests DIR [--memory PATH] [--bounded PATH] [--node] [--node-runs N] [--update]
//
// Three kinds of check, with margins justified in docs/performance.md ("Regression guard"):
//
// 1. Instruction counts (valgrind callgrind) of `benches/workload.rs`: one repetition =
//    count(reps = 2) − count(reps = 1). They do not move with machine load, so the margin
//    can be tight: a workload fails when its count per element exceeds the recorded
//    baseline by more than INSTRUCTION_MARGIN. The same counts give the two ratios whose
//    targets the issue sets in instructions:
//      P5  per-item growth 1k → 10k (overlays, trigger stems) ≤ 1.2×
//      P6  a plan through the C ABI ≤ 1.15× native Rust doing the same JSON work.
// 2. Node ratios (peer time / our time, `benches/node-bench.mjs --quick`), P1 (claude with
//    `.triggers.length`, claude with every trigger record read, every runtime) and P4: wall
//    clock on a shared machine, so the margin is wide. A ratio fails when it falls below
//    its floor = min(target, recorded baseline) × (1 − NODE_MARGIN): a ratio whose baseline
//    is at or above its target has its floor at half the target, one whose baseline is
//    below it at half the baseline, so an unmet target is not guarded as if it were met.
//    The bench's fourth P1 case (every runtime, every trigger record read) is measured by
//    the same run but not checked.
// 2b. P5 in wall time (`workload scale-wall`): 1k and 10k in turn in one process; a growth
//    fails above max(target, recorded) by more than WALL_MARGIN.
// 3. Heap use (`benches/memory.rs --json`, a counting allocator): allocations, bytes kept
//    and peak bytes per element of each workload. Exactly repeatable, so a figure fails
//    when it exceeds the recorded baseline by more than MEMORY_MARGIN. The same for the
//    peak heap of the big hostile inputs (`benches/bounded.rs --json`), whose targets
//    (docs/reliability.md) are reported met or not.
//
// `--update` rewrites benches/guard-baseline.json with what was measured (commit it with
// the change that moved the figures, and say why in the commit message).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE = path.join(ROOT, 'benches/guard-baseline.json');

/**
 * Instruction counts are not exactly repeatable: serde_json's order-preserving maps hash
 * with a random seed per process, so probe sequences, and how later work reuses the blocks
 * the setup frees, differ from run to run (the typed claude plan read 87,819-95,761 for
 * the same code, a 9% spread). The plan baselines are the highest reading of the landed
 * code, so 5% sits above that spread, and what passes is the spread plus 5%: the typed
 * claude plan fails above 100,549, 14.5% over the low end of that spread and 8-12% over
 * its recent readings (89,416-93,268: docs/performance.md and the history's changes
 * 34-37). A smaller regression of a plan path passes.
 */
const INSTRUCTION_MARGIN = 0.05;
/**
 * The P5 and P6 ratios are quotients of such counts, and the counts carry the run-to-run
 * spread of hash seeds (serde_json's order-preserving maps hash with a random key): P6
 * read 1.102-1.141 in four runs of the C path of 30 November, 1.148 and 1.153 in the
 * two full guard runs before change 38 and 1.027-1.084 in five runs after it. A ratio
 * fails past its target by more than 3% (P6 above 1.1845, P5 above 1.236).
 */
const RATIO_MARGIN = 0.03;
/**
 * Quick-mode Node ratios move a lot on a shared 2-vCPU machine (the five runs that set the
 * P1 claude and all-runtimes baselines in use, 30 November 10:50, read 3.6-5.5 and
 * 4.6-14.8; the peer's own time moves with V8's tiering), so the Node check is a coarse
 * tripwire: the baseline is the lowest ratio of five runs (`--update --node-runs 5`; P4's
 * 0.64 was set by hand) and a run fails only below half of the lower of the baseline and
 * the target. The floors are 1.5 (P1 claude), 0.52 (every trigger record read), 1.5 (all
 * runtimes) and 0.32 (P4): against the last recorded quick runs (30 November 22:03-22:22)
 * a run fails once our side is about 3.2-3.7, 2.0-2.1, 4.9-5.6 and 4.3-5.7 times slower,
 * the peer's time unchanged. The instruction counts above are the fine guard.
 */
const NODE_MARGIN = 0.5;
/**
 * Heap counts repeat exactly from run to run (the same code allocates the same blocks in
 * the same order; hash seeds change where entries land, not how many or how large the
 * tables are), so any growth is a change of the code. 2% lets a change that adds a field
 * or a diagnostic pass, and fails one that adds an allocation per element to a workload
 * that makes a few (a decided plan makes 16.5 per plan: one more is 6%).
 */
const MEMORY_MARGIN = 0.02;
/**
 * P5 in wall time (`workload scale-wall`, 1k and 10k timed in turn, median of 5 rounds).
 * The median over rounds repeats well on this machine, unlike criterion's separate runs:
 * trigger stems read 1.001-1.067 in nine runs (single rounds 0.81-1.63), and the regression this was added for (every 10k call faulting its buffers
 * in again) read 1.64-1.75. A growth fails above max(target, baseline) by more than 15%:
 * 1.38 for both trigger stems and overlays (their baselines, 1.065 and 1.128, are under
 * 1.2), which the regression passes by far and no run came near.
 */
const WALL_MARGIN = 0.15;

const TARGETS = { P5: 1.2, P6: 1.15, P1claude: 3, P1claudeRead: 3, P1all: 3, P4: 10 };

/** [name, workload case, n, elements] — `elements` divides one repetition's count. */
const WORKLOADS = [
  ['validate 46', 'validate', 46, 46],
  ['plan claude x 2 scopes', 'plan-claude', 2, 2],
  ['plan claude x 2 scopes, JSON', 'plan-claude-json', 2, 2],
  ['plan 18 runtimes x 2 scopes', 'plan-all', 36, 36],
  ['decide claude x 2 scopes', 'decide-claude', 50, 100],
  ['decide 18 runtimes x 2 scopes', 'decide-all', 5, 180],
  ['triggers 1000', 'triggers', 1000, 1000],
  ['triggers 10000', 'triggers', 10000, 10000],
  ['overlays 1000', 'overlays', 1000, 1000],
  ['overlays 10000', 'overlays', 10000, 10000],
];

function parseArgs(argv) {
  const o = { workload: null, planBench: null, requests: null, memory: null, bounded: null, node: false, nodeRuns: 1, update: false };
  for (let i = 0; i < argv.length; i += 1) {
    const a = argv[i];
    if (a === '--workload') o.workload = argv[(i += 1)];
    else if (a === '--plan-bench') o.planBench = argv[(i += 1)];
    else if (a === '--requests') o.requests = argv[(i += 1)];
    else if (a === '--memory') o.memory = argv[(i += 1)];
    else if (a === '--bounded') o.bounded = argv[(i += 1)];
    else if (a === '--node') o.node = true;
    else if (a === '--node-runs') o.nodeRuns = Number(argv[(i += 1)]);
    else if (a === '--update') o.update = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!o.workload || !o.planBench || !o.requests) {
    throw new Error('--workload, --plan-bench and --requests are required');
  }
  return o;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}`);
  return `${r.stdout}\n${r.stderr}`;
}

/** Instructions of one run under callgrind (resolves to a number). */
function instructions(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', cmd, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /Collected : (\d+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`callgrind ${cmd} ${args.join(' ')} exited ${code}:\n${err}`));
      else resolve(Number(m[1]));
    });
  });
}

/** Runs `jobs` (functions returning promises) at most `width` at a time, results in order. */
async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next;
      next += 1;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

/**
 * Instructions per element of every workload; one repetition = count(2 reps) − count(1 rep),
 * so setup cancels. The callgrind runs go in parallel, one per CPU.
 */
async function measureInstructions(o) {
  const reqs = ['global', 'local'].map((s) => path.join(o.requests, `req-claude-${s}.json`));
  const specs = [
    ...WORKLOADS.map(([name, kase, n, elements]) => ({
      name,
      elements,
      run: (reps) => instructions(o.workload, [kase, String(n), String(reps)]),
    })),
    {
      name: 'plan claude x 2 scopes, C ABI',
      elements: 2,
      run: (reps) => instructions(o.planBench, ['-n', '1', '-r', String(reps), ...reqs]),
    },
  ];
  const jobs = specs.flatMap((s) => [() => s.run(1), () => s.run(2)]);
  const counts = await pool(jobs, Math.max(1, os.cpus().length));
  const perElement = {};
  specs.forEach((s, i) => {
    perElement[s.name] = Math.round((counts[2 * i + 1] - counts[2 * i]) / s.elements);
    console.log(`  ${s.name.padEnd(32)} ${perElement[s.name].toLocaleString('en-US').padStart(12)} instructions per element`);
  });
  return perElement;
}

/** Per workload: allocations, bytes kept and peak bytes per element (`memory.rs --json`). */
function measureMemory(o) {
  const figures = JSON.parse(run(o.memory, ['--json']).trim());
  const out = {};
  for (const [name, f] of Object.entries(figures)) {
    out[name] = { allocations: f.allocations, kept: f.kept, peak: f.peak / f.elements };
    console.log(
      `  ${name.padEnd(62)} ${f.allocations.toFixed(1).padStart(9)} allocations, ${f.kept.toFixed(0).padStart(7)} bytes kept, ${(f.peak / f.elements).toFixed(0).padStart(8)} peak bytes per element`,
    );
  }
  return out;
}

/** Per hostile case: its peak heap above the input (`bounded.rs --json`), with its target. */
function measureBounded(o) {
  const cases = JSON.parse(run(o.bounded, ['--json']).trim());
  const MIB = 1024 * 1024;
  for (const [name, c] of Object.entries(cases)) {
    let status = '';
    if (c.targetMiB !== null) {
      const counted = (c.peak + (c.targetCountsInput ? c.input : 0)) / MIB;
      status = ` (target < ${c.targetMiB} MiB${c.targetCountsInput ? ', input included' : ''}: ${counted < c.targetMiB ? 'met' : 'NOT met'})`;
    }
    console.log(`  ${name.padEnd(62)} ${(c.peak / MIB).toFixed(1).padStart(7)} MiB peak${status}`);
  }
  return Object.fromEntries(Object.entries(cases).map(([name, c]) => [name, { peak: c.peak }]));
}

/**
 * Heap figures repeat exactly, so each one of `measured` (per workload, named figures)
 * fails above its `recorded` value by more than MEMORY_MARGIN.
 */
function checkExact(measured, recorded, update, failures) {
  for (const [name, figures] of Object.entries(measured)) {
    const base = recorded?.[name];
    if (base === undefined) {
      if (!update) console.log(`  ${name}: no baseline yet (run --update to guard it)`);
      continue;
    }
    for (const [k, v] of Object.entries(figures)) {
      if (v > base[k] * (1 + MEMORY_MARGIN)) {
        failures.push(`${name}: ${k} ${v.toFixed(1)} > baseline ${base[k].toFixed(1)} + ${MEMORY_MARGIN * 100}%`);
      }
    }
  }
}

function measureNode() {
  const file = path.join(os.tmpdir(), `gsd-guard-${process.pid}.json`);
  run(process.execPath, [path.join(ROOT, 'benches/node-bench.mjs'), '--quick', '--only', 'P1,P4', '--json', file]);
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  fs.rmSync(file, { force: true });
  if (!report.oursAvailable) throw new Error(`our addon was not measured: ${report.oursMissing}`);
  const r = (res) => res.peer.median / res.ours.median;
  return {
    P1claude: r(report.results.P1.claude),
    P1claudeRead: r(report.results.P1.claudeTriggers),
    P1all: r(report.results.P1.all),
    P4: r(report.results.P4),
  };
}

/** `workload scale-wall` for both P5 workloads: the median growth and the rounds' range. */
function measureScaleWall(o) {
  const out = {};
  for (const k of ['triggers', 'overlays']) {
    const text = run(o.workload, ['scale-wall', k, '5']);
    const m = /growth_median=([\d.]+) growth_min=([\d.]+) growth_max=([\d.]+)/.exec(text);
    if (!m) throw new Error(`scale-wall ${k}: no growth in\n${text}`);
    out[k] = { growth: Number(m[1]), min: Number(m[2]), max: Number(m[3]) };
  }
  return out;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const baseline = fs.existsSync(BASELINE) ? JSON.parse(fs.readFileSync(BASELINE, 'utf8')) : null;
  const failures = [];

  console.log('instruction counts (callgrind)');
  const counts = await measureInstructions(o);
  const growth = {
    overlays: counts['overlays 10000'] / counts['overlays 1000'],
    triggers: counts['triggers 10000'] / counts['triggers 1000'],
  };
  const p6 = counts['plan claude x 2 scopes, C ABI'] / counts['plan claude x 2 scopes, JSON'];
  console.log(`  P5 growth 1k -> 10k: overlays ${growth.overlays.toFixed(3)}x, triggers ${growth.triggers.toFixed(3)}x (target <= ${TARGETS.P5}x)`);
  console.log(`  P6 C ABI / native JSON path: ${p6.toFixed(3)}x (target <= ${TARGETS.P6}x)`);
  const ceiling = (target) => target * (1 + RATIO_MARGIN);
  for (const [k, g] of Object.entries(growth)) {
    if (g > ceiling(TARGETS.P5)) failures.push(`P5 ${k}: per-item growth ${g.toFixed(3)}x > ${TARGETS.P5}x + ${RATIO_MARGIN * 100}%`);
  }
  if (p6 > ceiling(TARGETS.P6)) failures.push(`P6: C ABI costs ${p6.toFixed(3)}x native > ${TARGETS.P6}x + ${RATIO_MARGIN * 100}%`);
  if (baseline) {
    for (const [name, value] of Object.entries(counts)) {
      const base = baseline.instructions[name];
      if (base === undefined) continue;
      const limit = base * (1 + INSTRUCTION_MARGIN);
      if (value > limit) {
        failures.push(`${name}: ${value} instructions per element > baseline ${base} + ${INSTRUCTION_MARGIN * 100}%`);
      }
    }
  }

  console.log('P5 in wall time (1k and 10k in turn, median of 5 rounds)');
  const wall = measureScaleWall(o);
  for (const [k, w] of Object.entries(wall)) {
    const base = baseline?.wallGrowth?.[k] ?? TARGETS.P5;
    const ceilingWall = Math.max(TARGETS.P5, base) * (1 + WALL_MARGIN);
    const status = w.growth <= TARGETS.P5 ? 'target met' : `target ${TARGETS.P5}x not met`;
    console.log(
      `  ${k.padEnd(9)} ${w.growth.toFixed(3)}x (rounds ${w.min.toFixed(2)}-${w.max.toFixed(2)}; ${status}; ceiling ${ceilingWall.toFixed(2)}x)`,
    );
    if (w.growth > ceilingWall) failures.push(`P5 ${k} in wall time: growth ${w.growth.toFixed(3)}x > ceiling ${ceilingWall.toFixed(2)}x`);
  }

  let memory = null;
  if (o.memory) {
    console.log('heap use (counting allocator)');
    memory = measureMemory(o);
    checkExact(memory, baseline?.memory, o.update, failures);
  }
  let bounded = null;
  if (o.bounded) {
    console.log('peak heap of the big hostile inputs (counting allocator)');
    bounded = measureBounded(o);
    checkExact(bounded, baseline?.bounded, o.update, failures);
  }

  let ratios = null;
  if (o.node) {
    console.log('Node ratios (peer time / our time, quick mode)');
    const runs = Array.from({ length: Math.max(1, o.nodeRuns) }, () => measureNode());
    // Checking keeps the best run (fewer false alarms); updating keeps the worst (a floor).
    const pick = o.update ? Math.min : Math.max;
    ratios = Object.fromEntries(Object.keys(runs[0]).map((k) => [k, pick(...runs.map((r) => r[k]))]));
    if (runs.length > 1) {
      for (const k of Object.keys(ratios)) console.log(`  ${k} over ${runs.length} runs: ${runs.map((r) => r[k].toFixed(3)).join(', ')}`);
    }
    for (const [k, v] of Object.entries(ratios)) {
      if (baseline?.nodeRatios && !(k in baseline.nodeRatios) && !o.update) {
        // A ratio added after the baseline was written: reported, checked once `--update` records it.
        console.log(`  ${k.padEnd(12)} ${v.toFixed(2)}x  (no baseline yet: run --update to guard it)`);
        continue;
      }
      const base = baseline?.nodeRatios?.[k] ?? TARGETS[k];
      const floor = Math.min(TARGETS[k], base) * (1 - NODE_MARGIN);
      const status = v >= TARGETS[k] ? 'target met' : `target ${TARGETS[k]}x not met`;
      console.log(`  ${k.padEnd(12)} ${v.toFixed(2)}x  (${status}; floor ${floor.toFixed(2)}x)`);
      if (v < floor) failures.push(`${k}: peer/ours ${v.toFixed(2)}x below floor ${floor.toFixed(2)}x`);
    }
  }

  if (o.update) {
    const next = {
      note: 'Written by `node benches/guard.mjs --update`; see docs/performance.md (Regression guard).',
      instructions: counts,
      memory: memory ?? baseline?.memory ?? {},
      bounded: bounded ?? baseline?.bounded ?? {},
      nodeRatios: ratios ?? baseline?.nodeRatios ?? {},
      // Updating keeps the worse of the recorded and the measured growth (a ceiling).
      wallGrowth: Object.fromEntries(
        Object.entries(wall).map(([k, w]) => [k, Math.max(w.growth, baseline?.wallGrowth?.[k] ?? 0)]),
      ),
    };
    fs.writeFileSync(BASELINE, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`baseline written to ${path.relative(ROOT, BASELINE)}`);
  }
  if (failures.length > 0) {
    console.error(`bench guard: ${failures.length} regression(s)`);
    for (const f of failures) console.error(`  - ${f}`);
    process.exitCode = 1;
  } else {
    console.log('bench guard: ok');
  }
}

await main();
