'use strict';
// Drop-in for the peer's `runtime-config-adapter-registry.cjs`, backed by the native core.
// `resolveInstallPlanFromRuntimes` reads a caller-supplied descriptor map: the map crosses
// as JSON text and the core checks it in the peer's order.

const native = require('../binding.js');
const { answer, jsonText } = require('./_json.cjs');

const IDS = native.Registry.firstParty().runtimeIds();

function intent(runtime, message) {
  try {
    return native.installIntent(String(runtime));
  } catch (err) {
    if (err.code === 'UNKNOWN_RUNTIME') throw new TypeError(`${message}: ${runtime}`);
    throw err;
  }
}

function resolveRuntimeConfigIntent(runtime) {
  const i = intent(runtime, 'Unknown runtime for config adapter');
  return {
    runtime,
    installSurface: i.installSurface,
    writesSharedSettings: i.writesSharedSettings,
    finishPermissionWriter: i.finishPermissionWriter,
  };
}

/** The peer's install-plan shape (key order included) over one intent of the core. */
function installPlanShape(runtime, i) {
  return {
    runtime,
    installSurface: i.installSurface,
    writesSharedSettings: i.writesSharedSettings,
    finishPermissionWriter: i.finishPermissionWriter,
    hookEvents: i.hookEvents,
    extendedHookEvents: i.extendedHookEvents,
    hooksSurface: i.hooksSurface,
    sandboxTier: i.sandboxTier,
  };
}

function resolveInstallPlan(runtime) {
  return installPlanShape(runtime, intent(runtime, 'Unknown runtime for install plan'));
}

function resolveInstallPlanFromRuntimes(runtimeDescriptors, runtime) {
  void runtimeDescriptors[runtime]; // a missing map fails with the peer's own TypeError
  const a = answer(native.compatDescriptorIntent(jsonText(runtimeDescriptors), String(runtime)));
  if (a.error) throw new TypeError(a.error.message);
  return installPlanShape(runtime, a.value);
}

const ALLOWED_CONFIG_RUNTIMES = new Set(IDS.filter((id) => native.installIntent(id).installSurface !== 'none'));
const INSTALL_SURFACES = Object.freeze(native.vocabulary().installSurface);

module.exports = { resolveRuntimeConfigIntent, resolveInstallPlan, resolveInstallPlanFromRuntimes, ALLOWED_CONFIG_RUNTIMES, INSTALL_SURFACES };
