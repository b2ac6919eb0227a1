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

/// What a file that is not a regular file is, as a reason not to read it.
fn not_a_file(kind: rustix::fs::FileType) -> &'static str {
    use rustix::fs::FileType;
    match kind {
        FileType::Directory => "a directory, not a regular file",
        FileType::Fifo => "a FIFO, not a regular file",
        FileType::Socket => "a socket, not a regular file",
        FileType::BlockDevice | FileType::CharacterDevice => "a device, not a regular file",
        FileType::Symlink => "a symbolic link, not a regular file",
        _ => "not a regular file",
    }
}

/// The manifest at `path`: `Ok(Some(text))` for a regular file, read at most one byte past
/// the core's bound; `Ok(None)` when nothing is there; `Err(why)` when it could not be read.
/// It is opened without following a link and without blocking (`O_NOFOLLOW | O_NONBLOCK`:
/// a FIFO, even one swapped in after the `lstat`, never stalls the call), and the open file
/// is checked to be a regular file before a byte is read.
fn read_bounded(path: &str) -> Result<Option<String>, String> {
    use rustix::fs::{Mode, OFlags};
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(path, flags, Mode::empty()) {
        Ok(fd) => fd,
        // Nothing there, or the config home is not a folder: no manifest.
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => return Ok(None),
        // A link (the caller has said so already) or a directory: say what it is.
        Err(rustix::io::Errno::LOOP | rustix::io::Errno::ISDIR) => {
            let kind = rustix::fs::lstat(path).map_err(|e| std::io::Error::from(e).to_string())?;
            return Err(not_a_file(rustix::fs::FileType::from_raw_mode(kind.st_mode)).to_owned());
        }
        Err(e) => return Err(std::io::Error::from(e).to_string()),
    };
    let kind = rustix::fs::fstat(&fd).map_err(|e| std::io::Error::from(e).to_string())?;
    let kind = rustix::fs::FileType::from_raw_mode(kind.st_mode);
    if kind != rustix::fs::FileType::RegularFile {
        return Err(not_a_file(kind).to_owned());
    }
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_MANIFEST_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    fs::File::from(fd)
        .take(limit)
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
