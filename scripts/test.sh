#!/usr/bin/env bash
# Runs every test: Rust (unit, properties, parity against the pinned peer), generated-file
# checks, C (warnings as errors, sanitizers, valgrind), Node and Python, the performance
# regression guard and a fuzz smoke run. Expects
# scripts/setup.sh to have run.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== rustfmt"
cargo fmt --all -- --check
echo "== clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== rustdoc (warnings as errors, private items included: every intra-doc link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items --locked
echo "== cargo test (debug; includes the parity tests against the peer)"
cargo test --workspace --locked
echo "== release build is current"
cargo build --workspace --release --locked
cp target/release/libgsd_core_node.so npm/gsd-core.linux-x64-gnu.node
echo "== generated files are committed and current"
git diff --exit-code -- bindings/c/include npm/binding.js npm/binding.d.ts
echo "== C and Python bindings"
bash scripts/test-bindings.sh
echo "== Node package"
bash scripts/test-node.sh
echo "== performance regression guard (instruction counts, P5/P6, Node ratio floors)"
bash scripts/bench-guard.sh
echo "== fuzz smoke (every target, 10 s each)"
bash scripts/ci-fuzz-smoke.sh 10
echo "test: all suites passed"
