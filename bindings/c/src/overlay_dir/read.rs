//! Reading the files of a capability folder the walk admitted: each opened without
//! following a link or blocking, re-checked with `fstat`, and read within two bounds, the
//! core's per-file bound plus one byte (that byte refuses the folder with the core's size
//! refusal, naming the file's size) and what is left of the folder's byte budget plus one
//! byte (that byte refuses the folder).

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;

use rustix::fs::{Mode, OFlags};

use gsd_core::Diagnostic;
use gsd_core::registry::{
    FRAGMENT_MAX_BYTES, MANIFEST_MAX_BYTES, fragment_too_large, manifest_too_large,
};

use super::{Found, escape, refusal, unreadable};

/// `open(2)` flags of a file: never follow a final symlink, never block on a FIFO or device.
const FILE_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::NOFOLLOW)
    .union(OFlags::NONBLOCK)
    .union(OFlags::CLOEXEC);

/// Opens the file `relative` (`/`-separated) below the open folder `folder`, one component
/// at a time, following no link on the way (`super::open_dir`) nor at the end.
fn open_beneath(folder: &OwnedFd, relative: &str) -> std::io::Result<File> {
    let (dirs, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    let mut below: Option<OwnedFd> = None;
    for part in dirs.split('/').filter(|p| !p.is_empty()) {
        let next = match &below {
            Some(dir) => super::open_dir(dir, part.as_bytes())?,
            None => super::open_dir(folder, part.as_bytes())?,
        };
        below = Some(next);
    }
    let parent = below.as_ref().map_or(folder.as_fd(), AsFd::as_fd);
    let fd = rustix::fs::openat(
        parent,
        OsStr::from_bytes(name.as_bytes()),
        FILE_FLAGS,
        Mode::empty(),
    )?;
    Ok(File::from(fd))
}

/// The bytes one folder may read, and those it has read.
pub(super) struct Budget {
    /// Most bytes the folder may read.
    pub(super) limit: u64,
    /// Bytes read so far.
    pub(super) spent: u64,
}

/// A folder's manifest text and its fragments as `(relative path, text)`.
pub(super) type Texts = (String, Vec<(String, String)>);

/// Reads the manifest, then every other file as a fragment, within `budget`.
pub(super) fn read_texts(
    folder: &str,
    dir: &OwnedFd,
    manifest: &Found,
    files: &[Found],
    budget: &mut Budget,
) -> Result<Texts, Box<Diagnostic>> {
    let manifest = read_text(folder, dir, manifest, Kind::Manifest, budget)?;
    let mut fragments = Vec::with_capacity(files.len());
    for file in files {
        fragments.push((
            file.relative.clone(),
            read_text(folder, dir, file, Kind::Fragment, budget)?,
        ));
    }
    Ok((manifest, fragments))
}

/// What a file is to the core, which bounds its size.
#[derive(Clone, Copy)]
enum Kind {
    /// `capability.json`: at most [`MANIFEST_MAX_BYTES`].
    Manifest,
    /// Any other file: at most [`FRAGMENT_MAX_BYTES`].
    Fragment,
}

/// Reads one file as UTF-8 text: at most the core's bound for `kind` plus one byte, and at
/// most what is left of `budget` plus one byte, however large `fstat` says the file is (it
/// may grow while read). The byte past the budget refuses the folder (`overlay_too_large`);
/// the byte past the core's bound refuses it with the core's size refusal, which names the
/// larger of the file's `fstat` size and the bytes read.
fn read_text(
    folder: &str,
    dir: &OwnedFd,
    file: &Found,
    kind: Kind,
    budget: &mut Budget,
) -> Result<String, Box<Diagnostic>> {
    let bound = match kind {
        Kind::Manifest => MANIFEST_MAX_BYTES,
        Kind::Fragment => FRAGMENT_MAX_BYTES,
    };
    let shown = escape(file.relative.as_bytes());
    let unreadable = |e: &std::io::Error| Box::new(unreadable(folder, Some(&shown), e));
    let handle = open_beneath(dir, &file.relative).map_err(|e| unreadable(&e))?;
    let meta = handle.metadata().map_err(|e| unreadable(&e))?;
    if !meta.is_file() {
        return Err(Box::new(refusal(
            "overlay_not_regular_file",
            folder,
            Some(&shown),
            format!("'{folder}/{shown}' is not a regular file; the overlay folder is refused"),
        )));
    }
    let left = budget.limit.saturating_sub(budget.spent);
    let limit = u64::try_from(bound)
        .unwrap_or(u64::MAX)
        .min(left)
        .saturating_add(1);
    // The size fstat gives is a hint for the allocation only.
    let mut bytes =
        Vec::with_capacity(usize::try_from(meta.len().saturating_add(1).min(limit)).unwrap_or(0));
    Read::take(&handle, limit)
        .read_to_end(&mut bytes)
        .map_err(|e| unreadable(&e))?;
    drop::<File>(handle);
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    budget.spent = budget.spent.saturating_add(read);
    if read > left {
        return Err(Box::new(refusal(
            "overlay_too_large",
            folder,
            None,
            format!(
                "'{folder}/{shown}' grew while being read: the folder passes the {} bytes it may hold; the overlay folder is refused",
                budget.limit
            ),
        )));
    }
    if bytes.len() > bound {
        let size = meta.len().max(read);
        return Err(Box::new(match kind {
            Kind::Manifest => manifest_too_large(folder, size),
            Kind::Fragment => fragment_too_large(folder, &file.relative, size),
        }));
    }
    String::from_utf8(bytes).map_err(|e| {
        Box::new(refusal(
            "overlay_not_utf8",
            folder,
            Some(&shown),
            format!(
                "'{folder}/{shown}' is not valid UTF-8 (invalid byte at offset {}); the overlay folder is refused",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::overlay_dir::FOLDER_MAX_BYTES;

    /// A file in a fresh temporary directory, with `bytes` as content: the directory's path,
    /// the directory held open, and the file as the walk finds it.
    fn temp_file(name: &str, bytes: &[u8]) -> (PathBuf, OwnedFd, Found, PathBuf) {
        let dir =
            std::env::temp_dir().join(format!("gsd-overlay-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let found = Found {
            relative: name.to_owned(),
            size: 0,
        };
        let open = super::super::open_dir(rustix::fs::CWD, dir.as_os_str().as_bytes()).unwrap();
        (dir, open, found, path)
    }

    #[test]
    fn a_file_that_grew_past_the_budget_is_read_to_the_budget_plus_one_byte() {
        // lstat said 0 bytes (size 0 above); 100 are there, 60 are left of the budget.
        let (dir, open, file, _) = temp_file("grows.md", &[b'x'; 100]);
        let mut budget = Budget {
            limit: 70,
            spent: 10,
        };
        let refused =
            read_text("acme-grow", &open, &file, Kind::Fragment, &mut budget).unwrap_err();
        assert_eq!(refused.code, "overlay_too_large");
        assert_eq!(refused.field, None);
        assert_eq!(
            refused.message,
            "'acme-grow/grows.md' grew while being read: the folder passes the 70 bytes it may hold; the overlay folder is refused"
        );
        assert_eq!(budget.spent, 10 + 61, "read: what was left, and one byte");
        // With exactly enough left the same file is read whole.
        let mut budget = Budget {
            limit: 100,
            spent: 0,
        };
        let text = read_text("acme-grow", &open, &file, Kind::Fragment, &mut budget).unwrap();
        assert_eq!((text.len(), budget.spent), (100, 100));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_over_the_core_bound_is_refused_with_its_size_after_reading_one_byte_past_it() {
        // Sparse: 9 MiB that take no disk space; the core's bound for both kinds is 8 MiB.
        let (dir, open, file, path) = temp_file("big.md", b"");
        let size = 9 * 1024 * 1024;
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(size)
            .unwrap();
        for (kind, code, field, message) in [
            (
                Kind::Fragment,
                "overlay_fragment_too_large",
                Some("fragment.path"),
                "file \"big.md\" is 9437184 bytes, over the 8388608-byte limit",
            ),
            (
                Kind::Manifest,
                "overlay_manifest_too_large",
                None,
                "capability.json is 9437184 bytes, over the 8388608-byte limit",
            ),
        ] {
            let mut budget = Budget {
                limit: FOLDER_MAX_BYTES,
                spent: 0,
            };
            let refused = read_text("acme-big", &open, &file, kind, &mut budget).unwrap_err();
            assert_eq!(
                (
                    refused.code.as_str(),
                    refused.field.as_deref(),
                    refused.message.as_str()
                ),
                (code, field, message)
            );
            assert_eq!(refused.capability_id.as_deref(), Some("acme-big"));
            assert_eq!(
                budget.spent,
                8 * 1024 * 1024 + 1,
                "read: the bound and one byte"
            );
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
