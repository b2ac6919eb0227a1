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
        _ => "not a regular file",
    }
}

/// What is at a config home's manifest path.
enum Manifest {
    /// Nothing (or the config home is not a folder).
    Absent,
    /// A symbolic link, never followed.
    Link,
    /// A regular file's text, read at most one byte past the core's bound.
    Text(String),
    /// Something that could not be read, and why.
    Unreadable(String),
}

/// Looks at the manifest at `path` with one open: without following a link and without
/// blocking (`O_NOFOLLOW | O_NONBLOCK`: a FIFO, even one swapped in since the core listed
/// the path, never stalls the call), and reads it only once the open file is a regular
/// file. A link is told by the open's `ELOOP`, confirmed by `lstat`.
fn read_manifest(path: &str) -> Manifest {
    use rustix::fs::{FileType, Mode, OFlags};
    let why = |e: rustix::io::Errno| Manifest::Unreadable(std::io::Error::from(e).to_string());
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
    let fd = match rustix::fs::open(path, flags, Mode::empty()) {
        Ok(fd) => fd,
        // Nothing there, or the config home is not a folder: no manifest.
        Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => return Manifest::Absent,
        Err(rustix::io::Errno::LOOP) => {
            return match rustix::fs::lstat(path) {
                Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::Symlink => {
                    Manifest::Link
                }
                Ok(stat) => Manifest::Unreadable(
                    not_a_file(FileType::from_raw_mode(stat.st_mode)).to_owned(),
                ),
                Err(e) => why(e),
            };
        }
        Err(e) => return why(e),
    };
    let kind = match rustix::fs::fstat(&fd) {
        Ok(stat) => FileType::from_raw_mode(stat.st_mode),
        Err(e) => return why(e),
    };
    if kind != FileType::RegularFile {
        return Manifest::Unreadable(not_a_file(kind).to_owned());
    }
    let mut bytes = Vec::new();
    let limit = u64::try_from(MAX_MANIFEST_BYTES)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    match fs::File::from(fd).take(limit).read_to_end(&mut bytes) {
        Ok(_) => Manifest::Text(String::from_utf8_lossy(&bytes).into_owned()),
        Err(e) => Manifest::Unreadable(e.to_string()),
    }
}

/// Reads the facts of every probe, keyed by config home.
pub fn read_facts(probes: &[HomeProbe]) -> SurfaceFacts {
    let mut facts = SurfaceFacts::default();
    for probe in probes {
        let mut home = ConfigHomeFacts {
            config_home_is_symlink: is_symlink(&probe.config_home),
            ..ConfigHomeFacts::default()
        };
        match read_manifest(&probe.manifest_path) {
            Manifest::Absent => {}
            Manifest::Link => home.manifest_is_symlink = true,
            Manifest::Text(text) => home.manifest = Some(text),
            Manifest::Unreadable(why) => home.manifest_unreadable = Some(why),
        }
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
