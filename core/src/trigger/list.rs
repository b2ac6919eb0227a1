//! [`Triggers`]: a trigger surface spelled out, the strings of every candidate kept in one
//! buffer ([`crate::packed`]), each read as a borrowed, `Copy` [`Trigger`].

use serde::Serialize;

use crate::packed::{Packed, packed_list};
use crate::vocab::{Scope, TriggerKind};

use super::{Registration, ShadowedBy, TriggerParts};

/// One trigger candidate: a view into its [`Triggers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trigger<'t> {
    /// What the user types (without `/`): `prefix + stem`.
    pub trigger: &'t str,
    /// The artifact kind bearing it.
    pub kind: TriggerKind,
    /// The scope it is installed at.
    pub scope: Scope,
    /// Destination relative to the config directory (`\` read as `/`); for `via-router`
    /// skills this is still the flat path, as the peer reports it.
    pub dest_path: &'t str,
    /// Direct or via a router.
    pub registration: Registration,
    /// The router's trigger when `via-router`.
    pub router_trigger: Option<&'t str>,
    /// The winner, when this candidate loses; `None` for winners.
    pub shadowed_by: Option<ShadowedBy>,
}

/// What a trigger keeps besides its three strings (trigger, destination, router's
/// trigger, the last empty when `routed` is false).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Meta {
    kind: TriggerKind,
    scope: Scope,
    registration: Registration,
    routed: bool,
    shadowed_by: Option<ShadowedBy>,
}

/// Trigger candidates in emission order: a list of [`Trigger`]s read with [`Self::iter`]
/// or [`Self::get`]. Serializes as the JSON array of its triggers; two lists are equal when
/// their triggers are.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Triggers(Packed<Meta, 3>);

impl Triggers {
    /// An empty list with room for `rows` triggers of `text` bytes in all.
    pub(crate) fn with_capacity(rows: usize, text: usize) -> Self {
        Triggers(Packed::with_capacity(rows, text))
    }

    /// Appends a copy of `trigger`.
    pub fn push(&mut self, trigger: Trigger<'_>) {
        let meta = Meta {
            kind: trigger.kind,
            scope: trigger.scope,
            registration: trigger.registration,
            routed: trigger.router_trigger.is_some(),
            shadowed_by: trigger.shadowed_by,
        };
        self.0.push(meta, |fields| {
            fields.field(&[trigger.trigger]);
            fields.field(&[trigger.dest_path]);
            fields.field(&[trigger.router_trigger.unwrap_or_default()]);
        });
    }

    /// Appends the candidate `parts` spells out: the trigger is `prefix + stem`, the
    /// destination `dest_head + stem + dest_ext`, the router's trigger `prefix + router`.
    pub fn push_parts(&mut self, parts: &TriggerParts<'_>) {
        let meta = Meta {
            kind: parts.kind,
            scope: parts.scope,
            registration: parts.registration(),
            routed: parts.router.is_some(),
            shadowed_by: parts.shadowed_by,
        };
        self.0.push(meta, |fields| {
            fields.field(&[parts.prefix, parts.stem]);
            fields.field(&[parts.dest_head, parts.stem, parts.dest_ext]);
            if let Some(router) = parts.router {
                fields.field(&[parts.prefix, router]);
            }
        });
    }

    /// The candidates that lose, each with its winner, in order: [`Self::iter`] filtered
    /// on `shadowed_by` before a record is read.
    pub(crate) fn shadowed(&self) -> impl Iterator<Item = (Trigger<'_>, ShadowedBy)> {
        self.0.values().enumerate().filter_map(|(index, meta)| {
            let by = meta.shadowed_by?;
            Some((self.get(index)?, by))
        })
    }

    /// How many candidates lose ([`Self::shadowed`]'s length).
    pub(crate) fn shadowed_count(&self) -> usize {
        self.0
            .values()
            .filter(|meta| meta.shadowed_by.is_some())
            .count()
    }

    /// The trigger at `index`, if there is one.
    #[must_use]
    pub fn get(&self, index: usize) -> Option<Trigger<'_>> {
        let (meta, [trigger, dest_path, router_trigger]) = self.0.get(index)?;
        Some(Trigger {
            trigger,
            kind: meta.kind,
            scope: meta.scope,
            dest_path,
            registration: meta.registration,
            router_trigger: meta.routed.then_some(router_trigger),
            shadowed_by: meta.shadowed_by,
        })
    }
}

packed_list!(Triggers, Trigger, TriggerIter, "trigger");

#[cfg(test)]
mod tests {
    use super::*;

    fn direct(trigger: &'static str) -> Trigger<'static> {
        Trigger {
            trigger,
            kind: TriggerKind::Skills,
            scope: Scope::Global,
            dest_path: "skills/x",
            registration: Registration::Direct,
            router_trigger: None,
            shadowed_by: None,
        }
    }

    #[test]
    fn every_trigger_reads_back_as_pushed() {
        let routed = Trigger {
            trigger: "gsd-child",
            kind: TriggerKind::Commands,
            scope: Scope::Local,
            dest_path: "commands/gsd/child.md",
            registration: Registration::ViaRouter,
            router_trigger: Some("gsd-ns-router"),
            shadowed_by: Some(ShadowedBy {
                kind: TriggerKind::Skills,
                scope: Scope::Global,
            }),
        };
        // An empty router trigger is still a router trigger.
        let empty_router = Trigger {
            router_trigger: Some(""),
            ..direct("gsd-b")
        };
        let list: Triggers = [direct("gsd-a"), routed, empty_router]
            .into_iter()
            .collect();
        assert_eq!(list.len(), 3);
        assert_eq!(list.get(0), Some(direct("gsd-a")));
        assert_eq!(list.get(1), Some(routed));
        assert_eq!(list.get(2), Some(empty_router));
        assert_eq!(list.get(3), None);
        assert_eq!(
            list.iter().rev().map(|t| t.trigger).collect::<Vec<_>>(),
            ["gsd-b", "gsd-child", "gsd-a"]
        );
        let mut twice = list.clone();
        twice.append(&list);
        assert_eq!(twice.iter().skip(3).collect::<Triggers>(), list);
        assert_ne!(twice, list);
        twice.clear();
        assert!(twice.is_empty());
    }

    #[test]
    fn the_shadowed_are_the_losers_in_order() {
        let by = |scope| ShadowedBy {
            kind: TriggerKind::Skills,
            scope,
        };
        let list: Triggers = [
            direct("gsd-a"),
            Trigger {
                shadowed_by: Some(by(Scope::Global)),
                ..direct("gsd-b")
            },
            direct("gsd-c"),
            Trigger {
                shadowed_by: Some(by(Scope::Local)),
                ..direct("gsd-d")
            },
        ]
        .into_iter()
        .collect();
        let expected: Vec<_> = list
            .iter()
            .filter_map(|t| Some((t, t.shadowed_by?)))
            .collect();
        assert_eq!(list.shadowed().collect::<Vec<_>>(), expected);
        assert_eq!(
            expected.iter().map(|(t, _)| t.trigger).collect::<Vec<_>>(),
            ["gsd-b", "gsd-d"]
        );
        assert_eq!(list.shadowed_count(), 2);
    }

    #[test]
    fn parts_spell_the_record_the_surface_reports() {
        let parts = TriggerParts {
            entry: 0,
            prefix: "gsd-",
            stem: "help",
            kind: TriggerKind::Skills,
            scope: Scope::Global,
            dest_head: "skills/gsd-",
            dest_ext: "",
            router: Some("ns-review"),
            shadowed_by: None,
        };
        let mut list = Triggers::default();
        list.push_parts(&parts);
        list.push_parts(&TriggerParts {
            router: None,
            dest_head: "commands/gsd/",
            dest_ext: ".md",
            kind: TriggerKind::Commands,
            ..parts
        });
        assert_eq!(
            serde_json::to_value(&list).expect("serializes"),
            serde_json::json!([
                {
                    "trigger": "gsd-help", "kind": "skills", "scope": "global",
                    "destPath": "skills/gsd-help", "registration": "via-router",
                    "routerTrigger": "gsd-ns-review", "shadowedBy": null,
                },
                {
                    "trigger": "gsd-help", "kind": "commands", "scope": "global",
                    "destPath": "commands/gsd/help.md", "registration": "direct",
                    "routerTrigger": null, "shadowedBy": null,
                },
            ])
        );
    }
}
