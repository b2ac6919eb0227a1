#!/usr/bin/env bash
# CI fuzz smoke: on a fresh machine with stable Rust, installs the pinned cargo-fuzz when
# it is missing, builds every libFuzzer target of core/fuzz without a sanitizer, runs each
# for SECONDS (default 20) and fails when any target finds a crash, a failed invariant, a
# timeout or an out-of-memory. Prints the time of each step and the total.
#
#   scripts/ci-fuzz-smoke.sh [SECONDS]
#
# Stable toolchain only: with `--sanitizer none` cargo-fuzz passes only stable codegen
# flags (-Cpasses=sancov-module, -Cllvm-args=..., --cfg fuzzing). The corpus starts from
# the shipped manifests and from what earlier runs kept in core/fuzz/corpus (not
# committed); crash inputs land in core/fuzz/artifacts/<target>/ (a CI job should keep
# that folder as an artifact).
set -euo pipefail

CARGO_FUZZ_VERSION=0.13.2
seconds="${1:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz_dir="$root/core/fuzz"
targets=(manifest_validate registry_overlay plan_resolve install_manifest shadow_render)

now() { date +%s; }
started=$(now)

if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION" >&2
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

# Every target in core/fuzz/Cargo.toml must be in the list above (a new target is run).
declared=$(sed -n 's/^name = "\([a-z_]*\)"$/\1/p' "$fuzz_dir/Cargo.toml" | grep -v '^gsd-core-fuzz$' | sort | tr '\n' ' ')
listed=$(printf '%s\n' "${targets[@]}" | sort | tr '\n' ' ')
if [ "$declared" != "$listed" ]; then
  echo "fuzz targets in core/fuzz/Cargo.toml ($declared) differ from this script's list ($listed)" >&2
  exit 1
fi

cd "$fuzz_dir"
mkdir -p corpus/manifest_validate
for manifest in "$root"/capabilities/*/capability.json; do
  cp -n "$manifest" "corpus/manifest_validate/$(basename "$(dirname "$manifest")").json" 2>/dev/null || true
done

echo "== build (sanitizer none)" >&2
build_started=$(now)
cargo fuzz build --sanitizer none >&2
echo "   build: $(( $(now) - build_started )) s" >&2

status=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "artifacts/$target"
  length=(-max_len=65536)
  # registry_overlay runs under 200 inputs a second: start at its full length.
  if [ "$target" = registry_overlay ]; then length=(-max_len=4096 -len_control=0); fi
  target_started=$(now)
  if cargo fuzz run --sanitizer none "$target" "corpus/$target" -- \
      -max_total_time="$seconds" "${length[@]}" -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 2> "artifacts/$target/ci-smoke.log"; then
    result=ok
  else
    result=FAILED
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "artifacts/$target/ci-smoke.log" | tail -1)
  echo "   $target: $result, ${runs:-?} inputs, $(( $(now) - target_started )) s" >&2
  if [ "$result" != ok ]; then
    tail -n 40 "artifacts/$target/ci-smoke.log" >&2
    ls "artifacts/$target" >&2
  fi
done
echo "== fuzz smoke total: $(( $(now) - started )) s" >&2
exit "$status"
