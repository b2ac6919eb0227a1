//! The machine facts the installed-surface resolver asks for, read from disk: for each
//! config home the core lists, whether it and its manifest are symbolic links, and the
//! manifest text (read at most one byte past the core's bound).

use std::fs;
use std::io::Read;

use gsd_core::install_manifest::MAX_MANIFEST_BYTES;
use gsd_core::{ConfigHomeFacts, HomeProbe, Registry as CoreRegistry, SurfaceFacts};
use napi::Env;
use serde_json::Value;

use crate::convert;
use crate::error::JsCode;

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

/// Host and facts for the installed-surface resolver: given data is used as is; otherwise
/// the real machine, probing the global config-home candidates of the runtimes covered and
/// reading the config homes the core lists.
pub fn inputs(
    env: Env,
    registry: &CoreRegistry,
    runtime: Option<&str>,
    host: Option<Value>,
    facts: Option<Value>,
) -> napi::Result<(gsd_core::Host, gsd_core::SurfaceFacts), JsCode> {
    let host = convert::host(env, host, |h| {
        let ids: Vec<&str> =
            runtime.map_or_else(|| registry.runtime_ids().collect(), |id| vec![id]);
        let mut paths = Vec::new();
        for id in ids {
            paths.extend(gsd_core::scope_probe_paths(
                registry,
                id,
                gsd_core::Scope::Global,
                h,
                None,
            )?);
        }
        Ok(paths)
    })?;
    let facts = match facts {
        Some(value) => convert::from_value(env, "facts", value)?,
        // When the config homes cannot be listed (unknown runtime, no config home) nothing is
        // read; the resolver reports that case itself.
        None => gsd_core::probe_requests(registry, runtime, &host)
            .map(|probes| read_facts(&probes))
            .unwrap_or_default(),
    };
    Ok((host, facts))
}
