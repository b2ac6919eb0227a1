//! Data flow across loop points (the peer's `validateConsumesGlobal`).

use std::collections::{BTreeMap, HashMap, HashSet};

use super::messages::{self, Unavailable};
use super::{Member, Role, is_reserved, role, strings};
use crate::diagnostic::Diagnostic;
use crate::doc::JsonRef;
use crate::vocab::{HOST_ARTIFACT_EARLIEST_POINT, LoopPoint};

/// One step of a feature capability, located.
pub(crate) struct StepRef<'a> {
    pub id: &'a str,
    pub index: usize,
    pub point: LoopPoint,
    pub step: JsonRef<'a>,
}

/// The steps of one feature at valid loop points, in declaration order.
pub(crate) fn steps_of<'a>(m: &Member<'a>) -> Vec<StepRef<'a>> {
    if role(m) != Some(Role::Feature) {
        return Vec::new();
    }
    let list = m
        .manifest
        .field("steps")
        .and_then(JsonRef::as_array)
        .into_iter()
        .flatten();
    list.enumerate()
        .filter_map(|(index, step)| {
            let point = step
                .field("point")
                .and_then(JsonRef::as_str)
                .and_then(LoopPoint::parse)?;
            Some(StepRef {
                id: m.id,
                index,
                point,
                step,
            })
        })
        .collect()
}

/// Artifacts a step produces (reserved names skipped).
pub(crate) fn produced(step: JsonRef<'_>) -> impl Iterator<Item = &str> {
    strings(step, "produces").filter(|a| !is_reserved(a))
}

/// Where an artifact is produced: (loop-point index, capability id, step index).
pub(crate) type Producer<'a> = (usize, &'a str, usize);

/// Duplicate-producer diagnostics for one artifact's producers.
pub(crate) fn duplicates(artifact: &str, list: &[Producer<'_>], out: &mut Vec<Diagnostic>) {
    let mut by_point: BTreeMap<usize, Vec<(&str, usize)>> = BTreeMap::new();
    for (point, id, index) in list {
        by_point.entry(*point).or_default().push((id, *index));
    }
    for (point, group) in by_point {
        let distinct: HashSet<_> = group.iter().collect();
        if distinct.len() >= 2 {
            let mut ids: Vec<&str> = group.iter().map(|(id, _)| *id).collect();
            ids.sort_unstable();
            ids.dedup();
            out.push(messages::duplicate_producer(artifact, point, &ids));
        }
    }
}

/// Consumes diagnostics for one step, given every producer of each artifact.
pub(crate) fn consumes<'a>(
    s: &StepRef<'_>,
    producers_of: &dyn Fn(&str) -> Vec<Producer<'a>>,
    out: &mut Vec<Diagnostic>,
) {
    let at = s.point.index();
    for artifact in strings(s.step, "consumes") {
        let host = HOST_ARTIFACT_EARLIEST_POINT
            .iter()
            .find(|(a, _)| *a == artifact);
        if host.is_some_and(|(_, p)| *p <= at) {
            continue;
        }
        let list = producers_of(artifact);
        if list.is_empty() {
            out.push(messages::consumes(
                s.id,
                s.point,
                s.index,
                artifact,
                Unavailable::Never,
            ));
            continue;
        }
        let earliest = list
            .iter()
            .filter(|(_, id, index)| !(*id == s.id && *index == s.index))
            .map(|(point, _, _)| *point)
            .min();
        match earliest {
            None => out.push(messages::consumes(
                s.id,
                s.point,
                s.index,
                artifact,
                Unavailable::OnlySelf,
            )),
            Some(p) if p > at => {
                out.push(messages::consumes(
                    s.id,
                    s.point,
                    s.index,
                    artifact,
                    Unavailable::Later(p),
                ));
            }
            Some(_) => {}
        }
    }
}

/// Data flow across loop points (the peer's `validateConsumesGlobal`): no two steps
/// produce one artifact at one point, and every consumed artifact is a host artifact
/// available by then or produced by a *different* step at or before that point.
#[must_use]
pub fn validate_data_flow(members: &[Member<'_>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let steps: Vec<StepRef<'_>> = members.iter().flat_map(steps_of).collect();
    let mut order: Vec<&str> = Vec::new();
    let mut producers: HashMap<&str, Vec<Producer<'_>>> = HashMap::new();
    for s in &steps {
        for artifact in produced(s.step) {
            producers
                .entry(artifact)
                .or_insert_with(|| {
                    order.push(artifact);
                    Vec::new()
                })
                .push((s.point.index(), s.id, s.index));
        }
    }
    for artifact in &order {
        duplicates(
            artifact,
            producers.get(artifact).map_or(&[][..], Vec::as_slice),
            &mut out,
        );
    }
    let producers_of = |a: &str| producers.get(a).cloned().unwrap_or_default();
    for s in &steps {
        consumes(s, &producers_of, &mut out);
    }
    out
}
