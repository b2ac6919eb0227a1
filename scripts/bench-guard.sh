#!/usr/bin/env bash
# CI regression guard for performance (see benches/guard.mjs and docs/performance.md,
# "Regression guard"). Expects scripts/setup.sh to have run (release build of the C
# library and the Node addon in npm/). Builds the callgrind workload (bench profile) and
# the C plan bench, then checks instruction counts, P5/P6 ratios and the Node ratios.
#
#   bash scripts/bench-guard.sh [--update]    # --update rewrites benches/guard-baseline.json
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=target/bench-guard
mkdir -p "$OUT"
WORKLOAD=$(cargo bench --locked -p gsd-core --bench workload --no-run 2>&1 |
  sed -n 's/.*Executable .*(\(.*workload-[0-9a-f]*\)).*/\1/p' | tail -1)
[ -x "$WORKLOAD" ] || { echo "bench-guard: workload binary not found" >&2; exit 1; }
for scope in global local; do
  "$WORKLOAD" print-request claude "$scope" >"$OUT/req-claude-$scope.json"
done
CLIB=$(pwd)/target/release
gcc -O2 -std=c11 -Wall -Wextra -Werror -Ibindings/c/include benches/c/plan_bench.c \
  -L"$CLIB" -lgsd_core_c -Wl,-rpath,"$CLIB" -o "$OUT/plan_bench"
node benches/guard.mjs --workload "$WORKLOAD" --plan-bench "$OUT/plan_bench" \
  --requests "$OUT" --node "$@"
