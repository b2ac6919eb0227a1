'use strict';
// Drop-in for the peer's `runtime-config-adapter-registry.cjs`, backed by the native core.
// `resolveInstallPlanFromRuntimes` reads a caller-supplied descriptor map: the one
// descriptor asked for crosses as JSON text and the core checks it in the peer's order.

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

/** The descriptor members the peer's `resolveInstallPlanFromRuntimes` reads. */
const READ_MEMBERS = ['hooksSurface', 'sandboxTier', 'permissionWriter', 'installSurface', 'writesSharedSettings', 'hookEvents', 'extendedHookEvents'];

function resolveInstallPlanFromRuntimes(runtimeDescriptors, runtime) {
  // Only this runtime's descriptor is read (a missing map fails with the peer's own
  // TypeError), by property access as the peer reads it: inherited or computed by a getter,
  // it counts; the rest of the map, whatever it holds, is never looked at.
  const descriptor = runtimeDescriptors[runtime]?.runtime;
  if (!descriptor) throw new TypeError(`Unknown runtime for install plan: ${runtime}`);
  const id = String(runtime);
  // The members the peer reads, each read once, by property access; nothing else of the
  // descriptor crosses (a cycle or a `toJSON` elsewhere in it changes nothing).
  const read = {};
  for (const key of READ_MEMBERS) read[key] = descriptor[key];
  const a = answer(native.compatDescriptorIntent(jsonText({ [id]: { runtime: read } }), id));
  if (a.error) throw new TypeError(refusal(a.error, runtimeDescriptors, runtime));
  return installPlanShape(runtime, a.value);
}

/**
 * The peer's message for a refused descriptor, spelled from the caller's own values. The
 * core's message is safe to print (it clips and cleans what it repeats); a drop-in owes
 * the caller the peer's text, which repeats the id and the tier in full.
 */
function refusal(error, runtimeDescriptors, runtime) {
  switch (error.field) {
    case 'runtime':
      return `Unknown runtime for install plan: ${runtime}`;
    case 'runtime.hooksSurface':
      return `runtime.hooksSurface is required for install plan: ${runtime}`;
    case 'runtime.sandboxTier':
      return `Runtime '${runtime}' has a missing or invalid sandboxTier descriptor axis: ${JSON.stringify(runtimeDescriptors[runtime].runtime.sandboxTier)}`;
    default:
      return error.message;
  }
}

const ALLOWED_CONFIG_RUNTIMES = new Set(IDS.filter((id) => native.installIntent(id).installSurface !== 'none'));
const INSTALL_SURFACES = Object.freeze(native.vocabulary().installSurface);

module.exports = { resolveRuntimeConfigIntent, resolveInstallPlan, resolveInstallPlanFromRuntimes, ALLOWED_CONFIG_RUNTIMES, INSTALL_SURFACES };
