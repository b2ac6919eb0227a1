'use strict';
// Drop-in for the validation entry points and closed vocabularies of the peer's
// `capability-validator.cjs`, backed by the native core.
//
// Provided: validateCapability, the per-body validators (validateVersionEnvelope,
// validateFeatureBody, validateRuntimeBody, validateReviewerBody: one step of the core's
// whole-manifest walk, run whatever the manifest's role), collectReviewerWarnings,
// collectReviewerWarningRecords, the vocabulary constants below, the `requires` graph of a
// caller's capability map (detectRequiresCycles, computeRequiresClosure) and the hook run
// order (topoSortSteps, topoSortContributions, topoSortHookEntries). Not provided: the
// per-entry validators (validateCommandEntry, validateConfigHome, validateStep, ...), the
// cross-capability checks (the core runs them when a registry is built), and the regular
// expressions.
// Difference: a manifest is checked as its JSON text (bounded in size and depth), so
// values JSON cannot carry (functions, `undefined`) read as absent, and inputs on which the
// peer throws (a `null` step) give a `null_element` error instead. Like the peer, the
// per-body validators throw a TypeError for a `null` or `undefined` manifest (the reviewer
// one returns no error), and read any other non-object as a manifest without fields.

const native = require('../binding.js');
const { answer, valueOf, jsonText, Tokens } = require('./_json.cjs');
const { kindOf, spelled } = require('./_args.cjs');

const v = native.vocabulary();
const set = (values) => new Set(values);

function manifestText(cap) {
  const text = jsonText(cap);
  return text === undefined ? 'null' : text;
}

function validateCapability(cap, folderId) {
  return native.validateCapability(manifestText(cap), String(folderId)).map((d) => d.message);
}

/**
 * The messages of one per-body step of the core validator (`body`: envelope, feature,
 * runtime or reviewer). `firstRead` names the property the peer reads first, for the
 * TypeError it throws on a `null` or `undefined` manifest.
 */
function bodyErrors(body, cap, firstRead) {
  if (cap === null || cap === undefined) {
    if (body === 'reviewer') return [];
    throw new TypeError(`Cannot read properties of ${cap} (reading '${firstRead}')`);
  }
  const text = typeof cap === 'object' ? manifestText(cap) : '{}';
  return valueOf(native.compatValidateBody(body, text));
}

function validateVersionEnvelope(cap) {
  return bodyErrors('envelope', cap, 'version');
}

function validateFeatureBody(cap) {
  return bodyErrors('feature', cap, 'id');
}

function validateRuntimeBody(cap) {
  return bodyErrors('runtime', cap, v.featureFieldsForbiddenOnRuntime[0]);
}

function validateReviewerBody(cap) {
  return bodyErrors('reviewer', cap, 'reviewer');
}

function collectReviewerWarningRecords(cap) {
  return native.warningRecords(manifestText(cap)).map((d) => ({
    code: d.code,
    capId: d.capabilityId,
    field: d.field,
    ...(d.detail ?? {}),
    message: d.message,
  }));
}

function collectReviewerWarnings(cap) {
  return collectReviewerWarningRecords(cap).map((r) => r.message);
}

/** [`Tokens`] whose tokens a cycle message spells back as the peer's join spells them. */
class CycleTokens extends Tokens {
  /** `text` with each token replaced by its value as `Array.prototype.join` spells it. */
  spell(text) {
    return text.replace(/\0(\d+)\0/g, (_, i) => {
      const value = this.values[Number(i)];
      return value === null || value === undefined ? '' : spelled(value, 'a capability id in a requires cycle');
    });
  }
}

/** A capability's `requires` list when it has one (holes read as `undefined`), else `null`. */
function requiresOf(cap) {
  return cap && Array.isArray(cap.requires) ? Array.from(cap.requires) : null;
}

function detectRequiresCycles(capMap) {
  // The map is read through its own `keys`, `get` and `has`, as the peer reads it: a value
  // without them fails with a TypeError when the first is needed.
  const tokens = new CycleTokens();
  const keys = [...capMap.keys()];
  const isKey = new Set(keys);
  const entries = keys.map((id) => {
    const requires = requiresOf(capMap.get(id));
    // Only a value the map holds is an edge.
    const edges = requires && requires.filter((req) => capMap.has(req) && isKey.has(req)).map((req) => tokens.of(req));
    return [tokens.of(id), edges];
  });
  return valueOf(native.compatDetectRequiresCycles(jsonText(entries))).map((message) => tokens.spell(message));
}

function computeRequiresClosure(id, capMap) {
  // The map is read through its own `get` (a value without one fails with a TypeError), for
  // the start id and every value some capability reached from it requires.
  const tokens = new CycleTokens();
  const entries = [];
  const asked = new Set();
  const pending = [id];
  while (pending.length > 0) {
    const current = pending.pop();
    if (asked.has(current)) continue;
    asked.add(current);
    const requires = requiresOf(capMap.get(current));
    if (requires) pending.push(...requires);
    entries.push([tokens.of(current), requires && requires.map((req) => tokens.of(req))]);
  }
  const closure = valueOf(native.compatRequiresClosure(jsonText(tokens.of(id)), jsonText(entries)));
  return new Set(closure.map((token) => tokens.value(token)));
}

/** The artifact names of a produces/consumes value as the peer iterates it. */
function names(value) {
  return [...(value || [])].map(String);
}

/**
 * The tie order of two entries as the peer's sort asks for it: `capIds[i]` is the id whose
 * own `localeCompare` is called, `capIds[j]` the one it is compared with. An id without a
 * callable `localeCompare` (a number, `null`, a Symbol, a BigInt, a plain object) is a
 * TypeError, as in the peer; the string method compares by code unit, as the core does
 * (converting the other id as that method would: a Symbol is a TypeError); any other method
 * the id carries is called.
 */
function tieOrder(capIds, i, j) {
  const id = capIds[i];
  const method = id === null || id === undefined ? undefined : id.localeCompare;
  if (typeof method !== 'function') {
    throw new TypeError(`topoSortHookEntries: entries[${i}].capId must be a string (got ${kindOf(id)})`);
  }
  if (method !== String.prototype.localeCompare) return Reflect.apply(method, id, [capIds[j]]);
  const mine = `${id}`;
  const theirs = `${capIds[j]}`;
  return mine < theirs ? -1 : mine > theirs ? 1 : 0;
}

/**
 * The run order when some capId is not a string, worked out here rather than by the core:
 * the peer fails only if its sort of a batch of entries that become ready together calls
 * `localeCompare` on such an id, and which ids it calls it on depends on the batches. Each
 * batch is sorted with the engine's own sort (the peer's), so the same pairs are compared in
 * the same roles. The graph is the one the core builds from `rows`; a cycle is the peer's
 * error ([`cycleError`]).
 */
function orderWithOddIds(entries, capIds, rows, hookKey, hookKind) {
  const n = rows.length;
  const successors = rows.map(() => []);
  const pending = new Array(n).fill(0);
  for (let i = 0; i < n; i += 1) {
    const made = new Set(rows[i][1]);
    for (let j = 0; j < n; j += 1) {
      if (j !== i && rows[j][2].some((name) => made.has(name))) {
        successors[i].push(j);
        pending[j] += 1;
      }
    }
  }
  const byId = (batch) => batch.sort((a, b) => tieOrder(capIds, a, b));
  const order = byId([...pending.keys()].filter((i) => pending[i] === 0));
  for (let k = 0; k < order.length; k += 1) {
    const freed = [];
    for (const j of successors[order[k]]) {
      pending[j] -= 1;
      if (pending[j] === 0) freed.push(j);
    }
    order.push(...byId(freed));
  }
  if (order.length < n) throw cycleError(entries, hookKey, hookKind, capIds);
  return order.map((i) => entries[i]);
}

/**
 * The peer's error for a produces/consumes cycle, spelled from the caller's own values: its
 * kind, the first entry's point (read only now, as the peer reads it, and converted as `+`
 * converts it) and every id as `Array.prototype.join` spells it. The core's message is safe
 * to print (it clips and cleans what it repeats); a drop-in owes the caller the peer's text.
 */
function cycleError(entries, hookKey, hookKind, capIds) {
  // In the peer's order: the ids joined first, then the kind converted, then the point read
  // and converted.
  const ids = capIds.join(', ');
  return new Error(
    'produces/consumes cycle detected in ' + hookKind + ' at point "' + (entries[0] && entries[0][hookKey] ? entries[0][hookKey].point : '?') + '" among capabilities [' + ids + ']: a cycle in hook produces/consumes prevents deterministic ordering',
  );
}

function topoSortHookEntries(entries, hookKey, hookKind) {
  if (entries.length <= 1) return entries;
  const capIds = entries.map((e) => e.capId);
  const rows = entries.map((e, i) => [capIds[i], names(e[hookKey].produces), names(e[hookKey].consumes)]);
  if (!capIds.every((id) => typeof id === 'string')) return orderWithOddIds(entries, capIds, rows, hookKey, hookKind);
  // Artifact names cross as tokens (only their equality matters, and a lone surrogate keeps
  // its own identity); the ids as themselves, since ties compare them.
  const tokens = new Tokens();
  const crossing = rows.map(([id, produces, consumes]) => [id, produces.map((n) => tokens.of(n)), consumes.map((n) => tokens.of(n))]);
  const a = answer(native.compatOrderHookEntries(jsonText(crossing), 'hooks', undefined));
  if (a.error) throw a.error.code === 'INVALID_DESCRIPTOR' ? cycleError(entries, hookKey, hookKind, capIds) : new Error(a.error.message);
  return a.value.map((i) => entries[i]);
}

function topoSortSteps(entries) {
  return topoSortHookEntries(entries, 'step', 'steps');
}

function topoSortContributions(entries) {
  return topoSortHookEntries(entries, 'contrib', 'contributions');
}

const HOOK_GROUP_KINDS = Object.freeze({ steps: 'step', contributions: 'contribution', gates: 'gate' });

/** The host-integration axes of a runtime descriptor, under the peer's key names. */
const HOST_INTEGRATION_VOCAB = {
  embeddingMode: [...v.embeddingMode],
  commandSurface: [...v.commandSurface],
  modelMode: [...v.modelMode],
  hookBus: [...v.hookBus],
  stateIO: [...v.stateIo],
  transport: [...v.hostTransport],
  runtime: [...v.hostRuntime],
  subagentToolkit: [...v.subagentToolkit],
  effortSurface: [...v.effortSurface],
  isolation: [...v.dispatchIsolation],
};

const REVIEWER_WARNING = Object.freeze({
  UNKNOWN_REVIEWER_FIELD: 'unknown_reviewer_field',
  REMOVED_HOST_BEHAVIOR: 'removed_host_behavior',
  UNKNOWN_HOST_BEHAVIOR: 'unknown_host_behavior',
});

module.exports = {
  SCHEMA_VERSION: '1',
  POINT_ORDER: [...v.loopPoint],
  VALID_LOOP_POINTS: set(v.loopPoint),
  VALID_CONFIG_SLICE_TYPES: set(v.configSliceType),
  VALID_ROLES: set(v.role),
  VALID_TIERS: set(v.tier),
  VALID_ON_ERROR: set(v.onError),
  RUNTIME_COMPAT_WILDCARD: '*',
  VALID_CONVERTER_NAMES: set(v.converter),
  VALID_CONFIG_FORMATS: set(v.configFormat),
  VALID_CONFIG_HOME_KINDS: set(v.configHomeKind),
  VALID_COMMAND_STYLES: set(v.commandStyle),
  VALID_HOOKS_SURFACES: set(v.hooksSurface),
  VALID_HOOK_EVENTS: set(v.hookEvents),
  VALID_EXTENSION_EVENTS: set(v.extensionEvents),
  VALID_SANDBOX_TIERS: set(v.sandboxTier),
  VALID_ARTIFACT_KIND_NAMES: set(v.artifactKind),
  VALID_ARTIFACT_NESTINGS: set(v.nesting),
  VALID_TRIGGER_PRECEDENCE_KINDS: set(v.triggerKind),
  DEFAULT_TRIGGER_PRECEDENCE: Object.freeze([...v.defaultTriggerPrecedence]),
  FEATURE_FIELDS_FORBIDDEN_ON_RUNTIME: [...v.featureFieldsForbiddenOnRuntime],
  FEATURE_FIELDS_FORBIDDEN_ON_REVIEWER: [...v.featureFieldsForbiddenOnReviewer],
  VALID_LANE_TRANSPORTS: set(v.laneTransport),
  VALID_LANE_PROBE_KINDS: set(v.laneProbeKind),
  VALID_PROMPT_CHANNELS: set(v.promptChannel),
  VALID_OUTPUT_CHANNELS: set(v.outputChannel),
  VALID_LANE_EFFORT_CHANNELS: set(v.effortChannel),
  VALID_MODEL_DISCOVERY: set(v.modelDiscovery),
  VALID_EMPTY_OUTPUT: set(v.emptyOutput),
  VALID_EVIDENCE_CLASSES: set(v.evidenceClass),
  VALID_LANE_HANDLERS: set(v.laneHandler),
  KNOWN_REVIEWER_FIELDS: set(v.knownReviewerFields),
  KNOWN_HOST_BEHAVIORS: set(v.knownHostBehaviors),
  validateCapability,
  validateVersionEnvelope,
  validateFeatureBody,
  validateRuntimeBody,
  validateReviewerBody,
  detectRequiresCycles,
  computeRequiresClosure,
  topoSortHookEntries,
  topoSortSteps,
  topoSortContributions,
  HOOK_GROUP_KINDS,
  _HOST_INTEGRATION_VOCAB: HOST_INTEGRATION_VOCAB,
  collectReviewerWarnings,
  collectReviewerWarningRecords,
  REVIEWER_WARNING,
  REMOVED_REVIEWER_CLI_FIELD: 'runtime.hostBehaviors.reviewerCli',
  VALID_INSTALL_SURFACES: set(v.installSurface),
  VALID_PERMISSION_WRITERS: set(v.permissionWriter),
  VALID_EXTENDED_HOOK_EVENTS: set(v.extendedHookEvent),
  VALID_EMBEDDING_MODES: set(v.embeddingMode),
  VALID_COMMAND_SURFACES: set(v.commandSurface),
  VALID_MODEL_MODES: set(v.modelMode),
  VALID_HOOK_BUSES: set(v.hookBus),
  VALID_STATE_IO: set(v.stateIo),
  VALID_TRANSPORTS: set(v.hostTransport),
  VALID_HOST_RUNTIMES: set(v.hostRuntime),
  VALID_SUBAGENT_TOOLKITS: set(v.subagentToolkit),
  VALID_DISPATCH_ISOLATION: set(v.dispatchIsolation),
  TIER_RANK: Object.fromEntries(v.tier.map((t, i) => [t, i])),
};
