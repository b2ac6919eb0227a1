#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine (Rust 1.95, Node 20 + npm,
# Python 3.11, gcc and valgrind are expected) and builds every artifact once:
# the Rust workspace in release mode, the Node addon, and the uniffi bindgen tool.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq valgrind; }

cargo fetch --locked
cargo fetch --locked --manifest-path bindings/uniffi/bindgen/Cargo.toml
(cd npm && npm ci --ignore-scripts --omit=optional --no-audit --no-fund)

cargo build --locked --manifest-path bindings/uniffi/bindgen/Cargo.toml
cargo build --workspace --release --locked
cp target/release/libgsd_core_node.so npm/gsd-core.linux-x64-gnu.node
echo "setup: done"
