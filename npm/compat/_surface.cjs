'use strict';
// Shared edge for the installed-surface compat modules: the peer's options become host
// data and the facts the core asks for (lstat of each config home and manifest, and the
// manifest text, read at most one byte past the bound). No decisions are made here.

const fs = require('node:fs');
const native = require('../binding.js');
const { hostFrom, withProbes } = require('./_host.cjs');

const MAX_MANIFEST_READ = 16 * 1024 * 1024 + 1;

function isSymlink(p, lstatSync) {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function readText(p) {
  let fd;
  try {
    if (!fs.lstatSync(p).isFile()) return null;
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
    const buffer = Buffer.alloc(MAX_MANIFEST_READ);
    let length = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0 || length + n >= buffer.length) {
        length += n;
        break;
      }
      length += n;
    }
    return buffer.subarray(0, length).toString('utf8');
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** `{ host, facts }` for a runtime (or every runtime) from peer-style options. */
function surfaceInputs(runtime, opts) {
  if (opts.readManifest !== undefined) {
    throw new TypeError('readManifest injection is not supported: the core reads the manifest text itself');
  }
  const base = hostFrom(opts);
  const host = withProbes(base, native.surfaceProbePaths(runtime, base), opts.existsSync);
  const lstatSync = opts.lstatSync ?? fs.lstatSync;
  const homes = {};
  for (const probe of native.surfaceProbeRequests(runtime, host)) {
    const manifestIsSymlink = isSymlink(probe.manifestPath, lstatSync);
    homes[probe.configHome] = {
      configHomeIsSymlink: isSymlink(probe.configHome, lstatSync),
      manifestIsSymlink,
      manifest: manifestIsSymlink ? null : readText(probe.manifestPath),
    };
  }
  return { host, facts: { homes } };
}

module.exports = { surfaceInputs };
