#!/usr/bin/env bash
# Runs every quickcheck property of the core at scale: each property with CASES cases
# (default 10 000), release build, one suite after another, and prints per-suite timing.
# CI runs the same properties at their default size through `cargo test`; this run is
# separate because it is slow.
#
#   scripts/properties-at-scale.sh [CASES] [SUITE...]
#
# QUICKCHECK_TESTS sets the cases of every property; QUICKCHECK_MIN_TESTS_PASSED makes
# quickcheck fail a property that ran fewer, so a property that fixes its own count and
# ignores the environment cannot pass silently. RUST_LOG=quickcheck=info makes quickcheck
# print "(Passed N QuickCheck tests.)" per property; the script checks those counts too.
# A failing property prints its (shrunk) input; rerun the suite with the same CASES to
# reproduce.
set -euo pipefail

cases="${1:-10000}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

if [ "$#" -gt 0 ]; then
  suites=("$@")
else
  mapfile -t suites < <(grep -l 'quickcheck' core/tests/*.rs | xargs -n1 basename | sed 's/\.rs$//' | sort)
fi

export QUICKCHECK_TESTS="$cases"
export QUICKCHECK_MAX_TESTS="$cases"
export QUICKCHECK_MIN_TESTS_PASSED="$cases"
export RUST_LOG=quickcheck=info

echo "== build (release): ${suites[*]}" >&2
build_args=()
for suite in "${suites[@]}"; do build_args+=(--test "$suite"); done
cargo test --release --locked -p gsd-core "${build_args[@]}" --no-run >&2

log_dir="$(mktemp -d)"
trap 'rm -rf "$log_dir"' EXIT
status=0
printf '%-24s %10s %8s %10s %10s  %s\n' suite properties cases wall_s cpu_s result
TIMEFORMAT='%R %U %S'
for suite in "${suites[@]}"; do
  log="$log_dir/$suite.log"
  if { time cargo test --release --locked -p gsd-core --test "$suite" -- --nocapture --test-threads=1 >"$log" 2>&1; } 2>"$log.time"; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  read -r wall user sys <"$log.time"
  # Every property must report exactly CASES passed cases.
  mapfile -t passed < <(grep -o 'Passed [0-9]* QuickCheck tests' "$log" | awk '{print $2}')
  declared=$(grep -cE '#\[quickcheck\]|QuickCheck::new\(\)' "core/tests/$suite.rs" || true)
  if [ "$result" = ok ] && [ "${#passed[@]}" -ne "$declared" ]; then
    result="FAILED (${#passed[@]} of $declared properties reported their cases)"
    status=1
  fi
  for n in "${passed[@]}"; do
    if [ "$n" -ne "$cases" ]; then result="FAILED (a property ran $n cases)"; status=1; fi
  done
  printf '%-24s %10s %8s %10.1f %10.1f  %s\n' "$suite" "$declared" "$cases" "$wall" "$(echo "$user + $sys" | bc)" "$result"
  if [ "$result" != ok ]; then tail -n 60 "$log" >&2; fi
done
exit "$status"
