//! Regenerates `include/gsd_core.h` from this crate's source with cbindgen.
//!
//! The header is committed; the file is rewritten only when its content changes, so a
//! clean tree stays clean and CI can check it with `git diff --exit-code`.

use std::path::PathBuf;

fn main() {
    let crate_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is valid");
    config.after_includes = Some(version_macros());
    let bindings = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen can parse the crate");
    let mut text = Vec::new();
    bindings.write(&mut text);
    let header = crate_dir.join("include").join("gsd_core.h");
    if std::fs::read(&header).ok().as_deref() != Some(text.as_slice()) {
        std::fs::create_dir_all(crate_dir.join("include")).expect("create include/");
        std::fs::write(&header, text).expect("write include/gsd_core.h");
    }
}

/// The version this header describes, as macros a program can test at compile time and
/// compare with `gsd_version()` at run time (the library it loaded).
fn version_macros() -> String {
    let part = |name: &str| std::env::var(name).expect("cargo sets the package version");
    let (major, minor, patch) = (
        part("CARGO_PKG_VERSION_MAJOR"),
        part("CARGO_PKG_VERSION_MINOR"),
        part("CARGO_PKG_VERSION_PATCH"),
    );
    format!(
        "
/*
 * The version of this header. gsd_version() gives the version of the library loaded; a
 * program can refuse to run when the two differ:
 *     if (strcmp(gsd_version(), GSD_CORE_VERSION) != 0) ...
 * Before 1.0 any minor version may change the ABI.
 */
#define GSD_CORE_VERSION \"{}\"
#define GSD_CORE_VERSION_MAJOR {major}
#define GSD_CORE_VERSION_MINOR {minor}
#define GSD_CORE_VERSION_PATCH {patch}",
        part("CARGO_PKG_VERSION")
    )
}
