#!/usr/bin/env bash
# Runs every bench and writes the results under target/bench-results/ (see benches/README.md).
#
#   bash scripts/bench.sh [--quick] [--runs N] [--no-criterion] [--no-callgrind] [--no-node] [--no-c]
#                         [--lib-dir DIR]
#
# --lib-dir DIR: take libgsd_core_node.so and libgsd_core_c.so from DIR (a release build
# made earlier) instead of running `cargo build --release -p gsd-core-node -p gsd-core-c`.
#
# In this order:
# 1. criterion (native Rust): `cargo bench -p gsd-core --bench core`, N times (default 3);
#    each run's medians are collected, then one table gives the median and spread over
#    runs and the per-element growth 1k -> 10k (target <= 1.2x).
# 2. callgrind instruction counts of the same workloads (needs valgrind; stable on a busy
#    machine): count(reps = 2) - count(reps = 1) = one repetition, setup excluded.
# 3. P5 in wall time (`workload scale-wall`): 1k and 10k trigger stems, then overlays, timed
#    in turn in one process (the drift between criterion's two runs is larger than 1.2x).
# 4. heap use of the same workloads (benches/memory.rs, a counting allocator): allocations,
#    bytes kept and peak per element; exactly repeatable.
# 5. the Node side-by-side bench against the peer (benches/node-bench.mjs); our addon is
#    built first when the workspace has the Node binding (`cargo build --release -p
#    gsd-core-node` and copying the .so to npm/gsd-core.linux-x64-gnu.node).
# 6. whole plans through the C ABI (benches/c/plan_bench.c against libgsd_core_c) and the
#    native JSON path on the same requests (`workload time-plan-json`), in turn, three
#    times; with callgrind, the C ABI's instruction count is added to step 2's table.
# 7. the table of targets P1-P6 (benches/targets.mjs) from what steps 1-6 wrote, in
#    target/bench-results/targets.md.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=3
QUICK=0
NODE=1
CABI=1
LIBDIR=
CALLGRIND=1
CRITERION=1
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --runs) RUNS="$2"; shift ;;
    --no-node) NODE=0 ;;
    --no-c) CABI=0 ;;
    --lib-dir) LIBDIR="$2"; shift ;;
    --no-callgrind) CALLGRIND=0 ;;
    --no-criterion) CRITERION=0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
  shift
done

OUT=target/bench-results
# Every file in it comes from this run: the targets table reads only what this run measured.
rm -rf "$OUT"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "memory: $(grep MemTotal /proc/meminfo | awk '{printf "%.1f GiB", $2/1048576}')"
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "rustc: $(rustc --version)"
  echo "node: $(node --version)"
} | tee "$OUT/machine.txt"

if [ "$CRITERION" = 1 ]; then
  CRIT_ARGS=()
  if [ "$QUICK" = 1 ]; then CRIT_ARGS=(--quick); fi
  for i in $(seq 1 "$RUNS"); do
    echo "== criterion run $i/$RUNS"
    cargo bench -p gsd-core --bench core -- "${CRIT_ARGS[@]}"
    node benches/summarize.mjs collect target/criterion >"$OUT/criterion-run-$i.json"
  done
  node benches/summarize.mjs report "$OUT"/criterion-run-*.json | tee "$OUT/criterion.md"
fi

. scripts/bench-common.sh
WORKLOAD=$(workload_binary)

if [ "$CALLGRIND" = 1 ]; then
  if command -v valgrind >/dev/null; then
    count() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$WORKLOAD" "$@" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    echo "| workload | instructions per repetition | per element |" | tee "$OUT/callgrind.md"
    echo "|---|---|---|" | tee -a "$OUT/callgrind.md"
    for spec in "validate 46" "plan-claude 2" "plan-claude-json 2" "plan-all 36" \
      "triggers 1000" "triggers 10000" "overlays 1000" "overlays 10000"; do
      set -- $spec
      one=$(count "$1" "$2" 1)
      two=$(count "$1" "$2" 2)
      per=$((two - one))
      echo "| $1 $2 | $per | $((per / $2)) |" | tee -a "$OUT/callgrind.md"
    done
  else
    echo "valgrind not installed: skipping instruction counts"
  fi
fi

echo "== P5 in wall time: 1k and 10k in turn, one process"
SCALE_ROUNDS=11
if [ "$QUICK" = 1 ]; then SCALE_ROUNDS=3; fi
for case in triggers overlays; do
  "$WORKLOAD" scale-wall "$case" "$SCALE_ROUNDS" | tee -a "$OUT/scale-wall.txt"
done

echo "== heap use (counting allocator)"
"$(memory_binary)" | tee "$OUT/memory.md"

if [ "$NODE" = 1 ]; then
  NODE_ARGS=(--json "$OUT/node.json")
  if [ "$QUICK" = 1 ]; then NODE_ARGS+=(--quick); fi
  if [ -n "$LIBDIR" ]; then
    cp "$LIBDIR/libgsd_core_node.so" npm/gsd-core.linux-x64-gnu.node
  elif [ -f npm/index.js ] && grep -q napi bindings/node/Cargo.toml; then
    cargo build --release -p gsd-core-node
    cp target/release/libgsd_core_node.so npm/gsd-core.linux-x64-gnu.node
  fi
  node benches/node-bench.mjs "${NODE_ARGS[@]}" | tee "$OUT/node.txt"
fi

if [ "$CABI" = 1 ]; then
  CLIB="$LIBDIR"
  if [ -z "$CLIB" ]; then
    cargo build --release -p gsd-core-c
    CLIB=target/release
  fi
  CLIB=$(cd "$CLIB" && pwd)
  build_plan_bench "$WORKLOAD" "$OUT" "$CLIB"
  ROUNDS=15
  if [ "$QUICK" = 1 ]; then ROUNDS=5; fi
  # The C ABI and the native JSON path on the same requests, in turn, three times: this
  # machine's speed drifts by more than P6's margin between two runs minutes apart.
  for i in 1 2 3; do
    "$OUT/plan_bench" -r "$ROUNDS" "$OUT/req-claude-global.json" "$OUT/req-claude-local.json" |
      tee -a "$OUT/c-abi.txt"
    "$WORKLOAD" time-plan-json "$ROUNDS" "$OUT/req-claude-global.json" "$OUT/req-claude-local.json" |
      tee -a "$OUT/native-json.txt"
  done
  if command -v valgrind >/dev/null && [ "$CALLGRIND" = 1 ]; then
    cabi_count() {
      valgrind --tool=callgrind --callgrind-out-file=/dev/null "$OUT/plan_bench" -n 1 -r "$1" \
        "$OUT/req-claude-global.json" "$OUT/req-claude-local.json" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    echo "| c-abi plan claude x 2 scopes | $(($(cabi_count 2) - $(cabi_count 1))) | |" |
      tee -a "$OUT/callgrind.md"
  fi
fi

echo "== where each target stands, from this run's results"
node benches/targets.mjs "$OUT" | tee "$OUT/targets.md"
