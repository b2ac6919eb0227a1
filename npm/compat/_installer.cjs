'use strict';
// The installer a compat module stands in for: some peer exports hand work to modules that
// are not axes of the core (the body rewriters of `runtime-artifact-conversion.cjs`, the
// install's runtime marker next to the installed `bin/lib`). They are found through the
// installer's own lib folder — the folder of a `gsd-core/bin/lib/*.cjs` module that the
// installer has already loaded — never through a copy of the peer inside this package.

const path = require('node:path');

const ours = __dirname + path.sep;
const libSuffix = `${path.sep}gsd-core${path.sep}bin${path.sep}lib${path.sep}`;

/** The installer's `gsd-core/bin/lib` folder, or `null` when no module of it is loaded. */
function installerLibDir() {
  for (const file of Object.keys(require.cache)) {
    if (file.startsWith(ours)) continue;
    const at = file.lastIndexOf(libSuffix);
    if (at >= 0 && !file.slice(at + libSuffix.length).includes(path.sep)) return file.slice(0, at + libSuffix.length - 1);
  }
  return null;
}

/**
 * The exports of the installer's `bin/lib/<name>` (loaded if needed), or `null` when the
 * installer's lib folder is unknown.
 * @param {string} name e.g. `runtime-artifact-conversion.cjs`
 */
function installerModule(name) {
  const dir = installerLibDir();
  if (dir === null) return null;
  const file = path.join(dir, name);
  const cached = require.cache[file];
  return cached ? cached.exports : require(file);
}

module.exports = { installerLibDir, installerModule };
