#!/usr/bin/env node
'use strict';
// The gsd-core command line: a thin edge over the package API. It parses flags, reads the
// files it is asked about, and renders results; every decision comes from the core.

const { parseArgs } = require('node:util');
const api = require('../index.js');

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

const color = !('NO_COLOR' in process.env) && Boolean(process.stdout.isTTY);
const paint = (code) => (text) => (color ? `\u001b[${code}m${text}\u001b[0m` : String(text));
const bold = paint('1');
const dim = paint('2');
const red = paint('31');
const yellow = paint('33');
const green = paint('32');

/** Peer flag spellings that are not a runtime id. */
const RUNTIME_ALIASES = Object.freeze({ 'devin-desktop': 'windsurf' });

const HELP = `gsd-core <command> [options]

Commands:
  plan       Show the install plan for one or more runtimes at one scope
  doctor     Per runtime: config dir and provenance, installed scopes, shadowed triggers
  validate   Validate capability manifests: validate <folder|capability.json>
  runtimes   List the registered runtimes

plan options:
  --<runtime>              Select a runtime (--claude, --codex, --opencode, ...; see
                           \`gsd-core runtimes\`); --devin-desktop selects windsurf
  --all                    Select every registered runtime
  -g, --global             Global scope (the runtime's config directory; default)
  -l, --local              Local scope (the project's config directory under cwd)
  -c, --config-dir <path>  Explicit config directory (global scope, one runtime)
  --profile=<name>         Install profile (core, standard, full; default full)
  --source <dir>           GSD package root to inventory (commands/gsd/*.md, agents/*.md)
  --json                   Print the plan(s) as JSON

doctor options:
  --<runtime>, --all       Runtimes to inspect (default: all)
  --json                   Print the report as JSON

Common options:
  -h, --help               Show this help

Colour is used only on a terminal and never when NO_COLOR is set.

Exit codes:
  0  success (doctor: no errors; validate: no error diagnostics)
  1  a failure: an error from the core, doctor found errors, validation errors
  2  usage error: unknown command or flag, contradictory flags, missing argument
`;

class UsageError extends Error {}

function runtimeIds() {
  return api.firstPartyRegistry().runtimeIds();
}

/** The parseArgs option table for runtime-selecting commands. */
function runtimeOptions() {
  const options = { all: { type: 'boolean' } };
  for (const id of [...runtimeIds(), ...Object.keys(RUNTIME_ALIASES)]) {
    options[id] = { type: 'boolean' };
  }
  return options;
}

/** Runtimes selected by flags, in registry order, without duplicates. */
function selectedRuntimes(values) {
  if (values.all) return runtimeIds();
  const picked = new Set();
  for (const id of runtimeIds()) if (values[id]) picked.add(id);
  for (const [alias, id] of Object.entries(RUNTIME_ALIASES)) if (values[alias]) picked.add(id);
  return runtimeIds().filter((id) => picked.has(id));
}

function parse(args, options) {
  try {
    return parseArgs({ args, options: { help: { type: 'boolean', short: 'h' }, ...options }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(err.message);
  }
}

function describeError(err) {
  const field = err.field ? ` (field: ${err.field})` : '';
  return `${err.code ?? 'ERROR'}: ${err.message}${field}`;
}

function cmdRuntimes(args) {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (values.help) return print(HELP);
  if (positionals.length > 0) throw new UsageError(`runtimes takes no arguments, got ${positionals.join(' ')}`);
  const rows = api.runtimes();
  if (values.json) return print(JSON.stringify(rows, null, 2));
  const table = [['RUNTIME', 'TIER', 'CONFIG HOME', 'LOCAL DIR', 'COMMANDS', 'CONFIG SURFACE']];
  for (const { id, descriptor: d } of rows) {
    const home = d.configHome.kind === 'none' ? 'none' : `${d.configHome.kind}:${d.configHome.name ?? ''}`;
    table.push([id, String(d.supportTier), home, d.localConfigDir ?? '-', d.commandStyle, d.installSurface]);
  }
  print(renderTable(table));
  return EXIT_OK;
}

function renderTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((row, n) => {
      const line = row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
      return n === 0 ? bold(line) : line;
    })
    .join('\n');
}

function print(text) {
  process.stdout.write(`${text}\n`);
  return EXIT_OK;
}

const COMMANDS = { runtimes: cmdRuntimes };

function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    print(HELP);
    return command === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command '${command}'`);
    return run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`gsd-core: ${err.message}\nRun 'gsd-core --help' for usage.\n`);
      return EXIT_USAGE;
    }
    if (typeof err?.code === 'string' && api.errorCodes.includes(err.code)) {
      process.stderr.write(`gsd-core: ${red(describeError(err))}\n`);
      return EXIT_FAILURE;
    }
    throw err;
  }
}

module.exports = { main, HELP, EXIT_OK, EXIT_FAILURE, EXIT_USAGE, UsageError, parse, runtimeOptions, selectedRuntimes, describeError, print, renderTable, bold, dim, red, yellow, green };

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
