'use strict';
// Drop-in for the peer's `installed-surface-resolver.cjs`, backed by the native core.
//
// Difference: `opts.registry` is ignored (the embedded registry answers) and
// `opts.readManifest` is refused with a TypeError (the core parses the manifest text).

const native = require('../binding.js');
const { failLikeThePeer, standInUsed } = require('./_host.cjs');
const { surfaceInputs } = require('./_surface.cjs');

function resolveInstalledSurfaces(runtime, opts = {}) {
  const id = typeof runtime === 'string' ? runtime : undefined;
  try {
    const { host, facts } = surfaceInputs(id, opts);
    const { surfaces } = native.resolveInstalledSurfaces(id, host, facts);
    // A runtime whose paths needed a `home` or `cwd` that is not a string: the peer's
    // resolution of it throws Node's path error, which one runtime passes on and the sweep
    // over every runtime skips.
    if (id !== undefined) return failLikeThePeer(opts, surfaces);
    return surfaces.filter((surface) => standInUsed(opts, surface) === undefined);
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
