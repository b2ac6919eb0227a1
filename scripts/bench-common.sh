# Shared by scripts/bench.sh and scripts/bench-guard.sh (sourced, not run).

# Builds the callgrind workload (bench profile) and prints the path of its binary.
workload_binary() {
  cargo bench --locked -p gsd-core --bench workload --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*workload-[0-9a-f]*\)).*/\1/p' | tail -1
}

# Builds the heap-use bench (bench profile) and prints the path of its binary.
memory_binary() {
  cargo bench --locked -p gsd-core --bench memory --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*memory-[0-9a-f]*\)).*/\1/p' | tail -1
}

# Builds the hostile-input cost bench (bench profile) and prints the path of its binary.
bounded_binary() {
  cargo bench --locked -p gsd-core --bench bounded --no-run 2>&1 |
    sed -n 's/.*Executable .*(\(.*bounded-[0-9a-f]*\)).*/\1/p' | tail -1
}

# build_plan_bench WORKLOAD OUT CLIB: writes the claude plan requests of both scopes to
# OUT/req-claude-<scope>.json and compiles benches/c/plan_bench.c against CLIB/libgsd_core_c
# into OUT/plan_bench.
build_plan_bench() {
  local workload="$1" out="$2" clib="$3" scope
  for scope in global local; do
    "$workload" print-request claude "$scope" >"$out/req-claude-$scope.json"
  done
  gcc -O2 -std=c11 -Wall -Wextra -Werror -Ibindings/c/include benches/c/plan_bench.c \
    -L"$clib" -lgsd_core_c -Wl,-rpath,"$clib" -o "$out/plan_bench"
}
