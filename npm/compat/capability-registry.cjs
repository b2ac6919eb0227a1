'use strict';
// Drop-in for the peer's compiled `capability-registry.cjs`: the same object shape (export
// order included), built from our embedded first-party registry.
//
// Difference: capability and config `description` texts and fragment bodies are this
// project's own wording; every structural fact (ids, roles, tiers, indexes, descriptors,
// config keys, types and defaults) is equal.

const native = require('../binding.js');
require('../index.js'); // Registry.prototype.toPeerJson is defined there (text crossing)

const registry = native.Registry.firstParty();

module.exports = {
  ...registry.toPeerJson(),
  requiresClosure(id) {
    return new Set(registry.requiresClosure(String(id)));
  },
};
