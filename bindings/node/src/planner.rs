//! The hot path of a plan over an inventory: one native value per (inventory, registry)
//! pair, a runtime and scope named by a small number, and host data as one compact text.
//!
//! Measured per call on the machine of `docs/performance.md`, a class handle argument
//! costs about 290 ns (napi-rs checks it with `instanceof` against the class constructor,
//! then unwraps it and checks its type tag), a string argument about 140 ns, and parsing
//! host JSON with serde about 460 ns, while a plan decision itself costs about 1 µs. So
//! the plan's fixed inputs are put together once, in a [`Planner`] held by an `External`
//! (one pointer check per call), the runtime and scope cross as one integer (`target`:
//! the runtime's index in [`planner_runtimes`] times two, plus one for `local`), and the
//! host crosses in the compact text [`compact_host`] reads instead of JSON.
//!
//! Only data the compact text can carry exactly takes this path: `index.js` sends a host
//! of plain strings, and [`plan_head_at`] answers [`NOT_COMPACT`] for any text that does
//! not split into exactly the fields its header counts (a NUL inside a value) or that
//! holds U+FFFD (what napi makes of a lone surrogate). `index.js` then plans through the
//! JSON path, which gives the very error or value JSON gives. Options (`explicitDir`,
//! `profile`) and the real machine also take the JSON path.

use std::collections::{BTreeMap, BTreeSet};

use gsd_core::{Host, Registry as CoreRegistry};
use napi::Env;
use napi::bindgen_prelude::External;
use napi_derive::napi;

use crate::convert::DecisionOptions;
use crate::error::{JsCode, JsResult, invalid_argument};
use crate::inventory::Inventory;
use crate::plan::{decide, lengths, packed, section_text};
use crate::text::Text;

/// What [`plan_head_at`] returns for host text that is not exactly what its header says.
const NOT_COMPACT: f64 = -2.0;

/// A registry and an inventory put together once for any number of plans, with the
/// registry's runtime ids in the order `target` numbers them.
#[derive(Debug)]
pub struct Planner {
    registry: CoreRegistry,
    inventory: gsd_core::Inventory,
    runtimes: Vec<String>,
}

impl Planner {
    /// `then` applied to the decided plan of `target` for `host` (no options).
    fn decide<T>(
        &self,
        env: Env,
        target: u32,
        host: &Host,
        then: impl FnOnce(&gsd_core::PlanDecision<'_>) -> JsResult<T>,
    ) -> JsResult<T> {
        let (runtime, scope) = self.target(env, target)?;
        let options = DecisionOptions::default();
        let inventory = &self.inventory;
        then(&decide(
            env,
            &self.registry,
            runtime,
            scope,
            host,
            &options,
            inventory,
        )?)
    }

    /// The runtime id and scope a `target` names.
    fn target(&self, env: Env, target: u32) -> JsResult<(&str, gsd_core::Scope)> {
        let scope = if target.is_multiple_of(2) {
            gsd_core::Scope::Global
        } else {
            gsd_core::Scope::Local
        };
        usize::try_from(target / 2)
            .ok()
            .and_then(|i| self.runtimes.get(i))
            .map(|runtime| (runtime.as_str(), scope))
            .ok_or_else(|| {
                invalid_argument(
                    env,
                    "target",
                    &format!(
                        "target must be below {} (two per runtime), got {target}",
                        self.runtimes.len() * 2
                    ),
                )
            })
    }
}

/// The planner of an inventory over a registry (the first-party one when omitted).
#[napi(catch_unwind, ts_return_type = "ExternalObject<'Planner'>")]
pub fn planner(inventory: &Inventory, registry: Option<&crate::Registry>) -> External<Planner> {
    let registry = crate::registry_or_default(registry).clone();
    let runtimes = registry.runtime_ids().map(str::to_owned).collect();
    External::new(Planner {
        registry,
        inventory: inventory.inner.clone(),
        runtimes,
    })
}

/// The runtime ids of a planner, in the order `target` numbers them.
#[napi(catch_unwind)]
pub fn planner_runtimes(
    #[napi(ts_arg_type = "ExternalObject<'Planner'>")] planner: &External<Planner>,
) -> Vec<String> {
    planner.runtimes.clone()
}

/// Host data from the compact text `index.js` writes: fields separated by NUL,
/// `envCount, pathCount, home, cwd`, then `envCount` name/value pairs, then `pathCount`
/// existing paths. `None` when the fields are not exactly those the header counts, or
/// when the text holds U+FFFD.
fn compact_host(text: &str) -> Option<Host> {
    if text.contains('\u{FFFD}') {
        return None;
    }
    let mut fields = text.split('\0');
    let env_count: usize = fields.next()?.parse().ok()?;
    let path_count: usize = fields.next()?.parse().ok()?;
    let home = fields.next()?.to_owned();
    let cwd = fields.next()?.to_owned();
    let mut env = BTreeMap::new();
    for _ in 0..env_count {
        let name = fields.next()?;
        let value = fields.next()?;
        env.insert(name.to_owned(), value.to_owned());
    }
    let mut existing_paths = BTreeSet::new();
    for _ in 0..path_count {
        existing_paths.insert(fields.next()?.to_owned());
    }
    if fields.next().is_some() {
        return None;
    }
    Some(Host {
        home,
        cwd,
        env,
        existing_paths,
    })
}

/// `planHead` through a planner: the lengths of the plan of `target` for the compact
/// `host`, packed in one number (`-1`: too large to pack; `-2`: the host text is not
/// exactly what its header says). Every check of the plan runs; an error raises here.
#[napi(catch_unwind)]
pub fn plan_head_at(
    env: Env,
    #[napi(ts_arg_type = "ExternalObject<'Planner'>")] planner: &External<Planner>,
    target: u32,
    #[napi(ts_arg_type = "string")] host: Text,
) -> napi::Result<f64, JsCode> {
    let Some(host) = compact_host(&host) else {
        return Ok(NOT_COMPACT);
    };
    planner.decide(env, target, &host, |decision| {
        Ok(packed(&lengths(env, decision)?))
    })
}

/// `planSection` through a planner, for a plan [`plan_head_at`] answered (the trigger
/// segments leave out the stems of the planner's inventory, as `planSection` does).
#[napi(catch_unwind)]
pub fn plan_section_at(
    env: Env,
    section: String,
    #[napi(ts_arg_type = "ExternalObject<'Planner'>")] planner: &External<Planner>,
    target: u32,
    #[napi(ts_arg_type = "string")] host: Text,
) -> napi::Result<String, JsCode> {
    let Some(host) = compact_host(&host) else {
        return Err(invalid_argument(
            env,
            "host",
            "host must be the compact text planHeadAt accepted",
        ));
    };
    planner.decide(env, target, &host, |decision| {
        section_text(env, decision, &section, planner.inventory.commands())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_host_reads_exactly_the_counted_fields() {
        let host = compact_host("2\u{0}1\u{0}/home/u\u{0}/work/p\u{0}B\u{0}2\u{0}A\u{0}\u{0}/x")
            .expect("well formed");
        assert_eq!(host.home, "/home/u");
        assert_eq!(host.cwd, "/work/p");
        assert_eq!(
            host.env.into_iter().collect::<Vec<_>>(),
            [
                ("A".to_owned(), String::new()),
                ("B".to_owned(), "2".to_owned())
            ]
        );
        assert_eq!(host.existing_paths.into_iter().collect::<Vec<_>>(), ["/x"]);
        let empty = compact_host("0\u{0}0\u{0}\u{0}").expect("two empty strings");
        assert_eq!((empty.home.as_str(), empty.cwd.as_str()), ("", ""));
        assert!(empty.env.is_empty() && empty.existing_paths.is_empty());
    }

    #[test]
    fn compact_host_refuses_any_other_text() {
        for text in [
            "",
            "0",
            "0\u{0}0\u{0}/h",
            // A NUL inside a value adds a field the header does not count.
            "0\u{0}0\u{0}/h\u{0}/w\u{0}x",
            "1\u{0}0\u{0}/h\u{0}/w\u{0}A",
            "0\u{0}1\u{0}/h\u{0}/w",
            "x\u{0}0\u{0}/h\u{0}/w",
            "0\u{0}-1\u{0}/h\u{0}/w",
            "18446744073709551616\u{0}0\u{0}/h\u{0}/w",
            // What napi makes of a lone surrogate.
            "0\u{0}0\u{0}/h\u{FFFD}\u{0}/w",
        ] {
            assert!(compact_host(text).is_none(), "{text:?}");
        }
    }
}
