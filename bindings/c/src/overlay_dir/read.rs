//! Reading the files of a capability folder the walk admitted: each opened without
//! following a link or blocking, re-checked with `fstat`, and read within two bounds, the
//! core's per-file bound plus one byte (the core reports that oversize itself) and what is
//! left of the folder's byte budget plus one byte (that byte refuses the folder).

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;

use gsd_core::Diagnostic;
use gsd_core::registry::{FRAGMENT_MAX_BYTES, MANIFEST_MAX_BYTES};

use super::{Found, escape, refusal, unreadable};

/// `open(2)` flags: never follow a final symlink, never block on a FIFO or device.
#[cfg(all(target_os = "linux", any(target_arch = "aarch64", target_arch = "arm")))]
const OPEN_FLAGS: i32 = 0o100_000 | 0o4000;
#[cfg(all(
    target_os = "linux",
    not(any(target_arch = "aarch64", target_arch = "arm"))
))]
const OPEN_FLAGS: i32 = 0o400_000 | 0o4000;
#[cfg(target_os = "macos")]
const OPEN_FLAGS: i32 = 0x0100 | 0x0004;

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
    manifest: &Found,
    files: &[Found],
    budget: &mut Budget,
) -> Result<Texts, Box<Diagnostic>> {
    let manifest = read_text(folder, manifest, MANIFEST_MAX_BYTES, budget)?;
    let mut fragments = Vec::with_capacity(files.len());
    for file in files {
        fragments.push((
            file.relative.clone(),
            read_text(folder, file, FRAGMENT_MAX_BYTES, budget)?,
        ));
    }
    Ok((manifest, fragments))
}

/// Reads one file as UTF-8 text: at most `bound + 1` bytes, and at most what is left of
/// `budget` plus one byte, however large `fstat` says the file is (it may grow while read).
/// That one byte past the budget refuses the folder (`overlay_too_large`).
fn read_text(
    folder: &str,
    file: &Found,
    bound: usize,
    budget: &mut Budget,
) -> Result<String, Box<Diagnostic>> {
    let shown = escape(file.relative.as_bytes());
    let unreadable = |e: &std::io::Error| Box::new(unreadable(folder, Some(&shown), e));
    let handle = OpenOptions::new()
        .read(true)
        .custom_flags(OPEN_FLAGS)
        .open(&file.path)
        .map_err(|e| unreadable(&e))?;
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
        // Over the core's bound the core reports the size; the cut may split a character,
        // so the text is decoded leniently (its length stays over the bound).
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
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

    /// A file in a fresh temporary directory, with `bytes` as content.
    fn temp_file(name: &str, bytes: &[u8]) -> (PathBuf, Found) {
        let dir =
            std::env::temp_dir().join(format!("gsd-overlay-unit-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let found = Found {
            relative: name.to_owned(),
            path,
            size: 0,
        };
        (dir, found)
    }

    #[test]
    fn a_file_that_grew_past_the_budget_is_read_to_the_budget_plus_one_byte() {
        // lstat said 0 bytes (size 0 above); 100 are there, 60 are left of the budget.
        let (dir, file) = temp_file("grows.md", &[b'x'; 100]);
        let mut budget = Budget {
            limit: 70,
            spent: 10,
        };
        let refused = read_text("acme-grow", &file, FRAGMENT_MAX_BYTES, &mut budget).unwrap_err();
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
        let text = read_text("acme-grow", &file, FRAGMENT_MAX_BYTES, &mut budget).unwrap();
        assert_eq!((text.len(), budget.spent), (100, 100));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_file_over_the_core_bound_keeps_its_length_even_when_the_cut_splits_a_character() {
        // 'é' is two bytes: a bound of 4 cuts the third 'é' after one byte.
        let (dir, file) = temp_file("split.md", "ééé".as_bytes());
        let mut budget = Budget {
            limit: FOLDER_MAX_BYTES,
            spent: 0,
        };
        let text = read_text("acme-split", &file, 4, &mut budget).unwrap();
        assert!(text.len() > 4, "the core must see it over its bound");
        assert_eq!(budget.spent, 5);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
