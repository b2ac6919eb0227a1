#!/usr/bin/env bash
# Fuzz smoke: builds every libFuzzer target of core/fuzz and runs each for N seconds
# (default 10), one after another. Installs cargo-fuzz when it is missing.
#
#   scripts/fuzz-smoke.sh [SECONDS] [TARGET...]
#
# Recipe on a stable toolchain (rustc 1.95, no nightly): `cargo install cargo-fuzz --locked`,
# then `cargo fuzz build/run --sanitizer none`. Without a sanitizer cargo-fuzz passes only
# stable codegen flags (-Cpasses=sancov-module, -Cllvm-args=..., --cfg fuzzing), so stable
# rustc builds it as is. The core has no unsafe code: the findings we look for are panics,
# failed invariants, timeouts and memory blow-ups, and AddressSanitizer would only cost
# speed. FUZZ_SANITIZER=address turns it back on; that passes -Zsanitizer=address, which
# stable rustc accepts only with RUSTC_BOOTSTRAP=1 (exported below for that case).
#
# The corpus lives in core/fuzz/corpus/<target>/ (not committed); the manifest targets are
# seeded from capabilities/*/capability.json. Crashes land in core/fuzz/artifacts/<target>/;
# the script exits non-zero when any target fails.
set -euo pipefail

seconds="${1:-10}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
fuzz_dir="$root/core/fuzz"
sanitizer="${FUZZ_SANITIZER:-none}"
all_targets=(manifest_validate registry_overlay plan_resolve install_manifest shadow_render)
targets=("${@:-${all_targets[@]}}")
if [ "$#" -eq 0 ]; then targets=("${all_targets[@]}"); fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
cd "$fuzz_dir"

for seed_target in manifest_validate registry_overlay; do
  mkdir -p "corpus/$seed_target"
done
for manifest in "$root"/capabilities/*/capability.json; do
  cp -n "$manifest" "corpus/manifest_validate/$(basename "$(dirname "$manifest")").json" 2>/dev/null || true
done

cargo fuzz build --sanitizer "$sanitizer" >&2

status=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target" "artifacts/$target"
  echo "== $target: ${seconds}s" >&2
  # registry_overlay runs under 100 inputs a second: libFuzzer's slow length ramp would keep
  # its inputs a few bytes long for the whole run, so it starts at its full length.
  length=(-max_len=65536)
  if [ "$target" = registry_overlay ]; then length=(-max_len=4096 -len_control=0); fi
  if ! cargo fuzz run --sanitizer "$sanitizer" "$target" "corpus/$target" -- \
      -max_total_time="$seconds" "${length[@]}" -rss_limit_mb=4096 -timeout=20 \
      -print_final_stats=1 2> "artifacts/$target/last-run.log"; then
    echo "!! $target failed; see core/fuzz/artifacts/$target/" >&2
    tail -n 40 "artifacts/$target/last-run.log" >&2
    status=1
  fi
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )' "artifacts/$target/last-run.log" >&2 || true
  echo "   corpus: $(find "corpus/$target" -type f | wc -l) files" >&2
done
exit "$status"
