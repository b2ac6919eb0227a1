//! [`Placements`]: every file a plan writes, their strings kept in one buffer
//! ([`crate::packed`]), each read as a borrowed, `Copy` [`Placement`].

use serde::Serialize;

use crate::packed::{Packed, packed_list};
use crate::vocab::{ArtifactKindName, ConverterName};

/// One file the installer writes: a view into its plan's [`Placements`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement<'p> {
    /// The artifact kind.
    pub kind: ArtifactKindName,
    /// The source stem.
    pub stem: &'p str,
    /// Source path relative to the package root (`commands/gsd/<stem>.md`, `agents/<stem>.md`;
    /// `agents/` for the Kimi root agent, which is generated from the whole agent set).
    pub source: &'p str,
    /// Absolute destination, confined to the kind's root.
    pub destination: &'p str,
    /// Body converter by closed name (`None`: copied as is).
    pub converter: Option<ConverterName>,
}

/// What a placement keeps besides its three strings (stem, source, destination).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Meta {
    kind: ArtifactKindName,
    converter: Option<ConverterName>,
}

/// Every file a plan writes, in order: a list of [`Placement`]s read with [`Self::iter`]
/// or [`Self::get`]. Serializes as the JSON array of its placements; two lists are equal
/// when their placements are.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Placements(Packed<Meta, 3>);

impl Placements {
    /// An empty list with room for `rows` placements of `text` bytes in all.
    pub(crate) fn with_capacity(rows: usize, text: usize) -> Self {
        Placements(Packed::with_capacity(rows, text))
    }

    /// Appends one placement: `stem`, then the source and the destination that `source`
    /// and `destination` append to the buffer they are given.
    pub(crate) fn push_with(
        &mut self,
        kind: ArtifactKindName,
        converter: Option<ConverterName>,
        stem: &str,
        source: impl FnOnce(&mut String),
        destination: impl FnOnce(&mut String),
    ) {
        self.0.push(Meta { kind, converter }, |fields| {
            fields.field(&[stem]);
            fields.field_with(source);
            fields.field_with(destination);
        });
    }

    /// Appends a copy of `placement`.
    pub fn push(&mut self, placement: Placement<'_>) {
        self.push_with(
            placement.kind,
            placement.converter,
            placement.stem,
            |text| text.push_str(placement.source),
            |text| text.push_str(placement.destination),
        );
    }

    /// The placement at `index`, if there is one.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<Placement<'_>> {
        let (meta, [stem, source, destination]) = self.0.get(index)?;
        Some(Placement {
            kind: meta.kind,
            stem,
            source,
            destination,
            converter: meta.converter,
        })
    }
}

packed_list!(Placements, Placement, PlacementIter, "placement");

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(i: usize) -> (String, String, String) {
        (
            format!("gsd-{i}"),
            format!("commands/gsd/gsd-{i}.md"),
            format!("/home/u/.claude/commands/gsd/gsd-{i}.md"),
        )
    }

    fn view(s: &(String, String, String), kind: ArtifactKindName) -> Placement<'_> {
        Placement {
            kind,
            stem: &s.0,
            source: &s.1,
            destination: &s.2,
            converter: None,
        }
    }

    #[test]
    fn every_placement_reads_back_as_pushed() {
        let owned: Vec<_> = (0..5).map(sample).collect();
        let list: Placements = owned
            .iter()
            .map(|s| view(s, ArtifactKindName::Commands))
            .collect();
        assert_eq!(list.len(), 5);
        assert!(!list.is_empty());
        for (i, s) in owned.iter().enumerate() {
            assert_eq!(list.get(i), Some(view(s, ArtifactKindName::Commands)));
        }
        assert_eq!(list.get(5), None);
        let forward: Vec<_> = list.iter().map(|p| p.stem).collect();
        assert_eq!(forward, ["gsd-0", "gsd-1", "gsd-2", "gsd-3", "gsd-4"]);
        let backward: Vec<_> = list.iter().rev().map(|p| p.stem).collect();
        assert_eq!(backward, ["gsd-4", "gsd-3", "gsd-2", "gsd-1", "gsd-0"]);
        let mut both = list.iter();
        assert_eq!(both.len(), 5);
        assert_eq!(both.next().map(|p| p.stem), Some("gsd-0"));
        assert_eq!(both.next_back().map(|p| p.stem), Some("gsd-4"));
        assert_eq!(both.len(), 3);
        assert_eq!(both.count(), 3);
    }

    #[test]
    fn an_appended_list_keeps_its_strings() {
        let owned: Vec<_> = (0..4).map(sample).collect();
        let mut first: Placements = owned[..2]
            .iter()
            .map(|s| view(s, ArtifactKindName::Commands))
            .collect();
        let second: Placements = owned[2..]
            .iter()
            .map(|s| view(s, ArtifactKindName::Agents))
            .collect();
        first.append(&second);
        let expected: Vec<_> = owned
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let kind = if i < 2 {
                    ArtifactKindName::Commands
                } else {
                    ArtifactKindName::Agents
                };
                view(s, kind)
            })
            .collect();
        assert_eq!(first.iter().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn equal_lists_compare_equal_however_they_were_built() {
        let owned: Vec<_> = (0..3).map(sample).collect();
        let pushed: Placements = owned
            .iter()
            .map(|s| view(s, ArtifactKindName::Skills))
            .collect();
        let mut roomy = Placements::with_capacity(10, 4096);
        roomy.append(&pushed);
        assert_eq!(pushed, roomy);
        let shorter: Placements = owned[..2]
            .iter()
            .map(|s| view(s, ArtifactKindName::Skills))
            .collect();
        assert_ne!(pushed, shorter);
        let other_kind: Placements = owned
            .iter()
            .map(|s| view(s, ArtifactKindName::Commands))
            .collect();
        assert_ne!(pushed, other_kind);
    }

    #[test]
    fn serializes_as_the_array_of_its_placements() {
        let owned = sample(7);
        let list: Placements = [view(&owned, ArtifactKindName::Commands)]
            .into_iter()
            .collect();
        assert_eq!(
            serde_json::to_value(&list).expect("serializes"),
            serde_json::json!([{
                "kind": "commands",
                "stem": "gsd-7",
                "source": "commands/gsd/gsd-7.md",
                "destination": "/home/u/.claude/commands/gsd/gsd-7.md",
                "converter": null,
            }])
        );
        assert_eq!(
            format!("{list:?}"),
            format!("[{:?}]", view(&owned, ArtifactKindName::Commands))
        );
    }
}
