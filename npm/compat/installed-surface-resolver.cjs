'use strict';
// Drop-in for the peer's `installed-surface-resolver.cjs`, backed by the native core.
//
// Difference: `opts.registry` is ignored (the embedded registry answers) and
// `opts.readManifest` is refused with a TypeError (the core parses the manifest text).

const native = require('../binding.js');
const { surfaceInputs } = require('./_surface.cjs');

function resolveInstalledSurfaces(runtime, opts = {}) {
  const id = typeof runtime === 'string' ? runtime : undefined;
  try {
    const { host, facts } = surfaceInputs(id, opts);
    return native.resolveInstalledSurfaces(id, host, facts).surfaces;
  } catch (err) {
    if (err.code === 'UNKNOWN_RUNTIME') {
      throw new TypeError(`resolveScope: unknown runtime '${String(runtime)}' — not present in the capability registry`);
    }
    if (err.code === 'NO_CONFIG_HOME') {
      throw new TypeError(`resolveScope: runtime '${runtime}' has no installable config directory (configHome.kind === 'none')`);
    }
    throw err;
  }
}

module.exports = { resolveInstalledSurfaces };
Object.defineProperty(module.exports, '__esModule', { value: true });
