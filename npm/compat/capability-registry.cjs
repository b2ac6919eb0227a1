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
    // The id is a key of the peer's plain-object graph: a Symbol names nothing, and a name
    // that only Object.prototype carries (`toString`, `__proto__`, ...) reaches a member
    // that is not a list, on which the peer fails with a TypeError.
    if (typeof id === 'symbol') return new Set();
    const key = String(id);
    if (key in Object.prototype) {
      throw new TypeError(`requiresClosure: '${key}' is an Object.prototype member, not a capability id`);
    }
    return new Set(registry.requiresClosure(key));
  },
};
