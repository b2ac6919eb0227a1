#!/usr/bin/env bash
# CI regression guard for performance (see benches/guard.mjs and docs/performance.md,
# "Regression guard"). Expects scripts/setup.sh to have run (release build of the C
# library and the Node addon in npm/). Builds the callgrind workload, the heap-use bench and
# the hostile-input cost bench (bench profile) and the C plan bench, then checks instruction
# counts, P5/P6 ratios, heap use, the peak heap of hostile inputs and the Node ratios.
#
#   bash scripts/bench-guard.sh [--update --node-runs 5]   # --update rewrites benches/guard-baseline.json
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/bench-common.sh
OUT=target/bench-guard
mkdir -p "$OUT"
WORKLOAD=$(workload_binary)
[ -x "$WORKLOAD" ] || { echo "bench-guard: workload binary not found" >&2; exit 1; }
MEMORY=$(memory_binary)
[ -x "$MEMORY" ] || { echo "bench-guard: memory binary not found" >&2; exit 1; }
BOUNDED=$(bounded_binary)
[ -x "$BOUNDED" ] || { echo "bench-guard: bounded binary not found" >&2; exit 1; }
build_plan_bench "$WORKLOAD" "$OUT" "$(pwd)/target/release"
node benches/guard.mjs --workload "$WORKLOAD" --plan-bench "$OUT/plan_bench" \
  --requests "$OUT" --memory "$MEMORY" --bounded "$BOUNDED" --node "$@"
