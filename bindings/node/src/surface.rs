//! The machine facts the installed-surface resolver asks for, read from disk: for each
//! config home the core lists, whether it and its manifest are symbolic links, and the
//! manifest text (read at most one byte past the core's bound).

use std::fs;
use std::io::Read;

use gsd_core::install_manifest::MAX_MANIFEST_BYTES;
use gsd_core::{ConfigHomeFacts, HomeProbe, SurfaceFacts};

fn is_symlink(path: &str) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The manifest text when `path` is a regular file (never through a symbolic link).
fn read_bounded(path: &str) -> Option<String> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    let file = fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_MANIFEST_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    file.take(limit).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// Reads the facts of every probe, keyed by config home.
pub fn read_facts(probes: &[HomeProbe]) -> SurfaceFacts {
    let mut facts = SurfaceFacts::default();
    for probe in probes {
        let manifest_is_symlink = is_symlink(&probe.manifest_path);
        let home = ConfigHomeFacts {
            config_home_is_symlink: is_symlink(&probe.config_home),
            manifest_is_symlink,
            manifest: if manifest_is_symlink {
                None
            } else {
                read_bounded(&probe.manifest_path)
            },
        };
        facts.homes.insert(probe.config_home.clone(), home);
    }
    facts
}
