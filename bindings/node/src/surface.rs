//! The machine facts the installed-surface resolver asks for, read from disk: for each
//! config home the core lists, whether it and its manifest are symbolic links, and the
//! manifest text (read at most one byte past the core's bound).

use std::fs;
use std::io::{ErrorKind, Read};

use gsd_core::install_manifest::MAX_MANIFEST_BYTES;
use gsd_core::{ConfigHomeFacts, HomeProbe, Registry as CoreRegistry, SurfaceFacts};
use napi::Env;
use serde_json::Value;

use crate::convert;
use crate::error::JsCode;

fn is_symlink(path: &str) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// What a path that is not a regular file is, as a reason not to read it.
fn not_a_file(kind: fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO, not a regular file";
        }
        if kind.is_socket() {
            return "a socket, not a regular file";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device, not a regular file";
        }
    }
    if kind.is_dir() {
        "a directory, not a regular file"
    } else {
        "not a regular file"
    }
}

/// The manifest at `path` (never through a symbolic link): `Ok(Some(text))` for a regular
/// file, read at most one byte past the core's bound; `Ok(None)` when nothing is there;
/// `Err(why)` when something is there that was not read (it is never opened unless it is a
/// regular file, so a FIFO cannot block the call).
fn read_bounded(path: &str) -> Result<Option<String>, String> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        // Nothing there, or the config home is not a folder: no manifest.
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(None);
        }
        Err(e) => return Err(e.to_string()),
    };
    if !meta.file_type().is_file() {
        return Err(not_a_file(meta.file_type()).to_owned());
    }
    let file = fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_MANIFEST_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Reads the facts of every probe, keyed by config home.
pub fn read_facts(probes: &[HomeProbe]) -> SurfaceFacts {
    let mut facts = SurfaceFacts::default();
    for probe in probes {
        let manifest_is_symlink = is_symlink(&probe.manifest_path);
        let read = if manifest_is_symlink {
            Ok(None)
        } else {
            read_bounded(&probe.manifest_path)
        };
        let (manifest, manifest_unreadable) = match read {
            Ok(text) => (text, None),
            Err(why) => (None, Some(why)),
        };
        let home = ConfigHomeFacts {
            config_home_is_symlink: is_symlink(&probe.config_home),
            manifest_is_symlink,
            manifest,
            manifest_unreadable,
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
