//! Reading an overlay root directory from disk into the core's `Overlay` values, and the
//! two exports built on it (`gsd_registry_with_overlay_dir`, `gsd_registry_third_party_ids`).
//!
//! The core does no IO; this loader is the C edge's one reader of third-party capability
//! folders. Rules (the same as the Node package's loader):
//!
//! * the root must be a real directory (not a symlink, however spelled: trailing `/` and
//!   `/.` components are dropped, lexically, before the `lstat`), else `INVALID_ARGUMENT`;
//! * its entries are handled in bytewise name order, so readdir order never shows;
//! * a root entry that is a symlink is refused (`overlay_symlink_refused`), one that is not
//!   a directory is ignored and never opened;
//! * the walk holds each directory open and names what is below it relative to that
//!   directory (`openat`, `fstatat` with `O_NOFOLLOW` / `AT_SYMLINK_NOFOLLOW`), never by a
//!   path from the root: a folder swapped for a symlink while the loader reads is not
//!   followed (the open fails, and the folder is refused as unreadable);
//! * inside a folder every entry is `lstat`ed, never followed: a symlink, a non-regular
//!   file, a directory named `capability.json`, more than [`MAX_FILES`] files, more
//!   than [`MAX_DIRS`] directories, a depth past [`MAX_DEPTH`], a non-UTF-8 name or
//!   file, or an unreadable file refuses the whole folder with one diagnostic (the first
//!   problem in walk order); so does a folder name
//!   that [`escape`] would change (a control, bidi or zero-width character, a backslash),
//!   which the core would otherwise carry raw as the `capabilityId` of its diagnostics;
//! * files are opened with `O_NOFOLLOW | O_NONBLOCK`, re-checked with `fstat`, and read up
//!   to the core's bound plus one byte (that byte refuses the folder with the core's size
//!   refusal, naming the file's size);
//! * bytes are bounded before anything is opened (`overlay_too_large`, no field): the
//!   regular files of one folder, summed from `lstat`, may hold at most
//!   [`FOLDER_MAX_BYTES`]; the folders of one root that get read, in name order, at most
//!   [`ROOT_MAX_BYTES`] together (a folder that would pass it is refused unread, and so are
//!   the later ones that do not fit). Bytes actually read count too: a file that grew after
//!   its `lstat` is read only up to what is left of the budget plus one byte, and that byte
//!   refuses the folder.
//!
//! Every path in a diagnostic is escaped: control, bidi and zero-width characters become
//! `\u{..}`, bytes that are not UTF-8 become `\x..`.

mod read;

use std::ffi::{OsStr, c_char};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use rustix::fs::{AtFlags, Dir, FileType, Mode, OFlags, Stat};

use gsd_core::error::boundary_error;
use gsd_core::{Diagnostic, Error, ErrorCode, Overlay, Severity};

use read::{Budget, read_texts};

use crate::{gsd_bytes, gsd_error, gsd_registry, gsd_status};

/// Most regular files one capability folder may hold.
pub(crate) const MAX_FILES: usize = 1024;

/// Deepest nesting (path components below the folder) a capability folder may hold.
pub(crate) const MAX_DEPTH: usize = 16;

/// Most directories one capability folder may hold (so a walk of no file ends). The Node
/// package's loader has the same bound.
pub(crate) const MAX_DIRS: usize = 1024;

/// Most bytes the regular files of one capability folder may hold together (32 MiB, the
/// sum of their `lstat` sizes, and of the bytes read). The Node package's loader has the
/// same bound.
pub(crate) const FOLDER_MAX_BYTES: u64 = 32 * 1024 * 1024;

/// Most bytes the folders read from one overlay root may hold together (256 MiB). The Node
/// package's loader has the same bound.
pub(crate) const ROOT_MAX_BYTES: u64 = 256 * 1024 * 1024;

/// The manifest file of a capability folder.
const MANIFEST: &str = "capability.json";

/// A new registry: `base` plus the third-party capability folders found under the
/// overlay root directory `dir` (a path: pointer plus length, any bytes except NUL; not
/// required to be UTF-8). The folders are read from disk here, at the edge (the core does
/// no IO), by these rules: entries in bytewise name order; the root must be a real
/// directory; a root entry that is a symlink is refused, one that is not a directory is
/// ignored (never opened); inside a folder nothing is followed or opened unless it is a
/// regular file: a symlink, a FIFO/socket/device, a directory named `capability.json`, more
/// than 1024 files, more than 1024 directories, a depth past 16, a name or file that is
/// not UTF-8, a folder name holding a control, bidi or zero-width character or a
/// backslash, or an unreadable file refuses the folder; so do more than 32 MiB of files in one folder, or a folder that
/// would take the folders read from the root past 256 MiB (both known from `lstat` before
/// anything is opened; bytes read are counted as well). Refusals are diagnostics
/// (`overlay_symlink_refused`, `overlay_not_regular_file`, `overlay_manifest_missing`,
/// `overlay_too_many_files`, `overlay_too_large`, `overlay_not_utf8`, `overlay_unsafe_name`,
/// `overlay_unreadable`; severity error, `capabilityId` the folder, `field` the relative
/// path at fault; names escaped, never raw) that `gsd_registry_diagnostics` of the new
/// registry lists first, before the registry's own (e.g. an admitted folder that fails
/// validation).
/// A root that is missing, a symlink (also when spelled with a trailing `/` or `/.`) or not
/// a directory fails the call with `GSD_STATUS_INVALID_ARGUMENT` naming the path.
///
/// On success writes a new `gsd_registry` to `out_registry`; free it with
/// `gsd_registry_free` (independently of `base`). `out_error` may be NULL. `base` is
/// borrowed and `dir` copied for the call only.
///
/// # Safety
/// `base` must be NULL or a live `gsd_registry`; `dir` must be NULL or readable for
/// `dir_len` bytes; `out_registry` must be valid for a write; `out_error` must be NULL or
/// valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_with_overlay_dir(
    base: *const gsd_registry,
    dir: *const c_char,
    dir_len: usize,
    out_registry: *mut *mut gsd_registry,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `base` is NULL or live (contract above).
        let base = unsafe { crate::boundary::borrow_handle(base, "base") }?;
        // SAFETY: `dir` is NULL or readable for `dir_len` bytes (contract above).
        let dir = unsafe { crate::boundary::read_bytes(dir, dir_len, "dir") }?;
        let at_dir = |error: Error| crate::error::Failure::at(error, Some("dir".to_owned()));
        let refused = match dir.iter().position(|&b| b == 0) {
            _ if dir.is_empty() => {
                Some("dir must be a non-empty path, got an empty one".to_owned())
            }
            Some(offset) => Some(format!(
                "dir must be a path without NUL bytes, got one at byte offset {offset} of {}",
                dir.len()
            )),
            None => None,
        };
        if let Some(message) = refused {
            return Err(at_dir(boundary_error(ErrorCode::InvalidArgument, message)));
        }
        let loaded = load(std::path::Path::new(OsStr::from_bytes(&dir))).map_err(at_dir)?;
        let inner = base.inner.with_overlays(&loaded.overlays);
        let mut edge = base.edge_diagnostics.clone();
        edge.extend(loaded.diagnostics);
        Ok(crate::boundary::new_registry(inner, edge))
    };
    // SAFETY: `out_registry` and `out_error` are NULL or writable (contract above).
    unsafe { crate::boundary::export((out_registry, "out_registry"), out_error, body) }
}

/// The ids of the third-party capabilities admitted into the registry (from overlays),
/// sorted, as a JSON array of strings (`[]` for the first-party registry).
///
/// On success writes the JSON to `out_json`; free it with `gsd_bytes_free`. `out_error`
/// may be NULL. `registry` is borrowed for the call only.
///
/// # Safety
/// `registry` must be NULL or a live `gsd_registry`; `out_json` must be valid for a write;
/// `out_error` must be NULL or valid for a write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gsd_registry_third_party_ids(
    registry: *const gsd_registry,
    out_json: *mut gsd_bytes,
    out_error: *mut *mut gsd_error,
) -> gsd_status {
    let body = || {
        // SAFETY: `registry` is NULL or live (contract above).
        let registry = unsafe { crate::boundary::borrow_handle(registry, "registry") }?;
        let mut ids: Vec<&str> = registry
            .inner
            .capabilities()
            .filter(|c| registry.inner.is_third_party(&c.id))
            .map(|c| c.id.as_str())
            .collect();
        ids.sort_unstable();
        crate::convert::encode(&ids)
    };
    // SAFETY: `out_json` and `out_error` are NULL or writable (contract above).
    unsafe { crate::boundary::export((out_json, "out_json"), out_error, body) }
}

/// What the loader found: the folders handed to the core, and the edge diagnostics.
#[derive(Debug, Default)]
pub(crate) struct Loaded {
    /// Folders that passed the edge rules, in name order.
    pub overlays: Vec<Overlay>,
    /// One diagnostic per refused folder, in name order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads every capability folder under `root`.
///
/// # Errors
/// `INVALID_ARGUMENT` when `root` cannot be inspected, is a symlink, or is not a directory,
/// or when it cannot be listed.
pub(crate) fn load(root: &Path) -> Result<Loaded, Error> {
    let shown = escape(root.as_os_str().as_bytes());
    let bad = |what: String| boundary_error(ErrorCode::InvalidArgument, format!("dir {what}"));
    // `link/` and `link/.` name the link's target, and `lstat` follows them: the root is
    // inspected and read without its trailing `/` and `/.` components.
    let root = Path::new(std::ffi::OsStr::from_bytes(trim_trailing(
        root.as_os_str().as_bytes(),
    )));
    let meta = std::fs::symlink_metadata(root)
        .map_err(|e| bad(format!("'{shown}' cannot be inspected: {e}")))?;
    if meta.file_type().is_symlink() {
        return Err(bad(format!(
            "'{shown}' is a symbolic link; the overlay root must be a real directory"
        )));
    }
    if !meta.is_dir() {
        return Err(bad(format!("'{shown}' is not a directory")));
    }
    // Opened without following a link: a root swapped for one since the `lstat` fails here.
    let root_dir = open_dir(rustix::fs::CWD, root.as_os_str().as_bytes())
        .and_then(|fd| Ok((sorted_entries(&fd)?, fd)));
    let (entries, root_dir) = root_dir.map_err(|e| bad(format!("'{shown}': {e}")))?;
    let mut loaded = Loaded::default();
    let mut root_used = 0;
    for name in entries {
        let folder = escape(&name);
        let kind = match lstat_at(&root_dir, &name) {
            Ok(stat) => FileType::from_raw_mode(stat.st_mode),
            Err(e) => {
                loaded.diagnostics.push(unreadable(&folder, None, &e));
                continue;
            }
        };
        if kind == FileType::Symlink {
            loaded.diagnostics.push(refusal(
                "overlay_symlink_refused",
                &folder,
                None,
                format!("overlay folder '{folder}' is a symbolic link; links are never followed"),
            ));
            continue;
        }
        if kind != FileType::Directory {
            continue;
        }
        match read_folder(&name, &folder, &root_dir, &mut root_used) {
            Ok(overlay) => loaded.overlays.push(overlay),
            Err(diagnostic) => loaded.diagnostics.push(*diagnostic),
        }
    }
    Ok(loaded)
}

/// `path` without its trailing `/` and `/.` components, lexically (no symlink is
/// resolved): `root/`, `root/.` and `root/.//.` are `root`; `/` and `/.` are `/`, `./` is
/// `.`. A `..` is kept (it names a different directory).
fn trim_trailing(mut path: &[u8]) -> &[u8] {
    loop {
        if let Some(rest) = path.strip_suffix(b"/").filter(|rest| !rest.is_empty()) {
            path = rest;
        } else if let Some(rest) = path.strip_suffix(b"/.") {
            // Keeps the `/`: `/.` becomes `/`, `a/.` becomes `a/` and then `a`.
            path = &path[..=rest.len()];
        } else {
            return path;
        }
    }
}

/// `open(2)` flags of a directory the walk reads: never a link, never kept across `exec`.
const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

/// Opens the directory `name` of `parent` without following a link.
fn open_dir(parent: impl AsFd, name: &[u8]) -> std::io::Result<OwnedFd> {
    Ok(rustix::fs::openat(
        parent,
        OsStr::from_bytes(name),
        DIR_FLAGS,
        Mode::empty(),
    )?)
}

/// `lstat` of the entry `name` of the open directory `dir`.
fn lstat_at(dir: impl AsFd, name: &[u8]) -> std::io::Result<Stat> {
    Ok(rustix::fs::statat(
        dir,
        OsStr::from_bytes(name),
        AtFlags::SYMLINK_NOFOLLOW,
    )?)
}

/// The names of the entries of the open directory `dir` (without `.` and `..`), sorted
/// bytewise.
fn sorted_entries(dir: impl AsFd) -> std::io::Result<Vec<Vec<u8>>> {
    let mut names = Vec::new();
    for entry in Dir::read_from(dir)? {
        let name = entry?.file_name().to_bytes().to_vec();
        if name != b"." && name != b".." {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// One regular file found in a folder walk.
struct Found {
    /// Path relative to the folder, `/`-separated (UTF-8: checked during the walk); it is
    /// opened one component at a time from the folder, never followed.
    relative: String,
    /// Its size as `lstat` gave it (before it is opened).
    size: u64,
}

/// Reads one capability folder, or the diagnostic that refuses it. `root_used` holds the
/// bytes already charged to the overlay root; a folder that gets read adds its own (even
/// when its content refuses it afterwards: the bytes were read).
fn read_folder(
    name: &[u8],
    folder: &str,
    root: &OwnedFd,
    root_used: &mut u64,
) -> Result<Overlay, Box<Diagnostic>> {
    let Ok(folder_name) = std::str::from_utf8(name) else {
        return Err(Box::new(refusal(
            "overlay_not_utf8",
            folder,
            None,
            format!("overlay folder name '{folder}' is not valid UTF-8"),
        )));
    };
    // The core would carry the name raw as the `capabilityId` of its own diagnostics; a
    // name that does not print as itself is refused here, shown escaped. (It could never
    // be admitted: a capability id is kebab-case and equals its folder name.)
    if folder != folder_name {
        return Err(Box::new(refusal(
            "overlay_unsafe_name",
            folder,
            None,
            format!(
                "overlay folder name '{folder}' holds a control, bidi or zero-width character or a backslash (shown escaped); the overlay folder is refused unread"
            ),
        )));
    }
    // A folder swapped for a link since its `lstat` is not followed: the open fails.
    let dir = open_dir(root, name).map_err(|e| Box::new(unreadable(folder, None, &e)))?;
    let mut walked = Walked::default();
    walk(folder, &dir, ("", ""), 1, &mut walked)?;
    let mut files = walked.files;
    let manifest_path = files
        .iter()
        .position(|f| f.relative == MANIFEST)
        .ok_or_else(|| {
            Box::new(refusal(
                "overlay_manifest_missing",
                folder,
                Some(MANIFEST),
                format!("overlay folder '{folder}' has no {MANIFEST}"),
            ))
        })?;
    let total = files
        .iter()
        .fold(0_u64, |sum, f| sum.saturating_add(f.size));
    if total > FOLDER_MAX_BYTES {
        return Err(Box::new(refusal(
            "overlay_too_large",
            folder,
            None,
            format!(
                "overlay folder '{folder}' holds {total} bytes, more than the {FOLDER_MAX_BYTES} bytes allowed per folder; the overlay folder is refused unread"
            ),
        )));
    }
    let root_left = ROOT_MAX_BYTES.saturating_sub(*root_used);
    if total > root_left {
        return Err(Box::new(refusal(
            "overlay_too_large",
            folder,
            None,
            format!(
                "overlay folder '{folder}' holds {total} bytes, more than the {root_left} bytes left of the {ROOT_MAX_BYTES} bytes allowed per overlay root (the root budget is spent); the overlay folder is refused unread"
            ),
        )));
    }
    // What this folder may read: its own bound, and no more than the root has left.
    let mut budget = Budget {
        limit: FOLDER_MAX_BYTES.min(root_left),
        spent: 0,
    };
    let manifest_file = files.remove(manifest_path);
    let read = read_texts(folder, &dir, &manifest_file, &files, &mut budget);
    // Charged: the larger of its listed and its read size, never past what it was allowed.
    *root_used += total.max(budget.spent).min(budget.limit);
    let (manifest, fragments) = read?;
    Ok(Overlay {
        folder: folder_name.to_owned(),
        manifest,
        fragments,
    })
}

/// What a folder walk has found so far.
#[derive(Default)]
struct Walked {
    /// The regular files, in walk order.
    files: Vec<Found>,
    /// The directories walked into.
    dirs: usize,
}

/// Walks `dir` (at `depth` below the folder), collecting regular files in name order and
/// counting the directories walked into. `prefix` is the folder's path to `dir`,
/// `/`-terminated (UTF-8 checked), as `(raw, shown)`: the second with each name escaped,
/// which is what a diagnostic prints.
fn walk(
    folder: &str,
    dir: &OwnedFd,
    prefix: (&str, &str),
    depth: usize,
    found: &mut Walked,
) -> Result<(), Box<Diagnostic>> {
    let (prefix, shown_prefix) = prefix;
    let entries = sorted_entries(dir).map_err(|e| {
        let at = shown_prefix.trim_end_matches('/');
        Box::new(unreadable(folder, (!at.is_empty()).then_some(at), &e))
    })?;
    for name in entries {
        let shown = format!("{shown_prefix}{}", escape(&name));
        let refuse = |code: &str, what: &str| {
            Box::new(refusal(
                code,
                folder,
                Some(&shown),
                format!("'{folder}/{shown}' {what}; the overlay folder is refused"),
            ))
        };
        let stat =
            lstat_at(dir, &name).map_err(|e| Box::new(unreadable(folder, Some(&shown), &e)))?;
        let kind = FileType::from_raw_mode(stat.st_mode);
        if kind == FileType::Symlink {
            return Err(refuse(
                "overlay_symlink_refused",
                "is a symbolic link (links are never followed)",
            ));
        }
        if kind != FileType::Directory && kind != FileType::RegularFile {
            return Err(refuse(
                "overlay_not_regular_file",
                "is neither a regular file nor a directory",
            ));
        }
        if depth > MAX_DEPTH {
            return Err(refuse(
                "overlay_too_many_files",
                &format!("nests deeper than {MAX_DEPTH} levels"),
            ));
        }
        let Ok(name) = std::str::from_utf8(&name) else {
            return Err(refuse(
                "overlay_not_utf8",
                "has a name that is not valid UTF-8",
            ));
        };
        let relative = format!("{prefix}{name}");
        if kind == FileType::Directory {
            if relative == MANIFEST {
                return Err(refuse(
                    "overlay_not_regular_file",
                    "is a directory, not a regular file",
                ));
            }
            if found.dirs == MAX_DIRS {
                return Err(Box::new(refusal(
                    "overlay_too_many_files",
                    folder,
                    None,
                    format!("overlay folder '{folder}' holds more than {MAX_DIRS} directories"),
                )));
            }
            found.dirs += 1;
            let below = open_dir(dir, name.as_bytes())
                .map_err(|e| Box::new(unreadable(folder, Some(&shown), &e)))?;
            let below_prefix = (format!("{relative}/"), format!("{shown}/"));
            walk(
                folder,
                &below,
                (&below_prefix.0, &below_prefix.1),
                depth + 1,
                found,
            )?;
        } else {
            let files = &mut found.files;
            if files.len() == MAX_FILES {
                return Err(Box::new(refusal(
                    "overlay_too_many_files",
                    folder,
                    None,
                    format!("overlay folder '{folder}' holds more than {MAX_FILES} files"),
                )));
            }
            files.push(Found {
                relative,
                size: u64::try_from(stat.st_size).unwrap_or(0),
            });
        }
    }
    Ok(())
}

/// An edge diagnostic: severity error, the folder as capability id.
fn refusal(code: &str, folder: &str, field: Option<&str>, message: String) -> Diagnostic {
    let diagnostic = Diagnostic::new(code, Severity::Error, message).with_capability(folder);
    match field {
        Some(field) => diagnostic.with_field(field),
        None => diagnostic,
    }
}

/// `overlay_unreadable`, with the OS error code in the message and in `detail.osError`.
fn unreadable(folder: &str, field: Option<&str>, error: &std::io::Error) -> Diagnostic {
    let at = field.map_or_else(|| folder.to_owned(), |f| format!("{folder}/{f}"));
    let os = error.raw_os_error();
    let diagnostic = refusal(
        "overlay_unreadable",
        folder,
        field,
        format!(
            "'{at}' cannot be read: {}",
            escape(error.to_string().as_bytes())
        ),
    );
    match os {
        Some(code) => diagnostic.with_detail(serde_json::json!({ "osError": code })),
        None => diagnostic,
    }
}

/// Whether a character may not appear raw in a message: C0/C1 controls, DEL, bidi
/// controls, zero-width and invisible formatting characters, line/paragraph separators.
fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{061C}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// A file name (or path) as printable text: hidden characters become `\u{..}`, bytes
/// that are not UTF-8 `\x..`, and a backslash `\\`, so distinct names stay distinct.
pub(crate) fn escape(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else if is_hidden(c) {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn escape_shows_hidden_characters_and_bad_bytes() {
        assert_eq!(escape(b"plain"), "plain");
        assert_eq!(escape("a\u{1b}[31mb".as_bytes()), "a\\u{1b}[31mb");
        assert_eq!(
            escape("x\u{202e}y\u{200b}".as_bytes()),
            "x\\u{202e}y\\u{200b}"
        );
        assert_eq!(escape(b"n\xffo\\"), "n\\xffo\\\\");
    }

    /// Raises its flag when dropped: it stops a swapping thread when the loads end, also by
    /// a failed assertion (the scope would otherwise wait for that thread forever).
    #[cfg(target_os = "linux")]
    struct Stop<'a>(&'a std::sync::atomic::AtomicBool);

    #[cfg(target_os = "linux")]
    impl Drop for Stop<'_> {
        fn drop(&mut self) {
            self.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// A folder swapped for a symlink to a folder outside the root, and back, while the
    /// loader reads (`acme-top` itself, and `docs` one level down in `acme-deep`): the
    /// outside folder is never read, whenever the swap lands (the walk names each entry
    /// relative to an open directory and opens nothing through a link).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_folder_swapped_for_a_link_while_read_is_never_followed() {
        use std::sync::atomic::{AtomicBool, Ordering};

        use rustix::fs::{CWD, RenameFlags, renameat_with};

        const LOADS: usize = 400;
        let base = std::env::temp_dir().join(format!("gsd-overlay-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let (root, outside, spare) = (base.join("root"), base.join("outside"), base.join("spare"));
        let write = |path: PathBuf, text: &str| {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(root.join("acme-top").join(MANIFEST), "inside");
        write(root.join("acme-deep").join(MANIFEST), "inside");
        write(root.join("acme-deep").join("docs").join("a.md"), "inside");
        write(outside.join(MANIFEST), "OUTSIDE");
        write(outside.join("docs").join("a.md"), "OUTSIDE");
        std::fs::create_dir_all(&spare).unwrap();
        std::os::unix::fs::symlink(&outside, spare.join("acme-top")).unwrap();
        std::os::unix::fs::symlink(outside.join("docs"), spare.join("docs")).unwrap();
        // Each pair's parents are never swapped, so the two paths stay where they are.
        let pairs = [
            (root.join("acme-top"), spare.join("acme-top")),
            (root.join("acme-deep").join("docs"), spare.join("docs")),
        ];
        // A file system without atomic exchange (some network or FUSE ones) cannot run
        // this: said, and passed over.
        if let Err(e) = renameat_with(CWD, &pairs[0].0, CWD, &pairs[0].1, RenameFlags::EXCHANGE) {
            eprintln!("skipped: {} cannot exchange two paths: {e}", base.display());
            std::fs::remove_dir_all(&base).unwrap();
            return;
        }
        renameat_with(CWD, &pairs[0].0, CWD, &pairs[0].1, RenameFlags::EXCHANGE).unwrap();
        let stop = AtomicBool::new(false);
        let mut read_inside = 0;
        std::thread::scope(|scope| {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    for (a, b) in &pairs {
                        renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).unwrap();
                    }
                }
            });
            let _stop = Stop(&stop);
            for _ in 0..LOADS {
                let loaded = load(&root).unwrap();
                for overlay in &loaded.overlays {
                    read_inside += 1;
                    assert_eq!(
                        overlay.manifest, "inside",
                        "a manifest was read through a link"
                    );
                    for (path, text) in &overlay.fragments {
                        assert_eq!(text, "inside", "{path} was read through a link");
                    }
                }
            }
        });
        // The swap lands at every point of the walk, so some loads read the real folders.
        assert!(read_inside > 0, "no load read a folder");
        std::fs::remove_dir_all(&base).unwrap();
    }

    /// A path in a diagnostic is escaped in every component, the folders above the entry
    /// at fault too.
    #[test]
    fn a_nested_path_is_shown_escaped_in_every_component() {
        let root = std::env::temp_dir().join(format!("gsd-overlay-nested-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let inner = root
            .join("acme-nested")
            .join("d\u{1b}[31m")
            .join("e\u{202e}");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::write(root.join("acme-nested").join(MANIFEST), "{}").unwrap();
        std::os::unix::fs::symlink(&root, inner.join("l")).unwrap();
        let loaded = load(&root).unwrap();
        let fields: Vec<_> = loaded
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.field.as_deref()))
            .collect();
        assert_eq!(
            fields,
            [("overlay_symlink_refused", Some("d\\u{1b}[31m/e\\u{202e}/l"))]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// A walk ends after 1 024 directories, whether or not they hold a file: the 1 025th
    /// refuses the folder, with no field.
    #[test]
    fn more_than_1024_directories_refuse_the_folder() {
        let root = std::env::temp_dir().join(format!("gsd-overlay-dirs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (folder, dirs) in [("acme-dirs", MAX_DIRS + 1), ("acme-fits", MAX_DIRS)] {
            let at = root.join(folder);
            std::fs::create_dir_all(&at).unwrap();
            std::fs::write(at.join(MANIFEST), "{}").unwrap();
            for i in 0..dirs {
                std::fs::create_dir(at.join(format!("d{i}"))).unwrap();
            }
        }
        let loaded = load(&root).unwrap();
        let refused: Vec<_> = loaded
            .diagnostics
            .iter()
            .map(|d| {
                (
                    d.code.as_str(),
                    d.capability_id.as_deref(),
                    d.field.as_deref(),
                    d.message.as_str(),
                )
            })
            .collect();
        assert_eq!(
            refused,
            [(
                "overlay_too_many_files",
                Some("acme-dirs"),
                None,
                "overlay folder 'acme-dirs' holds more than 1024 directories"
            )]
        );
        let read: Vec<_> = loaded.overlays.iter().map(|o| o.folder.as_str()).collect();
        assert_eq!(read, ["acme-fits"]);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn trailing_slashes_and_dots_are_dropped_lexically() {
        let cases: [(&[u8], &[u8]); 12] = [
            (b"root", b"root"),
            (b"root/", b"root"),
            (b"root/.", b"root"),
            (b"root//././/", b"root"),
            (b"a/b/./", b"a/b"),
            (b"root/..", b"root/.."),
            (b"root/..x", b"root/..x"),
            (b"/", b"/"),
            (b"//", b"/"),
            (b"/.", b"/"),
            (b".", b"."),
            (b"./", b"."),
        ];
        for (path, trimmed) in cases {
            assert_eq!(trim_trailing(path), trimmed, "{}", escape(path));
        }
    }
}
