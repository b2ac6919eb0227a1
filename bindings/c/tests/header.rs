//! The committed header is what cbindgen produces now, and it spells the error table the
//! way the core does: every `ErrorCode` appears as `GSD_STATUS_<CODE> = <status>`.
//!
//! build.rs rewrites `include/gsd_core.h` on every build, so comparing a fresh run with the
//! file on disk only proves build.rs and this test agree; the header *in git's HEAD* is
//! what ships, so it is compared too (a source change without its header fails here).

use std::path::Path;

use gsd_core::ErrorCode;

include!("../header_version.rs");

fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn committed_header() -> String {
    std::fs::read_to_string(crate_dir().join("include/gsd_core.h"))
        .expect("include/gsd_core.h is committed")
}

fn fresh_header() -> String {
    let mut config = cbindgen::Config::from_file(crate_dir().join("cbindgen.toml"))
        .expect("cbindgen.toml parses");
    config.after_includes = Some(version_macros(
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
        env!("CARGO_PKG_VERSION_PATCH"),
    ));
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir())
        .with_config(config)
        .generate()
        .expect("cbindgen parses the crate");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    String::from_utf8(fresh).expect("cbindgen writes UTF-8")
}

#[test]
fn header_on_disk_equals_a_fresh_cbindgen_run() {
    assert!(
        fresh_header() == committed_header(),
        "bindings/c/include/gsd_core.h differs from a fresh cbindgen run"
    );
}

#[test]
fn header_in_git_head_equals_a_fresh_cbindgen_run() {
    let output = std::process::Command::new("git")
        .args(["show", "HEAD:./include/gsd_core.h"])
        .current_dir(crate_dir())
        .output()
        .expect("git runs (the header check reads the committed header from HEAD)");
    assert!(
        output.status.success(),
        "git show failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let in_head = String::from_utf8(output.stdout).expect("the header is UTF-8");
    assert!(
        fresh_header() == in_head,
        "the committed bindings/c/include/gsd_core.h is stale: build gsd-core-c and commit the header"
    );
}

/// `(name, number)` of every `GSD_STATUS_*` enumerator in the header, in order.
fn header_statuses(header: &str) -> Vec<(String, u32)> {
    header
        .lines()
        .filter_map(|line| {
            let (name, value) = line.trim().strip_suffix(',')?.split_once(" = ")?;
            let name = name.strip_prefix("GSD_STATUS_")?;
            Some((name.to_owned(), value.parse().ok()?))
        })
        .collect()
}

#[test]
fn every_error_code_has_its_name_and_number_in_the_header() {
    let statuses = header_statuses(&committed_header());
    assert_eq!(statuses.first(), Some(&("OK".to_owned(), 0)));
    for code in ErrorCode::ALL {
        assert!(
            statuses.contains(&(code.as_str().to_owned(), code.status())),
            "GSD_STATUS_{} = {} is missing from the header",
            code.as_str(),
            code.status()
        );
    }
    assert_eq!(
        statuses.len(),
        ErrorCode::ALL.len() + 1,
        "the header has a status the core does not: {statuses:?}"
    );
}
