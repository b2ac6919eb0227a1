// Asks the peer's capability validator about a batch of manifests.
//
// stdin:  { "cases": [ { "folder": "<folder id>", "text": "<manifest JSON text>" }, ... ] }
// stdout: { "results": [ { "errors": [..] | null, "threw": "<message>" | null,
//                          "contract": [..] | null, "warnings": [ {record}, ... ] }, ... ] }
//
// Each manifest is parsed with JSON.parse here, so key order, duplicate keys and number
// rounding follow JavaScript. `errors` is validateCapability's result (null when it
// throws, with the message in `threw`); `contract` is validateAgainstContract's result
// for a manifest that validated (the loader's next step); `warnings` is
// collectReviewerWarningRecords.
'use strict';

const path = require('node:path');
const fs = require('node:fs');

const lib = process.env.GSD_PEER_LIB;
if (!lib) throw new Error('GSD_PEER_LIB is not set');
const validator = require(path.resolve(lib, 'capability-validator.cjs'));

const wellFormed = (s) => (typeof s === 'string' && typeof s.toWellFormed === 'function' ? s.toWellFormed() : s);

function run(c) {
  const cap = JSON.parse(c.text);
  const out = { errors: null, threw: null, contract: null, warnings: [] };
  try {
    out.errors = validator.validateCapability(cap, c.folder).map(wellFormed);
  } catch (err) {
    out.threw = String(err && err.message);
  }
  if (out.errors && out.errors.length === 0) {
    try {
      out.contract = validator.validateAgainstContract(cap, c.folder).map(wellFormed);
    } catch (err) {
      out.contract = ['THREW: ' + String(err && err.message)];
    }
  }
  out.warnings = validator.collectReviewerWarningRecords(cap).map((r) => {
    const rec = {};
    for (const [k, v] of Object.entries(r)) rec[k] = wellFormed(v);
    return rec;
  });
  return out;
}

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify({ results: input.cases.map(run) }));
