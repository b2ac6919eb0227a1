#!/usr/bin/env bash
# Tests the Node package. Assumes `cargo build --workspace --release` already ran.
# 1. regenerates npm/binding.js + npm/binding.d.ts with napi and fails if they changed
#    (they are committed); napi builds into its own target dir so the workspace build
#    cache is not disturbed;
# 2. installs the workspace release addon as npm/gsd-core.linux-x64-gnu.node;
# 3. runs `node --test`, type-checks index.d.ts, and smoke-runs the CLI.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/npm"

echo "== napi: regenerate binding.js / binding.d.ts"
npx --no-install napi build --platform --release \
  --manifest-path ../bindings/node/Cargo.toml --target-dir "$root/target/napi" \
  --output-dir . --js binding.js --dts binding.d.ts
git diff --exit-code -- binding.js binding.d.ts

echo "== addon from the workspace release build"
cp "$root/target/release/libgsd_core_node.so" gsd-core.linux-x64-gnu.node

echo "== node --test"
node --test

echo "== tsc --noEmit (index.d.ts)"
npx --no-install tsc --noEmit -p .

echo "== CLI smoke run"
smoke_home="$(mktemp -d)"
trap 'rm -rf "$smoke_home"' EXIT
HOME="$smoke_home" NO_COLOR=1 node bin/gsd-core.js runtimes >/dev/null
set +e
HOME="$smoke_home" node bin/gsd-core.js --no-such-flag >/dev/null 2>&1
status=$?
set -e
if [ "$status" -ne 2 ]; then
  echo "CLI smoke: expected exit 2 for an unknown flag, got $status" >&2
  exit 1
fi
echo "test-node: all passed"
