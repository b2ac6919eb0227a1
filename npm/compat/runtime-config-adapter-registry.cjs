'use strict';
// Drop-in for the peer's `runtime-config-adapter-registry.cjs`, backed by the native core.
// `resolveInstallPlanFromRuntimes` reads a caller-supplied descriptor map: the core makes
// its two checks on what crosses of the one descriptor asked for, and the members it does
// not check are the caller's own values, as the peer returns them.

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
  // Only this runtime's descriptor is read (a missing map fails with the peer's own
  // TypeError), by property access as the peer reads it: inherited or computed by a getter,
  // it counts; the rest of the map, whatever it holds, is never looked at.
  const descriptor = runtimeDescriptors[runtime]?.runtime;
  if (!descriptor) throw new TypeError(`Unknown runtime for install plan: ${runtime}`);
  // The two checks are the core's. Only what they look at crosses, and each member is read
  // when the peer reads it: `sandboxTier` only once `hooksSurface` passed, the others only
  // once both did. JSON keeps `null` and drops `undefined`, which is the core's "null or
  // absent"; any other `hooksSurface` passes, whatever it is (a BigInt, a function).
  // A tier is a string: any other value (a String object, one whose `toJSON` gives a
  // tier) crosses as `null`, which the core refuses, as the peer refuses it.
  const hooksSurface = descriptor.hooksSurface;
  const checked = { hooksSurface: hooksSurface == null ? null : true };
  let tier;
  if (checked.hooksSurface !== null) {
    tier = descriptor.sandboxTier;
    checked.sandboxTier = typeof tier === 'string' ? tier : null;
  }
  const id = String(runtime);
  const a = answer(native.compatDescriptorIntent(jsonText({ [id]: { runtime: checked } }), id));
  if (a.error) throw new TypeError(refusal(a.error, runtime, tier));
  // The rest is passed through: the caller's own values, `hookEvents` the same array, read
  // in the peer's order (`extendedHookEvents` once to test, again to copy; `hooksSurface`
  // again last).
  const permissionWriter = descriptor.permissionWriter;
  return {
    runtime,
    installSurface: descriptor.installSurface,
    writesSharedSettings: descriptor.writesSharedSettings,
    finishPermissionWriter: permissionWriter == null ? null : permissionWriter,
    hookEvents: descriptor.hookEvents,
    extendedHookEvents: Array.isArray(descriptor.extendedHookEvents) ? [...descriptor.extendedHookEvents] : [],
    hooksSurface: descriptor.hooksSurface,
    sandboxTier: a.value.sandboxTier,
  };
}

/**
 * The peer's message for a refused descriptor, spelled from the caller's own values. The
 * core's message is safe to print (it clips and cleans what it repeats); a drop-in owes
 * the caller the peer's text, which repeats the id and the tier in full (a tier
 * `JSON.stringify` cannot render fails as it fails for the peer).
 */
function refusal(error, runtime, sandboxTier) {
  switch (error.field) {
    case 'runtime.hooksSurface':
      return `runtime.hooksSurface is required for install plan: ${runtime}`;
    case 'runtime.sandboxTier':
      return `Runtime '${runtime}' has a missing or invalid sandboxTier descriptor axis: ${JSON.stringify(sandboxTier)}`;
    default:
      return error.message;
  }
}

const ALLOWED_CONFIG_RUNTIMES = new Set(IDS.filter((id) => native.installIntent(id).installSurface !== 'none'));
const INSTALL_SURFACES = Object.freeze(native.vocabulary().installSurface);

module.exports = { resolveRuntimeConfigIntent, resolveInstallPlan, resolveInstallPlanFromRuntimes, ALLOWED_CONFIG_RUNTIMES, INSTALL_SURFACES };
