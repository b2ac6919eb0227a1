//! Byte tests a 64-bit word at a time, for the scanners that read text eight bytes per step
//! (the manifest reader's strings and indentation, the stem check).
//!
//! Each test sets the high bit of a byte that matches. A match can also set the high bits
//! of bytes above it (a borrow), never of a byte below it: so a result is zero exactly
//! when no byte matches, and its lowest set bit marks the first match (of a word
//! [`load`]ed in text order; a [`gather`]ed word keeps only whether some byte matches).

/// `0x01` in every byte.
pub(crate) const ONES: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte.
pub(crate) const HIGH: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `chunk` (at least eight long) as a little-endian word: byte `i` of
/// the text is byte `i` of the word, so the lowest flag is the first match.
#[inline]
pub(crate) fn load(chunk: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&chunk[..8]);
    u64::from_le_bytes(word)
}

/// Every byte of `bytes` (at most eight long) in one word, without copying them out: the
/// first and the last four bytes (overlapping when fewer than eight), or, below four bytes,
/// the first, middle and last byte, the first repeated in the rest. A byte test flags the
/// word exactly when some byte of `bytes` matches, though not at that byte's position.
/// Empty `bytes` gives `fill` in every byte.
#[inline]
pub(crate) fn gather(bytes: &[u8], fill: u8) -> u64 {
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        return u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
    }
    let byte = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(fill));
    let first = byte(0);
    let middle = byte(bytes.len() / 2);
    let last = byte(bytes.len().saturating_sub(1));
    (ONES * first) & !0x00ff_ff00 | middle << 8 | last << 16
}

/// Flags the bytes of `word` below `n` (`n` at most `0x80`).
#[inline]
pub(crate) const fn below(word: u64, n: u8) -> u64 {
    word.wrapping_sub(ONES * n as u64) & !word & HIGH
}

/// Flags the bytes of `word` equal to `b`.
#[inline]
pub(crate) const fn equal(word: u64, b: u8) -> u64 {
    below(word ^ (ONES * b as u64), 1)
}

/// Whether some byte of `bytes` is `b`, a word at a time: the whole words, then the last
/// eight bytes in place (a byte tested twice gives the same answer), or, under eight bytes,
/// one [`gather`]ed word. For the short texts a plan checks on every call (its host's
/// paths), where a byte-wise search costs several times as much.
pub(crate) fn contains(bytes: &[u8], b: u8) -> bool {
    let Some(tail) = bytes.len().checked_sub(8) else {
        return equal(gather(bytes, !b), b) != 0;
    };
    let mut found = equal(load(&bytes[tail..]), b);
    for chunk in bytes.chunks_exact(8) {
        found |= equal(load(chunk), b);
    }
    found != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`contains`] answers as a byte-wise search, for every length and byte.
    #[quickcheck_macros::quickcheck]
    #[allow(clippy::needless_pass_by_value)] // Reason: quickcheck passes generated values by value.
    fn contains_is_a_byte_search(bytes: Vec<u8>, b: u8) -> bool {
        (0..=bytes.len()).all(|len| contains(&bytes[..len], b) == bytes[..len].contains(&b))
    }

    #[test]
    fn contains_finds_nul_at_every_position() {
        for len in 0..=24 {
            assert!(!contains(&vec![b'a'; len], 0), "{len}");
            for position in 0..len {
                let mut bytes = vec![b'/'; len];
                bytes[position] = 0;
                assert!(contains(&bytes, 0), "{len} {position}");
            }
        }
    }

    /// A gathered word holds the bytes of the text and no other: for every length up to
    /// eight, with one byte of any value at any position among filler bytes on either side
    /// of the `0x80` line, each test flags the word exactly when some byte of the text
    /// matches, and a high bit is set exactly when some byte is `0x80` or above.
    #[test]
    fn a_gathered_word_holds_exactly_the_bytes_given() {
        assert_eq!(gather(&[], b'a'), ONES * u64::from(b'a'));
        for filler in [b'a', 0x7f, 0x80, 0xff, 0x00] {
            for len in 1..=8 {
                for position in 0..len {
                    for b in 0..=255u8 {
                        let mut bytes = [filler; 8];
                        bytes[position] = b;
                        let text = &bytes[..len];
                        let word = gather(text, b'a');
                        let any = |hit: &dyn Fn(u8) -> bool| text.iter().any(|&x| hit(x));
                        for n in [1u8, 0x20, 0x80] {
                            assert_eq!(below(word, n) != 0, any(&|x| x < n), "{text:?} < {n}");
                        }
                        for c in [b'"', b'/', b'\\', 0x7f, 0] {
                            assert_eq!(equal(word, c) != 0, any(&|x| x == c), "{text:?} == {c}");
                        }
                        assert_eq!(word & HIGH != 0, any(&|x| x >= 0x80), "{text:?}");
                    }
                }
            }
        }
    }

    /// The tests against their byte-by-byte definition, for every byte value at every
    /// position, among filler bytes on either side of the `0x80` line.
    #[test]
    fn word_tests_are_their_bytewise_definitions() {
        for filler in [b'a', 0x7f, 0x80, 0xff, 0x00] {
            for position in 0..8 {
                for b in 0..=255u8 {
                    let mut bytes = [filler; 8];
                    bytes[position] = b;
                    let word = load(&bytes);
                    let first = |hit: &dyn Fn(u8) -> bool| bytes.iter().position(|&x| hit(x));
                    let flagged =
                        |flags: u64| (flags != 0).then(|| flags.trailing_zeros() as usize / 8);
                    for n in [1u8, 0x20, 0x80] {
                        assert_eq!(
                            flagged(below(word, n)),
                            first(&|x| x < n),
                            "{bytes:?} < {n}"
                        );
                    }
                    for c in [b'"', b'/', b'\\', 0x7f, 0] {
                        assert_eq!(
                            flagged(equal(word, c)),
                            first(&|x| x == c),
                            "{bytes:?} == {c}"
                        );
                    }
                }
            }
        }
    }
}
