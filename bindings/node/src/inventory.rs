//! The source inventory of a plan kept native: built once from JSON text, validated once
//! (every stem), then passed to any number of plans by reference instead of crossing as
//! 136 stems per call.
//!
//! One handle per inventory, not per plan: `index.js` keeps it on the frozen object
//! `inventory()` returns, so a loop of plans allocates nothing native that waits for
//! Node's finalizers.

use std::collections::BTreeMap;

use napi::Env;
use napi_derive::napi;
use serde::Deserialize;

use crate::convert::{self, core};

use crate::error::JsCode;

/// `{ commands?, agents?, routerStems?, childToRouters? }` as the caller wrote it.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct InventoryInput {
    #[serde(default)]
    commands: Vec<String>,
    #[serde(default)]
    agents: Vec<String>,
    #[serde(default)]
    router_stems: Vec<String>,
    #[serde(default)]
    child_to_routers: BTreeMap<String, Vec<String>>,
}

/// A validated source inventory (command, agent and router stems, routed children), kept
/// native; build it once with `Inventory.fromJson` and pass it to every plan.
#[napi]
#[derive(Debug)]
pub struct Inventory {
    pub(crate) inner: gsd_core::Inventory,
}

#[napi]
impl Inventory {
    /// An inventory from JSON text of `{ commands?, agents?, routerStems?, childToRouters? }`.
    /// Every stem is checked here, once (`INVALID_ARGUMENT` naming the stem, e.g.
    /// `commands[3]`); an unknown key or a wrong shape fails on the field `inventory`.
    #[napi(factory, catch_unwind)]
    pub fn from_json(env: Env, text: String) -> napi::Result<Inventory, JsCode> {
        let input: InventoryInput = convert::from_json(env, "inventory", &text)?;
        let inner = core(
            env,
            gsd_core::Inventory::new(
                input.commands,
                input.agents,
                input.router_stems,
                input.child_to_routers,
            ),
        )?;
        Ok(Inventory { inner })
    }
}
