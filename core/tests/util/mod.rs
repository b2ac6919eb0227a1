//! Shared helpers for integration tests: asking the live peer (`@opengsd/gsd-core@1.14.0`,
//! installed by `scripts/setup.sh` into `npm/node_modules`) for its answer.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Root of the repository.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The peer package directory (`GSD_PEER_DIR` overrides the default under `npm/node_modules`).
/// Panics with a clear instruction when the peer is not installed: parity tests must not
/// pass vacuously.
pub fn peer_dir() -> PathBuf {
    let dir = std::env::var_os("GSD_PEER_DIR").map_or_else(
        || repo_root().join("npm/node_modules/@opengsd/gsd-core"),
        PathBuf::from,
    );
    assert!(
        dir.join("gsd-core/bin/lib/capability-validator.cjs")
            .is_file(),
        "the peer @opengsd/gsd-core@1.14.0 is not installed at {}; run `bash scripts/setup.sh` (or `cd npm && npm ci --ignore-scripts --omit=optional`)",
        dir.display()
    );
    dir
}

/// Runs `node core/tests/peer/<script>` with `input` as JSON on stdin and returns its
/// stdout parsed as JSON. The script finds the peer's modules through the `GSD_PEER_LIB`
/// environment variable (`<peer>/gsd-core/bin/lib`).
#[track_caller]
pub fn peer_eval(script: &str, input: &serde_json::Value) -> serde_json::Value {
    let peer = peer_dir();
    let script_path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peer")
        .join(script);
    let mut child = Command::new("node")
        .arg(&script_path)
        .env("GSD_PEER_LIB", peer.join("gsd-core/bin/lib"))
        .env("GSD_PEER_DIR", &peer)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn node");
    let body = serde_json::to_vec(input).expect("serialize input");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&body)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait for node");
    assert!(
        out.status.success(),
        "peer script {script} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "peer script {script} printed invalid JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// The request's stems as a checked inventory (what `decide_install_plan` plans over).
pub fn inventory_of(
    request: &gsd_core::PlanRequest,
) -> Result<gsd_core::Inventory, gsd_core::Error> {
    gsd_core::Inventory::new(
        request.commands.clone(),
        request.agents.clone(),
        request.router_stems.clone(),
        request.child_to_routers.clone(),
    )
}

/// A character that prints as nothing or reorders the text around it: Unicode's
/// `Default_Ignorable_Code_Point` set (its bidi members included), the interlinear
/// annotation controls U+FFF9–FFFB and the separators U+2028/2029. Spelled out here, apart
/// from the core's own predicate, so that the two check each other.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}'
            | '\u{34F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}
