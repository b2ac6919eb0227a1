#!/usr/bin/env bash
# Builds and runs the C and Python binding tests. Assumes `cargo build --workspace --release`
# already ran (scripts/setup.sh does it).
#
# C: tests/c/test_*.c and the example program of docs/c-api.md, compiled with
#    -std=c11 -Wall -Wextra -Wpedantic -Werror, run
#    * against a debug library built with the `test-panic` feature: plain, under
#      ASan+UBSan, and under valgrind (--leak-check=full --errors-for-leak-kinds=all);
#    * against the release library (as shipped): plain, and the example linked statically;
#    * a negative control: a build that skips one free must fail both leak checkers.
#    test_hostile runs the hostile-corpus subset written by tests/c/hostile_subset.py;
#    test_overlay_dir builds real overlay trees (symlinks, FIFOs) in a temporary directory.
#    The C part closes with a plain "N passed, M failed" line (N sums the checks of every
#    run, counting each program without its own count, like the example, as one).
# Python: uniffi-bindgen generates the module offline from the release library, then
#    python3 -m unittest runs bindings/uniffi/tests/bindings/test_*.py (test_hostile.py: the
#    same hostile subset through Python), and the example of
#    docs/uniffi.md runs; check_panic.py runs against a debug build with the `test-panic`
#    feature (a panic must arrive as InternalError).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export RUST_BACKTRACE=0 # the panic test panics on purpose; keep its report to one line

t_start=$(date +%s)
elapsed() { echo "$(($(date +%s) - $1))s"; }

OUT=$ROOT/target/ctest
mkdir -p "$OUT"
passed=0
failed=0

# The example program is the ```c block under "## Complete example" in docs/c-api.md.
example=$OUT/src/example_c_api.c
mkdir -p "$OUT/src"
awk '/^## Complete example/ {s=1} s && /^```c$/ {f=1; next} f && /^```$/ {exit} f' docs/c-api.md >"$example"
[ -s "$example" ] || { echo "docs/c-api.md: no example found under '## Complete example'" >&2; exit 1; }

# run LABEL CMD...: runs one test program; counts its "N passed, M failed" line, or one
# check for a program that prints none (the example).
run() {
    local label=$1 log
    shift
    log=$(mktemp)
    if "$@" >"$log" 2>&1; then
        local line
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
        if [ -n "$line" ]; then
            passed=$((passed + ${line%% passed*}))
        else
            passed=$((passed + 1))
        fi
        echo "ok   $label ${line:+($line)}"
    else
        local line
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
        failed=$((failed + 1))
        echo "FAIL $label ${line:+($line)}"
        sed 's/^/    /' "$log"
    fi
    rm -f "$log"
}

# expect_leak LABEL CMD...: the command must fail and report a leak.
expect_leak() {
    local label=$1 log
    shift
    log=$(mktemp)
    if ! "$@" >"$log" 2>&1 && grep -qE 'are definitely lost|definitely lost: [1-9]|detected memory leaks' "$log"; then
        passed=$((passed + 1))
        echo "ok   $label (leak detected as expected)"
    else
        failed=$((failed + 1))
        echo "FAIL $label (a deliberate leak went unnoticed)"
        sed 's/^/    /' "$log"
    fi
    rm -f "$log"
}

VALGRIND=(valgrind -q --num-callers=64 --suppressions="$ROOT/tests/c/valgrind.supp"
    --leak-check=full --errors-for-leak-kinds=all --error-exitcode=1)

echo "== C: library with the test-panic entry point (debug)"
t=$(date +%s)
cargo build --locked -p gsd-core-c --features test-panic
echo "   built in $(elapsed "$t")"
t=$(date +%s)
make -s -C tests/c LIBDIR="$ROOT/target/debug" OUT="$OUT/debug" DEFINES="-DGSD_TEST_PANIC -DGSD_DEBUG_LIBRARY" \
    EXTRA_SOURCES="$example"
make -s -C tests/c LIBDIR="$ROOT/target/debug" OUT="$OUT/leak" DEFINES=-DGSD_LEAK_ON_PURPOSE
make -s -C tests/c LIBDIR="$ROOT/target/release" OUT="$OUT/release" EXTRA_SOURCES="$example"
make -s -C tests/c LIBDIR="$ROOT/target/release" OUT="$OUT/leak-release" DEFINES=-DGSD_LEAK_ON_PURPOSE
mkdir -p "$OUT/static"
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -I"$ROOT/bindings/c/include" "$example" \
    "$ROOT/target/release/libgsd_core_c.a" -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc \
    -o "$OUT/static/example_c_api"
echo "   C programs compiled in $(elapsed "$t")"

# The hostile subset of test_hostile (tests/c/hostile_subset.py picks and builds it): the
# whole subset in the plain runs; without the big generated inputs (9 MiB manifests,
# 800 000 keys) under the sanitizers and valgrind, where they would take many minutes.
hostile_all=$OUT/hostile_cases.bin
hostile_small=$OUT/hostile_cases_small.bin
python3 tests/c/hostile_subset.py "$hostile_all"
python3 tests/c/hostile_subset.py "$hostile_small" --small

t=$(date +%s)
for bin in "$OUT"/debug/plain/*; do
    name=$(basename "$bin")
    GSD_HOSTILE_CASES=$hostile_all run "debug/plain/$name" "$bin"
    GSD_HOSTILE_CASES=$hostile_small run "debug/asan+ubsan/$name" "$OUT/debug/asan/$name"
    GSD_HOSTILE_CASES=$hostile_small run "debug/valgrind/$name" "${VALGRIND[@]}" "$bin"
done
for bin in "$OUT"/release/plain/*; do
    GSD_HOSTILE_CASES=$hostile_all run "release/plain/$(basename "$bin")" "$bin"
done
run "release/static/example_c_api" "$OUT/static/example_c_api"
# What a C host runs: the stripped release library under valgrind's defaults for errors
# (definite and possible leaks), with the suppressions shipped for it; a deliberate leak
# still fails.
RELEASE_VALGRIND=(valgrind -q --leak-check=full --error-exitcode=1
    --suppressions="$ROOT/bindings/c/gsd_core.supp")
for name in test_registry test_plans example_c_api; do
    run "release/valgrind/$name" "${RELEASE_VALGRIND[@]}" "$OUT/release/plain/$name"
done
expect_leak "negative control: valgrind, release library" "${RELEASE_VALGRIND[@]}" "$OUT/leak-release/plain/test_registry"
expect_leak "negative control: valgrind" "${VALGRIND[@]}" "$OUT/leak/plain/test_registry"
expect_leak "negative control: asan" "$OUT/leak/asan/test_registry"
echo "   C programs ran in $(elapsed "$t")"
echo "== C suite result"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

echo "== Python (uniffi)"
t=$(date +%s)
bindgen=$ROOT/bindings/uniffi/bindgen/target/debug/uniffi-bindgen
# Built every time (a no-op when current): the module it writes carries its epilogue.
cargo build --locked --manifest-path bindings/uniffi/bindgen/Cargo.toml
py_out=$ROOT/target/uniffi-py
rm -rf "$py_out"
CARGO_NET_OFFLINE=true "$bindgen" generate --language python --out-dir "$py_out" \
    "$ROOT/target/release/libgsd_core_uniffi.so"
cp "$ROOT/target/release/libgsd_core_uniffi.so" "$py_out/"
GSD_PY_OUT=$py_out python3 -m unittest discover -s bindings/uniffi/tests/bindings -p 'test_*.py' -v
# The example of docs/uniffi.md runs as written.
awk '/^## Example/ {s=1} s && /^```python$/ {f=1; next} f && /^```$/ {exit} f' docs/uniffi.md >"$py_out/example_uniffi.py"
[ -s "$py_out/example_uniffi.py" ] || { echo "docs/uniffi.md: no example found under '## Example'" >&2; exit 1; }
PYTHONPATH=$py_out python3 "$py_out/example_uniffi.py"
# A panic inside the library is uniffi's InternalError: needs the test-panic build (debug).
cargo build --locked -p gsd-core-uniffi --features test-panic
py_panic=$ROOT/target/uniffi-py-panic
rm -rf "$py_panic"
CARGO_NET_OFFLINE=true "$bindgen" generate --language python --out-dir "$py_panic" \
    "$ROOT/target/debug/libgsd_core_uniffi.so" >/dev/null
cp "$ROOT/target/debug/libgsd_core_uniffi.so" "$py_panic/"
GSD_PY_OUT=$py_panic python3 -m unittest discover -s bindings/uniffi/tests/bindings -p 'check_panic.py' -v
echo "   Python generated and tested in $(elapsed "$t")"

echo "== Kotlin and Swift (generation smoke check; no compiler on this machine)"
t=$(date +%s)
for lang in kotlin swift; do
    rm -rf "$ROOT/target/uniffi-$lang"
    CARGO_NET_OFFLINE=true "$bindgen" generate --no-format --language "$lang" \
        --out-dir "$ROOT/target/uniffi-$lang" "$ROOT/target/release/libgsd_core_uniffi.so"
done
kt=$(find "$ROOT/target/uniffi-kotlin" -name '*.kt' | head -n 1)
swift=$ROOT/target/uniffi-swift/gsd_core_uniffi.swift
# The generated sources must carry the public surface: the Registry object, the error
# type and the plan entry points.
for pattern in 'open class Registry' 'sealed class GsdException' 'fun `resolveInstallPlan`' \
    'fun `resolveInstallPlans`' 'data class PlanSet'; do
    grep -qF "$pattern" "$kt" || { echo "Kotlin bindings lack: $pattern" >&2; exit 1; }
done
for pattern in 'open class Registry' 'enum GsdError' 'func resolveInstallPlan' \
    'func resolveInstallPlans' 'struct PlanSet'; do
    grep -qF "$pattern" "$swift" || { echo "Swift bindings lack: $pattern" >&2; exit 1; }
done
echo "   Kotlin and Swift generated in $(elapsed "$t")"

echo "test-bindings: done in $(elapsed "$t_start")"
