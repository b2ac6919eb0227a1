//! Plan records as rows: each record's values in its field order, without keys, for the
//! lists JS fills on first access. `JSON.parse` of keyed objects is most of the cost of a
//! list on the JS side (the 72 trigger records of a claude plan: 12.5 KB of JSON, about
//! 5.7 KB as rows, parsed in about half the time); `index.js` rebuilds each record as an
//! object literal with the keys in the same order, so the values equal the plan's.
//!
//! When no value holds a NUL or U+0001, placement rows cross as *fields* instead of JSON:
//! one text that starts with NUL, then every value of every row, each followed by NUL,
//! with `null` written as U+0001 (see [`placement_fields`]). JS splits it with one
//! `String.prototype.split` (about 2.5x faster than `JSON.parse` of the same rows,
//! measured on the 72 trigger rows of a claude plan), and nothing is escaped here.
//!
//! Triggers cross as *segments* ([`trigger_segments`]): every string of a trigger is a
//! concatenation of a few pieces most triggers share, so the pieces cross once and each
//! trigger as ten one-character codes, written from the core's [`gsd_core::TriggerParts`]
//! without building the strings here at all. When the stems are the inventory's own
//! list, which `index.js` holds, they do not cross either.

use gsd_core::{Placement, Placements, Trigger, Triggers};
use serde::Serialize;

/// A placement as `[kind, stem, source, destination, converter]`.
type PlacementRow<'a> = (
    gsd_core::vocab::ArtifactKindName,
    &'a str,
    &'a str,
    &'a str,
    Option<gsd_core::vocab::ConverterName>,
);

/// A trigger as `[trigger, kind, scope, destPath, registration, routerTrigger,
/// shadowedBy.kind, shadowedBy.scope]` (the last two `null` for a winner).
type TriggerRow<'a> = (
    &'a str,
    gsd_core::vocab::TriggerKind,
    gsd_core::Scope,
    &'a str,
    gsd_core::Registration,
    Option<&'a str>,
    Option<gsd_core::vocab::TriggerKind>,
    Option<gsd_core::Scope>,
);

/// One placement as a row.
fn placement_row(p: Placement<'_>) -> PlacementRow<'_> {
    // Destructured in full so a field added to `Placement` fails to compile here.
    let Placement {
        kind,
        stem,
        source,
        destination,
        converter,
    } = p;
    (kind, stem, source, destination, converter)
}

/// One trigger as a row.
fn trigger_row(t: Trigger<'_>) -> TriggerRow<'_> {
    // Destructured in full so a field added to `Trigger` fails to compile here.
    let Trigger {
        trigger,
        kind,
        scope,
        dest_path,
        registration,
        router_trigger,
        shadowed_by,
    } = t;
    (
        trigger,
        kind,
        scope,
        dest_path,
        registration,
        router_trigger,
        shadowed_by.map(|b| b.kind),
        shadowed_by.map(|b| b.scope),
    )
}

/// The rows of a list of placements.
pub fn placements(list: &Placements) -> impl Serialize + '_ {
    list.iter().map(placement_row).collect::<Vec<_>>()
}

/// The rows of a list of triggers.
pub fn triggers(list: &Triggers) -> impl Serialize + '_ {
    list.iter().map(trigger_row).collect::<Vec<_>>()
}

/// What `null` is written as in fields text.
const NULL: char = '\u{1}';

/// Fields text under construction: `None` once a value cannot be written (it holds NUL or
/// U+0001), so the caller sends JSON rows instead.
struct Fields(Option<String>);

impl Fields {
    fn with_capacity(bytes: usize) -> Self {
        let mut text = String::with_capacity(bytes);
        text.push('\0');
        Fields(Some(text))
    }

    fn value(&mut self, value: Option<&str>) {
        let Some(text) = &mut self.0 else { return };
        match value {
            Some(v) if v.contains(['\0', NULL]) => self.0 = None,
            Some(v) => {
                text.push_str(v);
                text.push('\0');
            }
            None => {
                text.push(NULL);
                text.push('\0');
            }
        }
    }
}

/// The kebab-case name serde gives a [`gsd_core::Registration`].
fn registration_name(registration: gsd_core::Registration) -> &'static str {
    match registration {
        gsd_core::Registration::Direct => "direct",
        gsd_core::Registration::ViaRouter => "via-router",
    }
}

/// The placement rows as fields text (five per placement), or `None` when a value holds
/// NUL or U+0001.
pub fn placement_fields(list: &Placements) -> Option<String> {
    let mut out = Fields::with_capacity(list.len() * 96);
    for p in list {
        let (kind, stem, source, destination, converter) = placement_row(p);
        out.value(Some(kind.as_str()));
        out.value(Some(stem));
        out.value(Some(source));
        out.value(Some(destination));
        out.value(converter.map(gsd_core::vocab::ConverterName::as_str));
    }
    out.0
}

/// The first character of segments text (see [`trigger_segments`]).
pub const SEGMENTS: u8 = 0x02;

/// The first character of segments text that leaves the stems to the reader (see
/// [`trigger_segments`]).
pub const SEGMENTS_HELD_STEMS: u8 = 0x03;

/// The pieces of segments text after the stems (few: the entries' prefixes, destination
/// heads and extensions, the kinds, scopes and registrations, the routers), each once.
struct Table<'s> {
    /// The code of the first piece: 2 + the number of stems the text carries (none when
    /// the reader holds them).
    first: u32,
    pieces: Vec<&'s str>,
    /// Where each piece sits, from its code; empty while the table has at most
    /// [`SCANNED_PIECES`] pieces, which are searched in order instead.
    codes: std::collections::HashMap<&'s str, u32>,
    /// The last value looked up, per code slot: consecutive candidates share most values,
    /// so most look-ups end here.
    last: [Option<(&'s str, u32)>; CODES],
}

/// Codes per trigger in segments text.
const CODES: usize = 10;

/// Tables of at most this many pieces are searched piece by piece: a plan's table holds a
/// few kinds, scopes, prefixes, destination heads and routers, and comparing them costs
/// less than hashing the value looked up. Larger tables (many routers) are indexed.
const SCANNED_PIECES: usize = 32;

/// The slot of the stem's code among a trigger's [`CODES`].
const STEM_SLOT: usize = 4;

impl<'s> Table<'s> {
    /// The code of `value` in slot `slot`, added to the table on first use.
    #[inline]
    fn code(&mut self, slot: usize, value: &'s str) -> u32 {
        // Most values are the very same slice as the last one (a `&'static str` of the
        // vocabulary, an entry's prefix or destination head): compared by address first.
        if let Some((last, code)) = self.last[slot]
            && (std::ptr::eq(last, value) || last == value)
        {
            return code;
        }
        let code = match self.find(value) {
            Some(code) => code,
            None => self.add(value),
        };
        self.last[slot] = Some((value, code));
        code
    }

    /// The code of a piece already in the table.
    fn find(&self, value: &str) -> Option<u32> {
        if self.codes.is_empty() {
            let index = self.pieces.iter().position(|p| *p == value)?;
            return Some(self.code_at(index));
        }
        self.codes.get(value).copied()
    }

    /// Adds a piece the table does not hold; its code.
    fn add(&mut self, value: &'s str) -> u32 {
        let code = self.code_at(self.pieces.len());
        self.pieces.push(value);
        if self.pieces.len() > SCANNED_PIECES {
            if self.codes.is_empty() {
                let first = self.first;
                self.codes
                    .extend(self.pieces.iter().zip(first..).map(|(p, c)| (*p, c)));
            } else {
                self.codes.insert(value, code);
            }
        }
        code
    }

    /// The code of the piece at `index` (`u32::MAX` past any code, which the writer
    /// refuses).
    fn code_at(&self, index: usize) -> u32 {
        u32::try_from(index)
            .ok()
            .and_then(|i| i.checked_add(self.first))
            .unwrap_or(u32::MAX)
    }

    /// The code of an optional value (`None` is 1, the `null` slot).
    fn optional(&mut self, slot: usize, value: Option<&'s str>) -> u32 {
        value.map_or(1, |v| self.code(slot, v))
    }
}

/// The trigger surface as *segments* text, or `None` when a value holds NUL or the table
/// would need codes past U+D7FF (JSON rows then). Every string of the surface is built
/// from a few pieces, most of them shared by many triggers (the stems, the entries'
/// prefixes and destination heads, the vocabulary), so the text sends each piece once and
/// each trigger as ten codes, one character each, naming pieces by their index in the
/// table: `U+0002`, the codes, then `NUL` and a piece for every table entry from index 1
/// (index 1 is empty and stands for `null`). JS splits it once (`T = text.split('\0')`,
/// the codes are `T[0]` after the marker) and builds each record by concatenating
/// pieces: `trigger = T[prefix] + T[stem]`, `destPath = T[destHead] + T[stem] +
/// T[destExt]`, `routerTrigger = T[prefix] + T[router]` (or `null`), `kind`, `scope`,
/// `registration` and `shadowedBy.{kind, scope}` (or `null`) as pieces. The codes of a
/// trigger, in order: kind, scope, registration, prefix, stem, destHead, destExt, router,
/// shadowedBy.kind, shadowedBy.scope.
///
/// `held` is the list the reader already holds (`index.js` keeps the commands of every
/// inventory it built). When the surface's stems are that very list
/// ([`gsd_core::TriggerSurface::stems_are`]), the text leaves them out: `U+0003`, nine
/// codes per trigger (the ten above without the stem's: candidate `i`'s stem is
/// `held[i % held.len()]`), then the pieces, the first at index 2. Otherwise (a profile's
/// pick, a list with duplicates) the stems are sent as above.
pub fn trigger_segments(surface: &gsd_core::TriggerSurface<'_>, held: &[String]) -> Option<String> {
    let send_stems = !surface.stems_are(held);
    segments(surface.stem_count(), surface.len(), send_stems, |visit| {
        surface.for_each(visit);
    })
}

/// [`trigger_segments`], with or without the stems (`send_stems`), of `len`
/// candidates over `n` stems, given in emission order (stem `i % n` of entry `i / n`).
fn segments<'s>(
    n: usize,
    len: usize,
    send_stems: bool,
    candidates: impl FnOnce(&mut dyn FnMut(&gsd_core::TriggerParts<'s>)),
) -> Option<String> {
    // Past U+D7FF a code would be a surrogate (or two UTF-16 units): JSON rows then.
    let first = if send_stems {
        u32::try_from(n + 2).ok().filter(|f| *f < 0xD800)?
    } else {
        2
    };
    let mut table = Table {
        first,
        pieces: Vec::new(),
        codes: std::collections::HashMap::new(),
        last: [None; CODES],
    };
    let mut stems: Vec<&str> = Vec::with_capacity(if send_stems { n } else { 0 });
    let (marker, capacity) = if send_stems {
        (SEGMENTS, 1 + len * CODES + 16 * n)
    } else {
        (SEGMENTS_HELD_STEMS, 1 + len * (CODES - 1) + 128)
    };
    let mut text: Vec<u8> = Vec::with_capacity(capacity);
    text.push(marker);
    let mut stem = 2;
    // The codes every candidate of one layout entry shares: kind, scope, prefix,
    // destination head and extension.
    let mut entry: Option<(usize, [u32; 5])> = None;
    // Set when a code is past U+D7FF.
    let mut refused = false;
    candidates(&mut |t| {
        let [kind, scope, prefix, head, ext] = match entry {
            Some((index, codes)) if index == t.entry => codes,
            _ => {
                let codes = [
                    table.code(0, t.kind.as_str()),
                    table.code(1, t.scope.as_str()),
                    table.code(3, t.prefix),
                    table.code(5, t.dest_head),
                    table.code(6, t.dest_ext),
                ];
                entry = Some((t.entry, codes));
                codes
            }
        };
        if send_stems && stems.len() < n {
            stems.push(t.stem);
        }
        let by = t.shadowed_by;
        let codes = [
            kind,
            scope,
            table.code(2, registration_name(t.registration())),
            prefix,
            stem,
            head,
            ext,
            table.optional(7, t.router),
            table.optional(8, by.map(|b| b.kind.as_str())),
            table.optional(9, by.map(|b| b.scope.as_str())),
        ];
        // Codes below 0x80 (every code of a table of fewer than 126 pieces) are one byte
        // each: the trigger's codes are then copied in one go.
        let mut bytes = [0u8; CODES];
        for (byte, code) in bytes.iter_mut().zip(codes) {
            *byte = u8::try_from(code).unwrap_or(u8::MAX);
        }
        if bytes.iter().all(|b| *b < 0x80) {
            if send_stems {
                text.extend_from_slice(&bytes);
            } else {
                text.extend_from_slice(&bytes[..STEM_SLOT]);
                text.extend_from_slice(&bytes[STEM_SLOT + 1..]);
            }
        } else {
            for (slot, code) in codes.into_iter().enumerate() {
                if slot == STEM_SLOT && !send_stems {
                    continue;
                }
                match char::from_u32(code).filter(|c| u32::from(*c) < 0xD800) {
                    Some(c) => text.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
                    None => refused = true,
                }
            }
        }
        if send_stems {
            stem = if stem + 1 == first { 2 } else { stem + 1 };
        }
    });
    if refused {
        return None;
    }
    text.push(0);
    let pieces = text.len();
    for piece in stems.iter().chain(&table.pieces) {
        text.push(0);
        text.extend_from_slice(piece.as_bytes());
    }
    // Each piece is written after one NUL (which ends the slot before it: the codes'
    // NUL above ends `T[0]`, the first here the empty slot), so more NULs than pieces
    // means a piece holds one.
    #[allow(clippy::naive_bytecount)] // Reason: one pass over about 1 KB; no crate for it.
    let nuls = text[pieces..].iter().filter(|b| **b == 0).count();
    if nuls != stems.len() + table.pieces.len() {
        return None;
    }
    String::from_utf8(text).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    /// The plan of `runtime` at `scope` for home `home` over a small inventory with a
    /// router and its routed child.
    fn plan_of(
        runtime: &str,
        scope: gsd_core::Scope,
        home: &str,
    ) -> Result<gsd_core::Plan, gsd_core::Error> {
        let request = gsd_core::PlanRequest {
            runtime: runtime.to_owned(),
            scope,
            host: gsd_core::Host::new(home, "/work/p"),
            explicit_dir: None,
            commands: ["plan-phase", "help", "ns-workflow", "child-a"]
                .map(str::to_owned)
                .to_vec(),
            agents: vec!["gsd-planner".to_owned()],
            router_stems: vec!["ns-workflow".to_owned()],
            child_to_routers: [("child-a".to_owned(), vec!["ns-workflow".to_owned()])].into(),
            profile: None,
        };
        gsd_core::resolve_install_plan(gsd_core::Registry::first_party(), &request)
    }

    /// Rows read back from fields text, `width` values each.
    fn from_fields(text: &str, width: usize) -> Vec<Value> {
        let body = text
            .strip_prefix('\0')
            .expect("fields text starts with NUL");
        let body = body.strip_suffix('\0').unwrap_or(body);
        let values: Vec<Value> = if body.is_empty() {
            Vec::new()
        } else {
            body.split('\0')
                .map(|v| {
                    if v == "\u{1}" {
                        Value::Null
                    } else {
                        Value::String(v.to_owned())
                    }
                })
                .collect()
        };
        assert_eq!(values.len() % width, 0);
        values
            .chunks(width)
            .map(|row| Value::Array(row.to_vec()))
            .collect()
    }

    #[test]
    fn fields_are_the_json_rows_for_every_runtime_and_scope() {
        let registry = gsd_core::Registry::first_party();
        let mut checked = 0;
        let mut shadowed = 0;
        let mut routed = 0;
        let mut converted = 0;
        for runtime in registry.runtime_ids() {
            for scope in [gsd_core::Scope::Global, gsd_core::Scope::Local] {
                let Ok(plan) = plan_of(runtime, scope, "/home/u") else {
                    continue;
                };
                let placements = super::placement_fields(&plan.placements).expect("plain values");
                assert_eq!(
                    Value::Array(from_fields(&placements, 5)),
                    serde_json::to_value(super::placements(&plan.placements)).expect("serializes"),
                    "{runtime} {scope:?}"
                );
                shadowed += plan
                    .triggers
                    .iter()
                    .filter(|t| t.shadowed_by.is_some())
                    .count();
                routed += plan
                    .triggers
                    .iter()
                    .filter(|t| t.router_trigger.is_some())
                    .count();
                converted += plan
                    .placements
                    .iter()
                    .filter(|p| p.converter.is_some())
                    .count();
                checked += 1;
            }
        }
        assert!(checked >= 36, "{checked}");
        assert!(
            shadowed > 0 && routed > 0 && converted > 0,
            "{shadowed} {routed} {converted}"
        );
    }

    /// Rows read back from segments text as `index.js` reads it: ten codes per trigger,
    /// or, with `held` (U+0003), nine and candidate `i` bearing `held[i % held.len()]`.
    fn from_segments(text: &str, held: Option<&[String]>) -> Vec<Value> {
        let t: Vec<&str> = text.split('\0').collect();
        let marker = char::from(if held.is_some() {
            super::SEGMENTS_HELD_STEMS
        } else {
            super::SEGMENTS
        });
        let codes: Vec<usize> = t[0]
            .strip_prefix(marker)
            .expect("segments text starts with its marker")
            .chars()
            .map(|c| c as usize)
            .collect();
        assert_eq!(t[1], "", "index 1 is the empty slot");
        let piece = |code: usize| Value::String(t[code].to_owned());
        let optional = |code: usize, value: Value| if code == 1 { Value::Null } else { value };
        let width = super::CODES - usize::from(held.is_some());
        codes
            .chunks(width)
            .enumerate()
            .map(|(i, c)| {
                // The codes after the stem's slot, and the stem.
                let (rest, stem) = match held {
                    Some(stems) => (&c[super::STEM_SLOT..], stems[i % stems.len()].as_str()),
                    None => (&c[super::STEM_SLOT + 1..], t[c[super::STEM_SLOT]]),
                };
                Value::Array(vec![
                    Value::String(format!("{}{stem}", t[c[3]])),
                    piece(c[0]),
                    piece(c[1]),
                    Value::String(format!("{}{stem}{}", t[rest[0]], t[rest[1]])),
                    piece(c[2]),
                    optional(rest[2], Value::String(format!("{}{}", t[c[3]], t[rest[2]]))),
                    optional(rest[3], piece(rest[3])),
                    optional(rest[4], piece(rest[4])),
                ])
            })
            .collect()
    }

    /// The trigger segments of the decision of `runtime` at `scope` over `commands` (one
    /// router, `ns-workflow`, owning `child-a`), with its triggers; see [`Segments`].
    fn segments_of(
        runtime: &str,
        scope: gsd_core::Scope,
        commands: Vec<String>,
    ) -> Option<Segments> {
        let routers = [("child-a".to_owned(), vec!["ns-workflow".to_owned()])].into();
        routed_segments_of(runtime, scope, commands, routers)
    }

    /// [`segments_of`] with the routers `child_to_routers` names.
    fn routed_segments_of(
        runtime: &str,
        scope: gsd_core::Scope,
        commands: Vec<String>,
        child_to_routers: std::collections::BTreeMap<String, Vec<String>>,
    ) -> Option<Segments> {
        let registry = gsd_core::Registry::first_party();
        let host = gsd_core::Host::new("/home/u", "/work/p");
        let router_stems: std::collections::BTreeSet<String> =
            child_to_routers.values().flatten().cloned().collect();
        let inventory = gsd_core::Inventory::new(
            commands,
            vec!["gsd-planner".to_owned()],
            router_stems.into_iter().collect(),
            child_to_routers,
        )
        .expect("valid stems");
        let decision =
            gsd_core::decide_install_plan(registry, runtime, scope, &host, None, &inventory, None)
                .ok()?;
        let surface = decision.trigger_surface();
        let copy = inventory.commands().to_vec();
        Some(Segments {
            sent: super::segments(surface.stem_count(), surface.len(), true, |visit| {
                surface.for_each(visit);
            }),
            held: super::trigger_segments(&surface, inventory.commands()),
            over_copy: super::trigger_segments(&surface, &copy),
            triggers: decision.triggers(),
        })
    }

    /// The forms of one trigger surface.
    struct Segments {
        /// With the stems.
        sent: Option<String>,
        /// Over the inventory's own list: without the stems.
        held: Option<String>,
        /// Over an equal copy of that list, which is not the surface's own.
        over_copy: Option<String>,
        triggers: gsd_core::Triggers,
    }

    /// Both segment forms of `forms` read back as the JSON rows of its triggers (the held
    /// form's stems being `commands`); the two texts, stems sent first.
    fn both_forms_are_the_rows(
        forms: &Segments,
        commands: &[String],
        case: &str,
    ) -> (String, String) {
        let rows = serde_json::to_value(super::triggers(&forms.triggers)).expect("serializes");
        let sent = forms.sent.clone().expect("no NUL, a small table");
        assert_eq!(Value::Array(from_segments(&sent, None)), rows, "{case}");
        let held = forms.held.clone().expect("no NUL");
        assert_eq!(
            Value::Array(from_segments(&held, Some(commands))),
            rows,
            "{case}, stems held"
        );
        (sent, held)
    }

    #[test]
    fn segments_are_the_json_rows_for_every_runtime_and_scope_with_or_without_stems() {
        let registry = gsd_core::Registry::first_party();
        let commands = ["plan-phase", "help", "ns-workflow", "child-a"]
            .map(str::to_owned)
            .to_vec();
        let (mut checked, mut shadowed, mut routed) = (0, 0, 0);
        for runtime in registry.runtime_ids() {
            for scope in [gsd_core::Scope::Global, gsd_core::Scope::Local] {
                let Some(forms) = segments_of(runtime, scope, commands.clone()) else {
                    continue;
                };
                let (sent, _) =
                    both_forms_are_the_rows(&forms, &commands, &format!("{runtime} {scope:?}"));
                // An equal list that is not the surface's own: the stems cross.
                assert_eq!(forms.over_copy, Some(sent), "{runtime} {scope:?}");
                let triggers = forms.triggers;
                shadowed += triggers.iter().filter(|t| t.shadowed_by.is_some()).count();
                routed += triggers
                    .iter()
                    .filter(|t| t.router_trigger.is_some())
                    .count();
                checked += 1;
            }
        }
        assert!(checked >= 36, "{checked}");
        assert!(shadowed > 0 && routed > 0, "{shadowed} {routed}");
    }

    /// A table of more pieces than are searched in order (one router per routed child
    /// here) is indexed: its codes still name the pieces the rows hold, in both forms.
    #[test]
    fn segments_of_many_routers_are_the_json_rows() {
        let registry = gsd_core::Registry::first_party();
        let children: Vec<String> = (0..40).map(|i| format!("child-{i}")).collect();
        let mut commands: Vec<String> = (0..40).map(|i| format!("ns-r{i}")).collect();
        commands.extend(children.iter().cloned());
        let routers = children
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clone(), vec![format!("ns-r{i}")]))
            .collect::<std::collections::BTreeMap<_, _>>();
        let mut indexed = 0;
        for runtime in registry.runtime_ids() {
            for scope in [gsd_core::Scope::Global, gsd_core::Scope::Local] {
                let Some(forms) =
                    routed_segments_of(runtime, scope, commands.clone(), routers.clone())
                else {
                    continue;
                };
                let (_, held) =
                    both_forms_are_the_rows(&forms, &commands, &format!("{runtime} {scope:?}"));
                // Pieces after the codes and the empty slot.
                if held.split('\0').count() - 2 > super::SCANNED_PIECES {
                    indexed += 1;
                }
            }
        }
        assert!(indexed > 0, "no table went past {}", super::SCANNED_PIECES);
    }

    /// A stem holding NUL, or more pieces than one UTF-16 unit below the surrogates can
    /// name, sends JSON rows instead; no stem at all sends the marker and the empty slot.
    #[test]
    fn segments_refuse_nul_and_tables_past_u_d7ff() {
        let plan = |commands: Vec<String>| {
            let forms =
                segments_of("claude", gsd_core::Scope::Global, commands).expect("claude plans");
            (forms.sent, forms.triggers)
        };
        // Stems are checked for controls before any plan; a piece of the layout is not.
        let parts = |prefix| gsd_core::TriggerParts {
            entry: 0,
            prefix,
            stem: "help",
            kind: gsd_core::vocab::TriggerKind::Skills,
            scope: gsd_core::Scope::Global,
            dest_head: "skills/",
            dest_ext: "",
            router: None,
            shadowed_by: None,
        };
        let one = |prefix| super::segments(1, 1, true, |visit| visit(&parts(prefix)));
        assert!(one("gsd-").is_some());
        assert_eq!(one("gsd\0"), None);
        assert_eq!(plan(Vec::new()).0.as_deref(), Some("\u{2}\0"));
        // Index 2 + stem count - 1 is the last stem's code; the other pieces come after.
        let many = |n: usize| (0..n).map(|i| format!("s{i}")).collect::<Vec<_>>();
        let (fits, triggers) = plan(many(0xD800 - 16));
        assert_eq!(
            Value::Array(from_segments(&fits.expect("fits"), None)),
            serde_json::to_value(super::triggers(&triggers)).expect("serializes")
        );
        assert_eq!(plan(many(0xD800)).0, None);
    }

    #[test]
    fn a_value_holding_nul_or_u0001_refuses_fields() {
        let plan =
            |home: &str| plan_of("claude", gsd_core::Scope::Global, home).expect("claude plans");
        assert!(super::placement_fields(&plan("/home/u").placements).is_some());
        // A plan refuses a home holding NUL; U+0001 is a legal path byte and reaches the rows.
        assert_eq!(
            plan_of("claude", gsd_core::Scope::Global, "/home/a\0b")
                .err()
                .map(|e| e.code()),
            Some(gsd_core::ErrorCode::InvalidHost)
        );
        let home = "/home/a\u{1}b";
        let plan = plan(home);
        assert!(
            plan.placements
                .get(0)
                .expect("placement")
                .destination
                .starts_with(home)
        );
        assert_eq!(super::placement_fields(&plan.placements), None, "{home:?}");
        // Placements built by hand may still hold NUL: the rows refuse them too.
        let mut held = gsd_core::Placements::default();
        held.push(gsd_core::Placement {
            destination: "/home/a\0b/x.md",
            ..plan.placements.get(0).expect("placement")
        });
        assert_eq!(super::placement_fields(&held), None);
        assert_eq!(
            super::placement_fields(&gsd_core::Placements::default()).as_deref(),
            Some("\0")
        );
    }

    /// The values of a keyed record in key order, nested objects flattened.
    fn values(record: &Value, out: &mut Vec<Value>) {
        for value in record.as_object().expect("a record is an object").values() {
            match value {
                Value::Object(_) => values(value, out),
                other => out.push(other.clone()),
            }
        }
    }

    #[test]
    fn rows_are_the_records_values_in_field_order() {
        let mut plan = plan_of("cline", gsd_core::Scope::Global, "/home/u")
            .expect("cline plans at global scope");
        // A shadowed trigger, so the flattened `shadowedBy` is checked too.
        let mut triggers = plan.triggers.clone();
        let first = plan.triggers.get(0).expect("a trigger");
        triggers.push(gsd_core::Trigger {
            shadowed_by: Some(gsd_core::ShadowedBy {
                kind: first.kind,
                scope: gsd_core::Scope::Local,
            }),
            ..first
        });
        plan.triggers = triggers;
        assert!(plan.triggers.iter().any(|t| t.router_trigger.is_some()));
        let cases = [
            (
                serde_json::to_value(&plan.triggers).expect("serializes"),
                serde_json::to_value(super::triggers(&plan.triggers)).expect("serializes"),
            ),
            (
                serde_json::to_value(&plan.placements).expect("serializes"),
                serde_json::to_value(super::placements(&plan.placements)).expect("serializes"),
            ),
        ];
        for (records, rows) in cases {
            let records = records.as_array().expect("a list");
            let rows = rows.as_array().expect("a list");
            assert_eq!(records.len(), rows.len());
            assert!(!rows.is_empty());
            for (record, row) in records.iter().zip(rows) {
                let mut expected = Vec::new();
                values(record, &mut expected);
                let row = row.as_array().expect("a row");
                // A winner's `shadowedBy` is one `null` in the record, two in the row.
                let row: Vec<Value> = if record.get("shadowedBy") == Some(&Value::Null) {
                    assert_eq!(row.last(), Some(&Value::Null));
                    row[..row.len() - 1].to_vec()
                } else {
                    row.clone()
                };
                assert_eq!(row, expected);
            }
        }
    }
}
