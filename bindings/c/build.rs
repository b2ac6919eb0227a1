//! Regenerates `include/gsd_core.h` from this crate's source with cbindgen.
//!
//! The header is committed; the file is rewritten only when its content changes, so a
//! clean tree stays clean and CI can check it with `git diff --exit-code`.

use std::path::PathBuf;

include!("header_version.rs");

fn main() {
    let crate_dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=header_version.rs");
    let mut config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("cbindgen.toml is valid");
    let part = |name: &str| std::env::var(name).expect("cargo sets the package version");
    config.after_includes = Some(version_macros(
        &part("CARGO_PKG_VERSION"),
        &part("CARGO_PKG_VERSION_MAJOR"),
        &part("CARGO_PKG_VERSION_MINOR"),
        &part("CARGO_PKG_VERSION_PATCH"),
    ));
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
