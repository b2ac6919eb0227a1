//! Install-manifest text → `read_install_manifest`, and the same text as the facts of a
//! claude config home → `resolve_installed_surfaces` and `build_shadow_report`.
//!
//! Invariants: no panic; unusable text reads as not installed with exactly one diagnostic;
//! a reported runtime is at most 64 UTF-16 units plus `…`; rendered lines carry no C0/C1;
//! a config home whose facts say a link or an unreadable manifest is never installed.
#![no_main]

use gsd_core::install_manifest::{MAX_REPORTED_RUNTIME_LENGTH, read_install_manifest};
use gsd_core::{
    ConfigHomeFacts, Host, Registry, SurfaceFacts, build_shadow_report, render_shadow_report,
    resolve_installed_surfaces,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (flags, rest) = data.split_first().unwrap_or((&0, &[]));
    let text = String::from_utf8_lossy(rest);
    let read = read_install_manifest(Some(&text));
    if !read.diagnostics.is_empty() {
        assert!(!read.manifest.is_installed());
        assert_eq!(read.diagnostics.len(), 1);
    }
    if let Some(runtime) = &read.manifest.runtime {
        assert!(runtime.encode_utf16().count() <= MAX_REPORTED_RUNTIME_LENGTH + 1);
    }
    let host = Host::new("/home/u", "/work/p");
    let mut facts = SurfaceFacts::default();
    let home = if flags & 1 == 0 {
        "/home/u/.claude"
    } else {
        "/work/p/.claude"
    };
    facts.homes.insert(
        home.to_owned(),
        ConfigHomeFacts {
            config_home_is_symlink: flags & 2 != 0,
            manifest_is_symlink: flags & 4 != 0,
            manifest: Some(text.into_owned()),
            manifest_unreadable: (flags & 8 != 0).then(|| "a FIFO, not a regular file".to_owned()),
        },
    );
    let registry = Registry::first_party();
    let surfaces = resolve_installed_surfaces(registry, Some("claude"), &host, &facts)
        .expect("claude always resolves");
    // A link (config home or manifest) or a manifest the edge could not read: not installed.
    if flags & 14 != 0 {
        assert!(
            surfaces.surfaces[0]
                .scopes
                .iter()
                .all(|s| !s.installed || s.config_home != home)
        );
    }
    let report = build_shadow_report(registry, "claude", &host, &facts).expect("claude resolves");
    for line in render_shadow_report(&report, 5) {
        assert!(
            !line
                .chars()
                .any(|c| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}')),
            "{line:?}"
        );
    }
});
