//! A list of records whose strings share one buffer: the storage of the plan's
//! [`crate::Placements`] and [`crate::Triggers`].
//!
//! A plan lists hundreds of records of a few short strings each (a placement's stem,
//! source and destination; a trigger, its destination and its router's trigger). Owned
//! `String`s cost an allocation apiece, and building and dropping them was most of a whole
//! plan's time (`docs/performance.md`, change 26). Here every record's `N` strings are
//! appended to one `String` and the record keeps where each ends, so a list of any length
//! allocates two buffers (and their growth).
//!
//! A record keeps its ends as `u32` while the text is under 4 GiB (a trigger row takes 20
//! bytes and a placement row 16, against 32 each with `usize` ends), and the whole list
//! switches to `usize` ends the first time a record ends past that, so no length is ever
//! cut short.

/// The width of a record's ends: `u32` in the lists until an end passes it, then `usize`;
/// `u8` in the tests (so that the switch is tested on short strings).
pub(crate) trait Narrow: Copy {
    /// `end` in this width, if it fits.
    fn narrow(end: usize) -> Option<Self>;
    /// `end`, known to fit, in this width.
    fn fitting(end: usize) -> Self;
    /// The end as a `usize`.
    fn wide(self) -> usize;
}

/// [`Narrow`] for an unsigned integer type narrower than `usize`.
macro_rules! narrow_width {
    ($width:ty) => {
        impl Narrow for $width {
            fn narrow(end: usize) -> Option<$width> {
                <$width>::try_from(end).ok()
            }

            #[allow(clippy::cast_possible_truncation, reason = "called on ends that fit")]
            fn fitting(end: usize) -> $width {
                end as $width
            }

            fn wide(self) -> usize {
                usize::try_from(self).unwrap_or(usize::MAX)
            }
        }
    };
}

narrow_width!(u32);
#[cfg(test)]
narrow_width!(u8);

impl Narrow for usize {
    fn narrow(end: usize) -> Option<usize> {
        Some(end)
    }

    fn fitting(end: usize) -> usize {
        end
    }

    fn wide(self) -> usize {
        self
    }
}

/// The record at `index` of `rows` over `text`: its value and its strings.
fn read<'t, M: Copy, const N: usize, E: Narrow>(
    text: &'t str,
    rows: &[Row<M, N, E>],
    index: usize,
) -> Option<(M, [&'t str; N])> {
    let (value, ends) = rows.get(index)?;
    let mut start = match index.checked_sub(1) {
        Some(previous) => rows[previous].1.last().map_or(0, |end| end.wide()),
        None => 0,
    };
    let strings = ends.map(|end| {
        let string = &text[start..end.wide()];
        start = end.wide();
        string
    });
    Some((*value, strings))
}

/// One record's value and the ends of its strings.
type Row<M, const N: usize, E> = (M, [E; N]);

/// The records' values and ends: narrow until an end needs more.
#[derive(Debug, Clone)]
enum Rows<M, const N: usize, O> {
    Narrow(Vec<Row<M, N, O>>),
    Wide(Vec<Row<M, N, usize>>),
}

/// `N` strings and a `Copy` value `M` per record, the strings in one buffer. A record's
/// first string starts where the previous record's last one ends (0 for the first record).
#[derive(Debug, Clone)]
pub(crate) struct Packed<M, const N: usize, O = u32> {
    text: String,
    rows: Rows<M, N, O>,
}

impl<M, const N: usize, O> Default for Packed<M, N, O> {
    fn default() -> Self {
        Packed {
            text: String::new(),
            rows: Rows::Narrow(Vec::new()),
        }
    }
}

/// The record being appended by [`Packed::push`]: each [`Self::field`] call writes the next
/// of its `N` strings.
pub(crate) struct Fields<'a, const N: usize> {
    text: &'a mut String,
    ends: [usize; N],
    next: usize,
}

impl<const N: usize> Fields<'_, N> {
    /// Writes the next string as the concatenation of `parts`.
    pub(crate) fn field(&mut self, parts: &[&str]) {
        self.field_with(|text| {
            for part in parts {
                text.push_str(part);
            }
        });
    }

    /// Writes the next string as whatever `write` appends to the buffer.
    pub(crate) fn field_with(&mut self, write: impl FnOnce(&mut String)) {
        write(self.text);
        if let Some(end) = self.ends.get_mut(self.next) {
            *end = self.text.len();
            self.next += 1;
        }
    }
}

impl<M: Copy, const N: usize, O: Narrow> Packed<M, N, O> {
    /// An empty list with room for `rows` records of `text` bytes in all.
    pub(crate) fn with_capacity(rows: usize, text: usize) -> Self {
        Packed {
            text: String::with_capacity(text),
            rows: if O::narrow(text).is_some() {
                Rows::Narrow(Vec::with_capacity(rows))
            } else {
                Rows::Wide(Vec::with_capacity(rows))
            },
        }
    }

    /// Appends a record: `value`, and the strings `write` writes with [`Fields::field`]
    /// (one it does not write is empty; one written past the `N`th joins the last).
    pub(crate) fn push(&mut self, value: M, write: impl FnOnce(&mut Fields<'_, N>)) {
        let start = self.text.len();
        let mut fields = Fields {
            text: &mut self.text,
            ends: [start; N],
            next: 0,
        };
        write(&mut fields);
        let Fields { mut ends, next, .. } = fields;
        let end = self.text.len();
        for unwritten in &mut ends[next..] {
            *unwritten = end;
        }
        if let Some(last) = ends.last_mut() {
            *last = end;
        }
        self.push_row(value, ends);
    }

    /// Appends one row, widening every row first if `ends` does not fit narrow. A record's
    /// ends never decrease, so its last end decides.
    fn push_row(&mut self, value: M, ends: [usize; N]) {
        if let Rows::Narrow(rows) = &mut self.rows {
            if ends.last().is_none_or(|&last| O::narrow(last).is_some()) {
                rows.push((value, ends.map(O::fitting)));
                return;
            }
            self.widen();
        }
        if let Rows::Wide(rows) = &mut self.rows {
            rows.push((value, ends));
        }
    }

    /// Turns every row's ends into `usize` ends.
    fn widen(&mut self) {
        if let Rows::Narrow(rows) = &self.rows {
            let wide = rows
                .iter()
                .map(|(value, ends)| (*value, ends.map(Narrow::wide)))
                .collect();
            self.rows = Rows::Wide(wide);
        }
    }

    /// Appends every record of `other`, in order.
    pub(crate) fn append(&mut self, other: &Self) {
        let offset = self.text.len();
        self.text.push_str(&other.text);
        for index in 0..other.len() {
            let (value, ends) = other.row(index);
            self.push_row(value, ends.map(|end| end + offset));
        }
    }

    /// Removes every record, keeping the buffers' room.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        match &mut self.rows {
            Rows::Narrow(rows) => rows.clear(),
            Rows::Wide(rows) => rows.clear(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match &self.rows {
            Rows::Narrow(rows) => rows.len(),
            Rows::Wide(rows) => rows.len(),
        }
    }

    /// Every record's value, in order, without its strings.
    pub(crate) fn values(&self) -> impl Iterator<Item = M> + '_ {
        let (narrow, wide) = match &self.rows {
            Rows::Narrow(rows) => (rows.as_slice(), Default::default()),
            Rows::Wide(rows) => (Default::default(), rows.as_slice()),
        };
        let narrow = narrow.iter().map(|(value, _)| *value);
        narrow.chain(wide.iter().map(|(value, _)| *value))
    }

    /// The row at `index` (which must be under [`Self::len`]) with `usize` ends.
    fn row(&self, index: usize) -> (M, [usize; N]) {
        match &self.rows {
            Rows::Narrow(rows) => {
                let (value, ends) = rows[index];
                (value, ends.map(Narrow::wide))
            }
            Rows::Wide(rows) => rows[index],
        }
    }

    /// The record at `index`: its value and its strings.
    pub(crate) fn get(&self, index: usize) -> Option<(M, [&str; N])> {
        match &self.rows {
            Rows::Narrow(rows) => read(&self.text, rows, index),
            Rows::Wide(rows) => read(&self.text, rows, index),
        }
    }
}

impl<M: Copy + PartialEq, const N: usize, O: Narrow> PartialEq for Packed<M, N, O> {
    /// Equal when the records are: the same values and strings, in order (however the
    /// buffers were filled).
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

impl<M: Copy + Eq, const N: usize, O: Narrow> Eq for Packed<M, N, O> {}

/// What every public list over [`Packed`] storage has besides its own `get` and `push`:
/// `append`, `clear`, `len`, `is_empty`, `contains`, `iter` and its iterator type, and the
/// `IntoIterator` (for `&list`), `Extend`, `FromIterator`, `Debug` and `Serialize` impls.
/// `$list` is a tuple struct over a `Packed` with `get(&self, usize) -> Option<$view<'_>>`
/// and `push(&mut self, $view<'_>)`; `$one` names one record in the docs.
macro_rules! packed_list {
    ($list:ident, $view:ident, $iter:ident, $one:literal) => {
        impl $list {
            #[doc = concat!("Appends every ", $one, " of `other`, in order.")]
            pub fn append(&mut self, other: &$list) {
                self.0.append(&other.0);
            }

            #[doc = concat!("Removes every ", $one, ", keeping the buffers' room.")]
            pub fn clear(&mut self) {
                self.0.clear();
            }

            #[doc = concat!("How many ", $one, "s the list has.")]
            #[must_use]
            pub fn len(&self) -> usize {
                self.0.len()
            }

            #[doc = concat!("Whether the list has no ", $one, ".")]
            #[must_use]
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            #[doc = concat!("Whether some ", $one, " of the list equals `record`.")]
            #[must_use]
            pub fn contains(&self, record: &$view<'_>) -> bool {
                self.iter().any(|listed| listed == *record)
            }

            #[doc = concat!("Every ", $one, ", in order.")]
            #[must_use]
            pub fn iter(&self) -> $iter<'_> {
                $iter {
                    list: self,
                    indices: 0..self.len(),
                }
            }
        }

        #[doc = concat!("The ", $one, "s of a list, in order ([`", stringify!($list), "::iter`]).")]
        #[derive(Debug, Clone)]
        pub struct $iter<'l> {
            list: &'l $list,
            indices: std::ops::Range<usize>,
        }

        impl<'l> Iterator for $iter<'l> {
            type Item = $view<'l>;

            fn next(&mut self) -> Option<$view<'l>> {
                self.list.get(self.indices.next()?)
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                self.indices.size_hint()
            }
        }

        impl DoubleEndedIterator for $iter<'_> {
            fn next_back(&mut self) -> Option<Self::Item> {
                self.list.get(self.indices.next_back()?)
            }
        }

        impl ExactSizeIterator for $iter<'_> {}

        impl std::iter::FusedIterator for $iter<'_> {}

        impl<'l> IntoIterator for &'l $list {
            type Item = $view<'l>;
            type IntoIter = $iter<'l>;

            fn into_iter(self) -> $iter<'l> {
                self.iter()
            }
        }

        impl<'a> Extend<$view<'a>> for $list {
            fn extend<I: IntoIterator<Item = $view<'a>>>(&mut self, records: I) {
                for record in records {
                    self.push(record);
                }
            }
        }

        impl<'a> FromIterator<$view<'a>> for $list {
            fn from_iter<I: IntoIterator<Item = $view<'a>>>(records: I) -> Self {
                let mut list = $list::default();
                list.extend(records);
                list
            }
        }

        impl std::fmt::Debug for $list {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.iter()).finish()
            }
        }

        impl serde::Serialize for $list {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_seq(self.iter())
            }
        }
    };
}

pub(crate) use packed_list;

#[cfg(test)]
mod tests {
    use super::*;

    /// Record `i` of the widening tests: three strings of lengths 0 to 12.
    fn fields(i: usize) -> [String; 3] {
        [
            format!("t{i}"),
            "d".repeat(i % 13),
            if i.is_multiple_of(3) {
                String::new()
            } else {
                format!("r{i}")
            },
        ]
    }

    fn push_fields<O: Narrow>(list: &mut Packed<usize, 3, O>, i: usize) {
        let [trigger, dest, router] = fields(i);
        list.push(i, |f| {
            f.field(&[&trigger]);
            f.field(&[&dest]);
            f.field(&[&router]);
        });
    }

    /// Asserts that `list` holds exactly the records `records` names, in order.
    fn reads_as<O: Narrow>(
        list: &Packed<usize, 3, O>,
        records: impl Iterator<Item = usize> + Clone,
    ) {
        let count = records.clone().count();
        assert_eq!(list.len(), count);
        for (index, i) in records.clone().enumerate() {
            let [trigger, dest, router] = fields(i);
            let record = Some((i, [&*trigger, &*dest, &*router]));
            assert_eq!(list.get(index), record, "record {index}");
        }
        assert_eq!(list.get(count), None);
        assert!(list.values().eq(records));
    }

    #[test]
    fn ends_past_the_narrow_width_widen_every_row_and_lose_nothing() {
        // u8 ends hold 255 bytes of text; 100 records write about 1,000.
        let mut list: Packed<usize, 3, u8> = Packed::default();
        for i in 0..100 {
            push_fields(&mut list, i);
            assert_eq!(
                matches!(list.rows, Rows::Narrow(_)),
                list.text.len() <= 255,
                "narrow exactly while the text fits, after record {i}"
            );
        }
        reads_as(&list, 0..100);
        // The same records with u32 ends stay narrow and read the same.
        let mut narrow: Packed<usize, 3, u32> = Packed::default();
        (0..100).for_each(|i| push_fields(&mut narrow, i));
        reads_as(&narrow, 0..100);
        assert!(matches!(narrow.rows, Rows::Narrow(_)));
    }

    #[test]
    fn appending_widens_when_the_joined_text_does_not_fit() {
        // Two lists of 15 records, each under 255 bytes of text.
        let narrow_list = |records: std::ops::Range<usize>| {
            let mut list: Packed<usize, 3, u8> = Packed::default();
            records.for_each(|i| push_fields(&mut list, i));
            assert!(matches!(list.rows, Rows::Narrow(_)), "{}", list.text.len());
            list
        };
        let (first, second) = (narrow_list(0..15), narrow_list(15..30));
        let mut joined = first.clone();
        joined.append(&second);
        assert!(joined.text.len() > 255 && matches!(joined.rows, Rows::Wide(_)));
        reads_as(&joined, 0..30);
        // A wide list appended to a narrow one, and a list made with room past the width.
        let mut again = first.clone();
        again.append(&joined);
        assert!(matches!(again.rows, Rows::Wide(_)));
        reads_as(&again, (0..15).chain(0..30));
        let mut roomy: Packed<usize, 3, u8> = Packed::with_capacity(4, 256);
        assert!(matches!(roomy.rows, Rows::Wide(_)));
        (0..5).for_each(|i| push_fields(&mut roomy, i));
        reads_as(&roomy, 0..5);
        // A wide list stays wide, and reads right, when appended to, cleared and refilled.
        roomy.append(&first);
        assert!(matches!(roomy.rows, Rows::Wide(_)));
        reads_as(&roomy, (0..5).chain(0..15));
        joined.clear();
        assert_eq!(joined, Packed::default());
        (40..45).for_each(|i| push_fields(&mut joined, i));
        assert!(matches!(joined.rows, Rows::Wide(_)));
        reads_as(&joined, 40..45);
    }

    #[test]
    fn every_record_reads_back_as_written() {
        let mut list: Packed<u8, 3> = Packed::default();
        list.push(1, |f| {
            f.field(&["a", "b"]);
            f.field(&[]);
            f.field_with(|t| t.push_str("cde"));
        });
        list.push(2, |f| f.field(&["x"]));
        list.push(3, |f| {
            f.field(&["1"]);
            f.field(&["2"]);
            f.field(&["3"]);
            f.field(&["4"]);
        });
        assert_eq!(list.get(0), Some((1, ["ab", "", "cde"])));
        assert_eq!(list.get(1), Some((2, ["x", "", ""])), "unwritten: empty");
        assert_eq!(
            list.get(2),
            Some((3, ["1", "2", "34"])),
            "past N: joins the last"
        );
        assert_eq!(list.get(3), None);
        assert_eq!(list.len(), 3);
    }

    #[test]
    fn appending_and_equality_go_by_the_records() {
        let mut a: Packed<u8, 2> = Packed::default();
        a.push(1, |f| {
            f.field(&["ab"]);
            f.field(&["c"]);
        });
        let mut b: Packed<u8, 2> = Packed::with_capacity(4, 64);
        b.push(2, |f| {
            f.field(&["d"]);
            f.field(&["ef"]);
        });
        let mut joined = a.clone();
        joined.append(&b);
        assert_eq!(joined.get(0), Some((1, ["ab", "c"])));
        assert_eq!(joined.get(1), Some((2, ["d", "ef"])));
        // The same bytes split at another place are other records.
        let mut split: Packed<u8, 2> = Packed::default();
        split.push(1, |f| {
            f.field(&["a"]);
            f.field(&["bc"]);
        });
        assert_ne!(a, split);
        let mut rebuilt: Packed<u8, 2> = Packed::with_capacity(8, 256);
        rebuilt.append(&a);
        assert_eq!(a, rebuilt);
        rebuilt.clear();
        assert_eq!(rebuilt.len(), 0);
        assert_eq!(rebuilt, Packed::default());
    }
}
