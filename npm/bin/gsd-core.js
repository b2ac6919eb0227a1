#!/usr/bin/env node
'use strict';
// The gsd-core command line: a thin edge over the package API. It parses flags, reads the
// files it is asked about, and renders results; every decision comes from the core.

const { parseArgs } = require('node:util');
const api = require('../index.js');
const overlays = require('../overlays.js');
const profiles = require('../compat/install-profiles.cjs');

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

/**
 * The painters of one output stream. Colour is decided per stream: stdout may be a terminal
 * while stderr goes to a file (or the reverse), and escape codes must never reach a file.
 * @param {NodeJS.WriteStream} stream
 */
function paletteFor(stream) {
  // https://no-color.org: a NO_COLOR that is set and not empty turns colour off.
  const color = !process.env.NO_COLOR && Boolean(stream.isTTY);
  const paint = (code) => (text) => (color ? `\u001b[${code}m${text}\u001b[0m` : String(text));
  return { bold: paint('1'), dim: paint('2'), red: paint('31'), yellow: paint('33'), green: paint('32') };
}
const { bold, dim, red, yellow, green } = paletteFor(process.stdout);
const stderrRed = paletteFor(process.stderr).red;

/** Profile names the core knows, most restrictive first. */
const KNOWN_PROFILES = api.vocabulary.profileRank;

/** Peer flag spellings that are not a runtime id. */
const RUNTIME_ALIASES = Object.freeze({ 'devin-desktop': 'windsurf' });

/** Peer flags that select several runtimes. */
const RUNTIME_GROUPS = Object.freeze({ both: Object.freeze(['claude', 'opencode']) });

const HELP = `gsd-core <command> [options]

Commands:
  plan       Show the install plan for one or more runtimes at one scope
  doctor     Per runtime: config dir and provenance, installed scopes, shadowed triggers
  validate   Validate capability manifests: validate <folder|capability.json>; a folder
             of capability folders is also admitted as overlays onto the first-party registry
  runtimes   List the registered runtimes

plan options:
  --<runtime>              Select a runtime (--claude, --codex, --opencode, ...; see
                           \`gsd-core runtimes\`); --devin-desktop selects windsurf,
                           --both claude and opencode
  --all                    Select every registered runtime
  -g, --global             Global scope (the runtime's config directory; default)
  -l, --local              Local scope (the project's config directory under cwd)
  -c, --config-dir <path>  Explicit config directory (global scope, one runtime)
  --profile=<name>         Install profile (${KNOWN_PROFILES.join(', ')}, or several joined
                           by commas; default: the profile recorded in the
                           config directory, else full); core is the core list
                           alone, the others read the bodies under --source
  --minimal, --core-only   The same as --profile=core
  --source <dir>           GSD package root to inventory (commands/gsd/*.md, agents/*.md)
  --json                   Print the plan(s) as JSON: one runtime's plan, an array for
                           several or --all (a runtime --all skips is named on stderr)

doctor options:
  --<runtime>, --all       Runtimes to inspect (default: all)
  --strict                 Exit 1 on a warning too (a corrupt, oversized or
                           unreadable install manifest of any runtime), or a
                           selected runtime's shadowed trigger, not only on an error
  --json                   Print the report as JSON

runtimes options:
  --json                   Print each runtime's descriptor as JSON

validate options:
  --first-party            The folder is the first-party capability tree: check each manifest,
                           without admitting the folders as overlays onto the registry
  --json                   Print the results as JSON

Common options:
  -h, --help               Show this help

gsd-core --version (or -V), alone, prints the version of this package.

Colour is used only on a terminal and never when NO_COLOR is set (and not empty).

Exit codes:
  0  success (doctor: no errors, and with --strict no warning or shadowed trigger;
     validate: no error diagnostics)
  1  a failure: an error from the core, doctor found errors (--strict: or warnings or
     shadowed triggers), validation errors or nothing to validate, a file under
     --source that cannot be read or whose stem the core refuses, a recorded profile
     that needs --source when none is given (that runtime only), output that cannot
     be written
  2  usage error: no command, unknown command or flag, contradictory flags, missing
     or empty argument, an unknown profile name or one that needs --source without it,
     a --config-dir that is there and is not a directory, a --source without
     commands/gsd, a validate path that is not there
`;

class UsageError extends Error {}

/** One runtime that cannot be planned for a reason outside the core (exit 1; the others go on). */
class PlanFailure extends Error {}

/**
 * A file or folder under `--source` that exists but cannot be read: a failure (exit 1), not
 * a usage error, since the command line itself was right.
 */
class SourceReadError extends Error {}

/** The OS error of a failed read as the overlay loader writes it: `EACCES (os error 13)`. */
function describeOsError(err) {
  const code = overlays.escapeText(String(err?.code ?? err?.message ?? err));
  return typeof err?.errno === 'number' ? `${code} (os error ${Math.abs(err.errno)})` : code;
}

/** The failure of reading `what` under `--source`: one line with the path and the OS error. */
function unreadableSource(what, err) {
  return new SourceReadError(`--source: cannot read ${printable(what)}: ${describeOsError(err)}`);
}

/** The text of one file under `--source`; a failed read is reported, never thrown raw. */
function readSourceFile(file) {
  try {
    return require('node:fs').readFileSync(file, 'utf8');
  } catch (err) {
    throw unreadableSource(file, err);
  }
}

/** The longest text a message repeats from its input, in characters (a path fits). */
const MAX_SHOWN_CHARS = 4096;

/**
 * Text from the command line or the disk as a message shows it: control characters
 * escaped, and clipped past `MAX_SHOWN_CHARS` with the full length said.
 */
function printable(text) {
  const raw = String(text);
  // Counted in characters (code points) of the input, and cut before escaping, so a cut
  // never splits a surrogate pair or an escape.
  if (raw.length <= MAX_SHOWN_CHARS) return overlays.escapeText(raw);
  const characters = Array.from(raw);
  if (characters.length <= MAX_SHOWN_CHARS) return overlays.escapeText(raw);
  return `${overlays.escapeText(characters.slice(0, MAX_SHOWN_CHARS).join(''))}… (${characters.length} characters)`;
}

/**
 * How `validate` shows a result whose folder the overlay loader named already escaped
 * (a refused folder): its folder and path as they are printed.
 * @type {WeakMap<object, { folder: string, path: string }>}
 */
const SHOWN = new WeakMap();

function runtimeIds() {
  return api.firstPartyRegistry().runtimeIds();
}

/** The parseArgs option table for runtime-selecting commands. */
function runtimeOptions() {
  const options = { all: { type: 'boolean' } };
  for (const id of [...runtimeIds(), ...Object.keys(RUNTIME_ALIASES), ...Object.keys(RUNTIME_GROUPS)]) {
    options[id] = { type: 'boolean' };
  }
  return options;
}

/** Runtimes selected by flags, in registry order, without duplicates. */
function selectedRuntimes(values) {
  if (values.all) return runtimeIds();
  // As in the peer installer: --all wins, then --both, over single runtimes.
  for (const [group, ids] of Object.entries(RUNTIME_GROUPS)) if (values[group]) return [...ids];
  const picked = new Set();
  for (const id of runtimeIds()) if (values[id]) picked.add(id);
  for (const [alias, id] of Object.entries(RUNTIME_ALIASES)) if (values[alias]) picked.add(id);
  return runtimeIds().filter((id) => picked.has(id));
}

/**
 * Says on stderr which runtime flags a group flag overrode (`--both --codex` plans claude
 * and opencode, as the peer installer does): a runtime asked for is never dropped silently.
 */
function noteOverriddenRuntimes(values, selected) {
  const flags = [...runtimeIds(), ...Object.keys(RUNTIME_ALIASES)].filter((flag) => values[flag]);
  const dropped = flags.filter((flag) => !selected.includes(RUNTIME_ALIASES[flag] ?? flag));
  if (dropped.length === 0) return;
  const group = Object.keys(RUNTIME_GROUPS).find((g) => values[g]);
  process.stderr.write(`gsd-core: note: --${group} selects ${selected.join(' and ')} and overrides ${dropped.map((f) => `--${f}`).join(', ')}, ${dropped.length === 1 ? 'which is' : 'which are'} not planned\n`);
}

/**
 * Parses a command's arguments. As in the peer installer, `-c=<path>` is `--config-dir=<path>`
 * (Node's parser would read `=<path>`). A value option given twice is refused: the peer
 * takes the first, Node's parser the last, and either would hide the other silently.
 */
function parse(args, options, command) {
  const table = { help: { type: 'boolean', short: 'h' }, ...options };
  for (const [name, option] of Object.entries(table)) if (option.type === 'string') table[name] = { ...option, multiple: true };
  // Up to `--` only: what follows it is positional, as the user typed it.
  const end = args.indexOf('--');
  const spelled = args.map((a, i) => ((end === -1 || i < end) && a.startsWith('-c=') && table['config-dir'] ? `--config-dir=${a.slice(3)}` : a));
  let parsed;
  try {
    parsed = parseArgs({ args: spelled, options: table, allowPositionals: true, strict: true });
  } catch (err) {
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(unknownOption(err.message, table, command));
    // Node's message spans lines: each is made safe to print, the breaks are kept; its
    // first word loses its capital, as our own messages start.
    const message = String(err.message);
    throw new UsageError(`${message.charAt(0).toLowerCase()}${message.slice(1)}`.split('\n').map(printable).join('\n'));
  }
  for (const [name, given] of Object.entries(parsed.values)) {
    if (!Array.isArray(given)) continue;
    if (given.length > 1) throw new UsageError(`--${name} is given ${given.length} times (${given.map((v) => `'${printable(v)}'`).join(', ')}); give it once`);
    parsed.values[name] = given[0];
  }
  return parsed;
}

/** Runtimes the peer installer once selected, and the runtime it now sends their users to. */
const REMOVED_RUNTIMES = Object.freeze({ gemini: 'antigravity' });

/**
 * The options of each command besides `--help` and, for plan and doctor, the runtime
 * flags (`runtimeOptions()`): what its parser takes, and what the usage error of another
 * command names it by.
 */
const COMMAND_OPTIONS = Object.freeze({
  plan: {
    global: { type: 'boolean', short: 'g' },
    local: { type: 'boolean', short: 'l' },
    'config-dir': { type: 'string', short: 'c' },
    profile: { type: 'string' },
    minimal: { type: 'boolean' },
    'core-only': { type: 'boolean' },
    source: { type: 'string' },
    json: { type: 'boolean' },
  },
  doctor: { json: { type: 'boolean' }, strict: { type: 'boolean' } },
  runtimes: { json: { type: 'boolean' } },
  validate: { json: { type: 'boolean' }, 'first-party': { type: 'boolean' } },
});

/** The command that takes `--<name>`, when one takes it and `command` does not. */
function optionOf(name, command) {
  if (Object.hasOwn(COMMAND_OPTIONS[command] ?? {}, name)) return undefined;
  return Object.keys(COMMAND_OPTIONS).find((other) => Object.hasOwn(COMMAND_OPTIONS[other], name));
}

/**
 * The usage error for an option the command does not take (Node's parser names it in
 * `message`): an option of another command names that command; where the command selects
 * runtimes, a removed runtime names its successor and a near spelling (`--claude-code`,
 * `--code`) the runtime it is close to.
 */
function unknownOption(message, table, command) {
  const spelled = /^Unknown option '([^]*?)'(?:\. |$)/.exec(message)?.[1] ?? message;
  const said = `unknown option '${printable(spelled)}'`;
  const name = spelled.replace(/^-+/, '').split('=')[0].toLowerCase();
  const owner = command !== undefined && spelled.startsWith('--') ? optionOf(name, command) : undefined;
  if (owner !== undefined) return `${said}: it is an option of \`gsd-core ${owner}\`, not of ${command}`;
  if (!('all' in table)) return said;
  if (Object.hasOwn(REMOVED_RUNTIMES, name)) {
    return `${said}: the ${name} runtime was removed; its successor is --${REMOVED_RUNTIMES[name]}`;
  }
  const near = runtimeIds().filter((id) => name.length >= 3 && (name.startsWith(`${id}-`) || id.startsWith(name)));
  if (near.length > 0) return `${said}; did you mean ${near.map((id) => `--${id}`).join(' or ')}?`;
  return `${said} (\`gsd-core runtimes\` lists the runtimes a --<runtime> flag selects)`;
}

function describeError(err) {
  const field = err.field ? ` (field: ${err.field})` : '';
  return `${err.code ?? 'ERROR'}: ${err.message}${field}`;
}

function cmdRuntimes(args) {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.runtimes, 'runtimes');
  if (values.help) return print(HELP);
  if (positionals.length > 0) throw new UsageError(`runtimes takes no arguments, got '${printable(positionals.join(' '))}'`);
  const rows = api.runtimes();
  if (values.json) return print(JSON.stringify(rows, null, 2));
  const table = [['RUNTIME', 'TIER', 'CONFIG HOME', 'LOCAL DIR', 'COMMANDS', 'CONFIG SURFACE']];
  for (const { id, descriptor: d } of rows) {
    const home = d.configHome.kind === 'none' ? 'none' : `${d.configHome.kind}:${configHomeName(d.configHome)}`;
    table.push([id, String(d.supportTier), home, d.localConfigDir ?? '-', d.commandStyle, d.installSurface]);
  }
  print(renderTable(table));
  return EXIT_OK;
}

/** Where a config home sits under the home directory: `.gemini/antigravity`, `.claude`. */
function configHomeName(c) {
  return c.parent ? `${c.parent}/${c.name ?? ''}` : c.name ?? '';
}

/**
 * The stems of the `*.md` regular files of a folder (sorted), as the installer stages
 * them, and the `*.md` entries passed over because they are not regular files (links,
 * folders, FIFOs): `{ stems, skipped: [{ path (bytes), what }] }`.
 * A folder that is not there
 * means the `--source` argument is wrong (a usage error), unless it is `optional`; one that
 * is there but cannot be listed is a failure. A file whose name is not UTF-8, or is `.md`
 * alone, cannot be a stem: it is a failure naming the file, never a stem read otherwise.
 */
function markdownStems(dir, optional = false) {
  const fs = require('node:fs');
  const path = require('node:path');
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (err) {
    if (optional && err?.code === 'ENOENT') return { stems: [], skipped: [] };
    // A required folder that is not there (or not a folder) means the argument is wrong;
    // an optional one that is there and cannot be listed (a file named `agents`) is a
    // failure, as any other folder that exists and cannot be read.
    const failure = unreadableSource(dir, err);
    throw !optional && (err?.code === 'ENOENT' || err?.code === 'ENOTDIR') ? new UsageError(failure.message) : failure;
  }
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const names = [];
  const skipped = [];
  for (const e of entries.sort((a, b) => Buffer.compare(a.name, b.name))) {
    if (!e.name.toString('latin1').endsWith('.md')) continue;
    // The installer stages regular files only: a link (even to a command file), a folder
    // or a FIFO named `*.md` is not installed, so it is no stem; it is returned to be
    // said, never dropped in silence.
    if (!e.isFile()) {
      skipped.push({ path: Buffer.concat([Buffer.from(`${dir}/`), e.name]), what: entryKind(e) });
      continue;
    }
    let name;
    try {
      name = utf8.decode(e.name);
    } catch {
      throw new SourceReadError(`--source: ${overlays.escapeName(Buffer.concat([Buffer.from(`${dir}/`), e.name]))} has a name that is not UTF-8; it cannot be a stem`);
    }
    if (name === '.md') throw new SourceReadError(`--source: ${printable(path.join(dir, name))} has an empty stem`);
    // A file the plan would place must be one the install can read.
    try {
      fs.accessSync(path.join(dir, name), fs.constants.R_OK);
    } catch (err) {
      throw unreadableSource(path.join(dir, name), err);
    }
    names.push(name);
  }
  // Sorted by file name, as a directory listing is.
  return { stems: names.sort().map((name) => name.slice(0, -3)), skipped };
}

/** What a directory entry that is not a regular file is, as a note says it. */
function entryKind(e) {
  if (e.isSymbolicLink()) return 'a symbolic link';
  if (e.isDirectory()) return 'a directory';
  if (e.isFIFO()) return 'a FIFO';
  if (e.isSocket()) return 'a socket';
  return 'a device';
}

/**
 * What the command reads under a `--source` root: each folder is listed and each file read
 * once, however often it is asked for (the inventory and a profile both list
 * `commands/gsd`; a profile recorded per config directory reads the bodies again), and the
 * `*.md` entries passed over (links, folders, FIFOs) are kept to be said once each.
 */
class SourceTree {
  /** @param {string} root */
  constructor(root) {
    const path = require('node:path');
    this.commandsDir = path.join(root, 'commands', 'gsd');
    this.agentsDir = path.join(root, 'agents');
    this.workflowsDir = path.join(root, 'gsd-core', 'workflows');
    /** @type {Map<string, string[]>} */
    this.listings = new Map();
    /** @type {Map<string, string>} */
    this.texts = new Map();
    /** The entries passed over, by path (latin1, so any byte survives), in the order met. */
    this.skipped = new Map();
  }

  /** `markdownStems(dir, optional)`, listed once. */
  stems(dir, optional = false) {
    let stems = this.listings.get(dir);
    if (stems === undefined) {
      const listed = markdownStems(dir, optional);
      for (const entry of listed.skipped) this.skipped.set(entry.path.toString('latin1'), entry);
      stems = listed.stems;
      this.listings.set(dir, stems);
    }
    return stems;
  }

  /** The workflow files (relative `/` paths, as `walk` finds them), listed once. */
  workflows() {
    this.workflowPaths ??= walk(this.workflowsDir);
    return this.workflowPaths;
  }

  /** The text of `file` under the root, read once. */
  text(file) {
    let text = this.texts.get(file);
    if (text === undefined) {
      text = readSourceFile(file);
      this.texts.set(file, text);
    }
    return text;
  }
}

/**
 * Reads a GSD package root's inventory: command and agent stems (commands/gsd/*.md,
 * agents/*.md), the `ns-*` routers and, from their `requires:` lists, which routers own
 * which child.
 */
function readInventory(tree) {
  const path = require('node:path');
  const { commandsDir, agentsDir } = tree;
  const commands = tree.stems(commandsDir);
  // A source tree need not ship agents.
  const agents = tree.stems(agentsDir, true);
  const routerStems = commands.filter((stem) => stem.startsWith('ns-'));
  // No prototype: a child named `constructor` or `__proto__` is a key like any other.
  const childToRouters = Object.create(null);
  for (const router of routerStems) {
    for (const child of api.parseRequires(tree.text(path.join(commandsDir, `${router}.md`)))) {
      (childToRouters[child] ??= []).push(router);
    }
  }
  const given = { commands, agents, routerStems, childToRouters };
  try {
    // Checked once here, for every runtime the command plans.
    return api.inventory(given);
  } catch (err) {
    if (err?.code !== 'INVALID_ARGUMENT') throw err;
    throw new SourceReadError(`--source: ${unusableSourceFile(err, given, commandsDir, agentsDir)}`);
  }
}

/**
 * The file under `--source` a refused inventory comes from, and why, for a stem the core
 * refused (`commands[3] is 210 bytes long, ...`): the file it names, or the router whose
 * `requires:` lists it.
 */
function unusableSourceFile(err, given, commandsDir, agentsDir) {
  const path = require('node:path');
  const at = /^(commands|agents|routerStems)\[(\d+)\]$/.exec(err.field ?? '');
  if (at !== null) {
    const stem = given[at[1]][Number(at[2])];
    const file = path.join(at[1] === 'agents' ? agentsDir : commandsDir, `${stem}.md`);
    return `${printable(file)}: its stem${ruleOf(err.message.slice(err.field.length))}`;
  }
  // The first child that cannot be a stem, in the core's (sorted) order, asked on its own:
  // its refusal is the reason, without the value it quotes (said here as the file spells it).
  for (const child of Object.keys(given.childToRouters).sort()) {
    let refusal;
    try {
      api.inventory({ commands: [child] });
      continue;
    } catch (childErr) {
      if (childErr?.code !== 'INVALID_ARGUMENT') throw childErr;
      refusal = childErr.message.slice('commands[0]'.length);
    }
    const file = path.join(commandsDir, `${given.childToRouters[child][0]}.md`);
    return `${printable(file)}: its requires: lists '${printable(child)}', which${ruleOf(refusal)}`;
  }
  return err.message;
}

/**
 * A stem refusal of the core without the value it quotes (`, got "..."`, `; it starts
 * "..."`): the message names the file, escaped as every path is, so the value is not shown
 * a second time, cleaned another way.
 */
function ruleOf(refusal) {
  const quoted = refusal.lastIndexOf(', got ');
  return quoted === -1 ? refusal.replace(/; it starts .*$/s, '') : refusal.slice(0, quoted);
}

/**
 * The workflow files under `dir` (relative `/` paths), as the installer reads them
 * (`install-profiles.cjs workflowFiles`: links followed at the top only). A missing `dir`
 * holds nothing (a source tree need not have workflows); a folder that exists but cannot
 * be listed is a failure, since skipping it would change the profile silently.
 */
function walk(dir) {
  return profiles.workflowFiles(dir, (at, err, prefix) => {
    if (prefix === '' && err?.code === 'ENOENT') return [];
    throw unreadableSource(at, err);
  });
}

/**
 * Checks a `--profile` value: each comma-separated name must be a profile the core knows.
 * The core reads an unknown name as `full` (an installed marker it cannot read must not
 * shrink an install), which on the command line would hide a typo: here it is refused.
 */
function checkProfileNames(value) {
  const known = KNOWN_PROFILES.join(', ');
  if (value.trim() === '') throw new UsageError(`--profile requires a name (${known})`);
  for (const name of value.split(',').map((n) => n.trim())) {
    if (KNOWN_PROFILES.includes(name)) continue;
    const why = name === '' ? 'has an empty name in its list' : `names an unknown profile '${printable(name)}'`;
    throw new UsageError(`--profile=${printable(value)} ${why}; known profiles: ${known}`);
  }
}

/** Whether a profile value (`core,full`) has a `full` part, which selects everything. */
function selectsEverything(name) {
  return name.split(',').some((part) => part.trim() === 'full');
}

/**
 * The profile selection of a plan: `null` for full, else the skills and agents to keep.
 *
 * As the peer installer decides it: the profile named exactly `core` (`--profile=core`,
 * `--minimal`, `--core-only`, a `core` marker) is resolved against an empty skills
 * manifest, so it is the core list alone, with no `requires:` closure and no agents, and
 * needs no `--source`; any other (`standard`, `core,standard`) reads the command and
 * workflow bodies under `--source`. `spelled` names the choice in a usage error.
 */
function readProfile(name, tree, spelled = `--profile=${printable(name)}`) {
  // Any part `full` selects everything, whatever the others name: nothing to read.
  if (name === undefined || selectsEverything(name)) return null;
  let sources = { commands: [], workflows: [] };
  if (name !== 'core') {
    if (tree === undefined) throw new UsageError(`${spelled} needs --source <dir> (the commands and workflows it selects from)`);
    const path = require('node:path');
    const { commandsDir, workflowsDir } = tree;
    sources = {
      commands: tree.stems(commandsDir).map((stem) => ({ stem, body: tree.text(path.join(commandsDir, `${stem}.md`)) })),
      workflows: tree.workflows().map((rel) => ({ path: rel, body: tree.text(path.join(workflowsDir, rel)) })),
    };
  }
  const profile = api.resolveProfile([name], sources);
  if (profile.skills === '*') return null;
  return { skills: [...profile.skills], agents: [...profile.agents] };
}

/**
 * The profile an earlier install recorded in `configHome` (its `.gsd-profile` marker, read
 * as `compat/install-profiles.cjs` reads it), when it names one other than `full`:
 * `{ name, known, file }`, `known` false when it selects nothing (no profile the core
 * knows, or `full` among them; `name` null when its text names no profile); `{ refused,
 * file }` when the path holds no marker the installer could have written (a FIFO, a
 * device, over 64 KiB), which is never read on.
 */
function recordedProfile(configHome) {
  const marker = profiles.profileMarker(configHome);
  if (marker === null) return null;
  if (marker.refused !== undefined) return marker;
  const { name, file } = marker;
  // A marker whose text names no profile (garbled, empty) reads as full, as the installer
  // reads it: said, like a marker naming an unknown profile.
  if (name === null) return { name: null, known: false, file };
  if (name === 'full') return null;
  // The core decides, as it does for the plan: a name that resolves to everything (unknown
  // names only, or `full` among them) selects nothing.
  const known = api.resolveProfile([name], { commands: [] }).skills !== '*';
  return { name, known, file };
}

function describeProvenance(p) {
  switch (p.source) {
    case 'explicitDir':
      return `--config-dir ${printable(p.value)}`;
    case 'envVar':
      return `$${printable(p.name)}`;
    case 'probe':
      return p.marker ? `probe: ${printable(p.marker)} found` : 'probe: directory found';
    case 'probeFallback':
      return 'probe: nothing found, first candidate';
    case 'projectDir':
      return `project: ${printable(p.localConfigDir)} under ${printable(p.cwd)}`;
    default:
      return 'default';
  }
}

/** The command-line input a plan diagnostic's field names: `--config-dir`, `$CLAUDE_CONFIG_DIR`. */
function inputNamed(field) {
  if (field === 'explicitDir') return '--config-dir';
  if (typeof field === 'string' && field.startsWith('host.env.')) return `$${printable(field.slice('host.env.'.length))}`;
  return field === undefined ? '' : printable(field);
}

/**
 * The text form of one plan. `inventoried`: whether `--source` gave the commands and
 * agents to place (without it the plan has the layout but no file to list).
 */
function renderPlan(plan, profile, inventoried) {
  const out = [];
  const s = plan.scope;
  out.push(bold(`${plan.runtime} (${s.id})`));
  out.push(`  config dir    ${printable(s.configHome)}  ${dim(`(${describeProvenance(s.provenance)})`)}`);
  if (profile !== undefined) out.push(`  profile       ${profile}`);
  if (s.settingsFile) out.push(`  settings      ${printable(s.settingsFile)}`);
  if (plan.kinds.length > 0) out.push(`  commands      ${api.formatGsdSlash('help', plan.runtime).replace(/help$/, '<name>')}`);
  const c = plan.config;
  out.push(`  config        ${c.installSurface} (${c.configFormat})${c.writesSharedSettings ? ', writes shared settings' : ''}${c.permissionWriter ? `, permissions: ${c.permissionWriter}` : ''}`);
  const h = plan.hooks;
  out.push(`  hooks         ${h.surface}${h.hookEvents ? `, ${h.hookEvents} events` : ''}${h.extendedHookEvents.length ? ` + ${h.extendedHookEvents.join(', ')}` : ''}`);
  out.push(`  sandbox       ${plan.sandboxTier}   support tier ${plan.supportTier}${s.consentRequired ? '   consent required' : ''}`);
  out.push(plan.kinds.length > 0 ? '  layout' : `  layout        ${dim('nothing is placed at this scope')}`);
  for (const k of plan.kinds) {
    const extra = [k.prefix && `prefix ${printable(k.prefix)}`, k.nesting, k.converter].filter(Boolean).join(', ');
    out.push(`    ${k.kind.padEnd(11)} → ${printable(k.destDir)}  ${dim(`(${extra})`)}`);
  }
  if (plan.placements.length > 0) {
    const byKind = {};
    for (const p of plan.placements) byKind[p.kind] = (byKind[p.kind] ?? 0) + 1;
    out.push(`  placements    ${counted(plan.placements.length, 'file')} (${Object.entries(byKind).map(([k, n]) => `${k} ${n}`).join(', ')})`);
  } else if (plan.kinds.length > 0) {
    // With --source the plan placed nothing it listed (an empty source, or a profile that
    // selects none of it): said, as much as a plan that places files.
    out.push(`  placements    ${inventoried ? '0 files' : dim('none listed: --source <dir> (the GSD package) gives the commands and agents to place')}`);
  }
  const shadowed = plan.triggers.filter((t) => t.shadowedBy);
  if (plan.triggers.length > 0 || (inventoried && plan.kinds.length > 0)) out.push(`  triggers      ${plan.triggers.length} (${shadowed.length} shadowed)`);
  for (const t of shadowed) {
    out.push(yellow(`    ! ${t.trigger} (${t.scope} ${t.kind}) is shadowed by ${t.shadowedBy.scope} ${t.shadowedBy.kind}`));
  }
  for (const d of plan.diagnostics.filter((d) => d.code !== 'trigger_shadowed')) {
    const from = inputNamed(d.field);
    out.push(`  ${d.severity === 'error' ? red(d.severity) : yellow(d.severity)} ${d.code}${from ? ` (${from})` : ''}: ${d.message}`);
  }
  out.push(`  manifest      gsd-file-manifest.json v${plan.installManifest.manifestVersion} (${plan.installManifest.runtime}, ${plan.installManifest.scope})`);
  return out.join('\n');
}

/**
 * A plan shadows triggers within its own scope only; when the runtime is installed at the
 * other scope on this machine, the triggers of the two can shadow each other, which
 * `doctor` reports: said, so "0 shadowed" is not read as the whole story. Only the plan's
 * own runtime is looked up on disk.
 */
function otherScopeNote(plan) {
  const other = plan.scope.id === 'global' ? 'local' : 'global';
  const [surface] = api.resolveInstalledSurfaces(plan.runtime).surfaces;
  const installed = surface?.scopes.find((s) => s.scope === other && s.installed);
  if (installed === undefined) return null;
  return `installed at ${other} scope too (${printable(installed.configHome)}): \`gsd-core doctor --${plan.runtime}\` shows which triggers one scope shadows`;
}

/**
 * `--config-dir` as the core resolved it (`~/x` under the home directory): a directory
 * that does not exist yet is fine (an install creates it); anything else already there
 * could never hold the files, a usage error.
 */
function checkConfigDir(configHome, given) {
  let stat = null;
  try {
    stat = require('node:fs').statSync(configHome);
  } catch {
    stat = null;
  }
  if (stat !== null && !stat.isDirectory()) throw new UsageError(`--config-dir ${printable(given)} is there and is not a directory`);
}

function cmdPlan(args) {
  const { values, positionals } = parse(args, { ...runtimeOptions(), ...COMMAND_OPTIONS.plan }, 'plan');
  if (values.help) return print(HELP);
  if (positionals.length > 0) throw new UsageError(`plan takes no positional arguments, got '${printable(positionals.join(' '))}'`);
  if (values.global && values.local) throw new UsageError('--global and --local contradict each other; choose one');
  if (values['config-dir'] !== undefined && values.local) throw new UsageError('--config-dir applies to the global scope; it cannot be combined with --local');
  if (values['config-dir'] !== undefined && values['config-dir'].trim() === '') throw new UsageError('--config-dir requires a non-empty path');
  if (values.source !== undefined && values.source.trim() === '') throw new UsageError('--source requires a non-empty path');
  const runtimes = selectedRuntimes(values);
  if (runtimes.length === 0) throw new UsageError('choose at least one runtime (--claude, --codex, ... or --all)');
  if (values['config-dir'] !== undefined && runtimes.length > 1) throw new UsageError('--config-dir applies to one runtime; it cannot be combined with several');
  if ((values.minimal || values['core-only']) && values.profile !== undefined) throw new UsageError('--minimal/--core-only and --profile contradict each other; choose one');
  // The peer installer's back-compatible spellings of --profile=core.
  const coreAlias = values.minimal ? '--minimal' : values['core-only'] ? '--core-only' : undefined;
  if (coreAlias !== undefined) values.profile = 'core';
  if (values.profile !== undefined) checkProfileNames(values.profile);
  // The command line is right: a runtime flag a group overrode is said before planning.
  noteOverriddenRuntimes(values, runtimes);
  const scope = values.local ? 'local' : 'global';
  const tree = values.source === undefined ? undefined : new SourceTree(values.source);
  const inventory = tree === undefined ? undefined : readInventory(tree);
  const options = { inventory, explicitDir: values['config-dir'], profile: readProfile(values.profile, tree, coreAlias) };
  // A command or agent that is not a regular file is not installed, so no plan places it:
  // said once each (the inventory lists every folder a profile lists).
  for (const { path: at, what } of tree?.skipped.values() ?? []) {
    process.stderr.write(`gsd-core: note: --source: ${overlays.escapeName(at)} is ${what}; the installer stages regular files only, so no plan places it\n`);
  }
  // The selection of each profile recorded in a config directory, read once per name.
  const recordedSelections = new Map();
  const plans = [];
  // Per plan: the profile it installs when not full, and where that choice comes from.
  const chosen = new Map();
  // The same for every plan when the command line names a profile.
  // Named as it resolves: a list with a `full` part is full.
  const resolvedName = values.profile !== undefined && selectsEverything(values.profile) ? 'full' : values.profile;
  const named = values.profile !== undefined ? `${printable(resolvedName)} (${coreAlias ?? `--profile=${printable(values.profile)}`})` : undefined;
  const skipped = [];
  let failed = false;
  for (const runtime of runtimes) {
    try {
      let plan = api.resolveInstallPlan(runtime, scope, undefined, options);
      if (values['config-dir'] !== undefined) checkConfigDir(plan.scope.configHome, values['config-dir']);
      // No profile asked for: as the installer does, the profile an earlier install
      // recorded in the config directory is kept (`gsd update` never widens an install).
      const recorded = values.profile === undefined ? recordedProfile(plan.scope.configHome) : null;
      if (recorded?.refused !== undefined) {
        chosen.set(plan, `full (${printable(recorded.file)} ${recorded.refused}: not read as a profile marker)`);
      } else if (recorded !== null && !recorded.known) {
        // A marker naming no profile the core knows selects nothing: the installer installs
        // everything, and so does the plan (said, so the marker is not taken for applied).
        const names = recorded.name === null ? 'names no profile' : `names '${printable(recorded.name)}'`;
        chosen.set(plan, `full (${printable(recorded.file)} ${names}, which selects everything)`);
      } else if (recorded !== null) {
        const spelled = `the profile '${printable(recorded.name)}' recorded in ${printable(recorded.file)}`;
        let profile = recordedSelections.get(recorded.name);
        try {
          if (profile === undefined) {
            profile = readProfile(recorded.name, tree, spelled);
            recordedSelections.set(recorded.name, profile);
          }
        } catch (err) {
          // State on disk, not the command line: this runtime fails, the others are planned.
          throw err instanceof UsageError ? new PlanFailure(`${err.message}, or name one with --profile`) : err;
        }
        if (profile !== null) plan = api.resolveInstallPlan(runtime, scope, undefined, { ...options, profile });
        chosen.set(plan, `${printable(recorded.name)} (${printable(recorded.file)})`);
      } else if (named !== undefined) {
        chosen.set(plan, named);
      }
      plans.push(plan);
    } catch (err) {
      if (values.all && err.code === 'NO_CONFIG_HOME') {
        skipped.push({ runtime, code: err.code, reason: err.message });
        continue;
      }
      if (err instanceof PlanFailure) {
        failed = true;
        process.stderr.write(`gsd-core: ${runtime}: ${stderrRed(err.message)}\n`);
        continue;
      }
      if (!api.errorCodes.includes(err.code)) throw err;
      failed = true;
      process.stderr.write(`gsd-core: ${runtime}: ${stderrRed(describeError(err))}\n`);
    }
  }
  if (values.json) {
    // One runtime prints its plan, several (or --all) an array; a runtime --all skips is
    // said on stderr, so the JSON keeps one shape and the skip is never silent.
    // A single runtime that could not be planned prints nothing: its error is on stderr.
    if (runtimes.length === 1 && !values.all) {
      if (plans.length === 1) print(JSON.stringify(plans[0], null, 2));
    } else {
      print(JSON.stringify(plans, null, 2));
    }
    for (const { runtime, code, reason } of skipped) {
      process.stderr.write(`gsd-core: ${runtime} skipped (${code}): ${reason}\n`);
    }
    // A profile the command line did not name is said, so the JSON's placements are
    // never a surprise.
    for (const plan of plans) {
      if (values.profile === undefined && chosen.has(plan)) process.stderr.write(`gsd-core: ${plan.runtime}: profile ${chosen.get(plan)}\n`);
      // So is an install at the other scope, which the text plan notes.
      const note = otherScopeNote(plan);
      if (note !== null) process.stderr.write(`gsd-core: ${plan.runtime}: note: ${note}\n`);
    }
  } else {
    const withNote = (plan) => {
      const note = otherScopeNote(plan);
      return note === null ? '' : `\n  ${dim(`note          ${note}`)}`;
    };
    if (plans.length > 0) print(plans.map((plan) => renderPlan(plan, chosen.get(plan), tree !== undefined) + withNote(plan)).join('\n\n'));
    for (const { runtime } of skipped) print(dim(`${runtime}: no installable config directory (skipped)`));
  }
  return failed ? EXIT_FAILURE : EXIT_OK;
}

function cmdDoctor(args) {
  const { values, positionals } = parse(args, { ...runtimeOptions(), ...COMMAND_OPTIONS.doctor }, 'doctor');
  if (values.help) return print(HELP);
  if (positionals.length > 0) throw new UsageError(`doctor takes no positional arguments, got '${printable(positionals.join(' '))}'`);
  const picked = selectedRuntimes(values);
  noteOverriddenRuntimes(values, picked);
  const runtimes = picked.length > 0 ? picked : runtimeIds();
  const installed = api.resolveInstalledSurfaces();
  const byRuntime = Object.fromEntries(installed.surfaces.map((s) => [s.runtime, s]));
  const report = [];
  for (const runtime of runtimes) {
    let home = null;
    try {
      home = api.resolveConfigHome(runtime);
    } catch (err) {
      if (err.code !== 'NO_CONFIG_HOME') throw err;
    }
    const surface = byRuntime[runtime] ?? null;
    const shadow = api.buildShadowReport(runtime);
    report.push({ runtime, configHome: home?.configHome ?? null, provenance: home?.provenance ?? null, scopes: surface?.scopes ?? [], shadow: shadow.report, lines: shadow.lines });
  }
  // Errors fail; with --strict, so does what a user should fix: a warning (a corrupt,
  // oversized or unreadable install manifest) or a selected runtime with shadowed triggers.
  const failing = installed.diagnostics.some((d) => d.severity === 'error' || (values.strict && d.severity === 'warning')) || (values.strict && report.some((r) => r.lines.length > 0));
  const status = failing ? EXIT_FAILURE : EXIT_OK;
  if (values.json) {
    print(JSON.stringify({ runtimes: report.map(({ lines, ...r }) => r), diagnostics: installed.diagnostics }, null, 2));
    return status;
  }
  for (const r of report) {
    if (r.configHome === null) {
      print(`${bold(r.runtime)}  ${dim('no installable config directory')}`);
      continue;
    }
    print(`${bold(r.runtime)}  ${printable(r.configHome)}  ${dim(`(${describeProvenance(r.provenance)})`)}`);
    for (const s of r.scopes) {
      const state = s.installed ? green(`installed (manifest v${s.manifestVersion}, ${counted(s.stems.length, 'installed stem')})`) : dim('not installed');
      print(`  ${s.scope.padEnd(7)} ${state}  ${dim(printable(s.configHome))}`);
    }
    for (const line of r.lines) print(yellow(`  ${line}`));
  }
  // The installed-surface diagnostics cover every runtime whatever was selected, and one
  // config home may serve several runtimes and scopes: each line names the file and its owners.
  const owners = ownersByConfigHome(installed.surfaces);
  for (const d of installed.diagnostics) {
    print(`${d.severity === 'error' ? red(d.severity) : yellow(d.severity)} ${d.code}${describeLocation(d, owners)}: ${d.message}`);
  }
  return status;
}

/** `configHome -> ['claude global', 'claude local', ...]` over the installed surfaces. */
function ownersByConfigHome(surfaces) {
  const owners = new Map();
  for (const surface of surfaces) {
    for (const s of surface.scopes) {
      if (!owners.has(s.configHome)) owners.set(s.configHome, []);
      owners.get(s.configHome).push(`${surface.runtime} ${s.scope}`);
    }
  }
  return owners;
}

/**
 * Where an installed-surface diagnostic comes from, as ` (claude global, claude local:
 * /home/u/.claude/gsd-file-manifest.json)`: the diagnostic carries the config home in
 * `detail.configHome` and the file under it in `field`. Empty when it names no config home.
 */
function describeLocation(d, owners) {
  const home = d.detail?.configHome;
  if (typeof home !== 'string') return '';
  const at = d.field ? require('node:path').join(home, d.field) : home;
  const who = owners.get(home) ?? [];
  const shown = printable(at);
  return who.length > 0 ? ` (${who.join(', ')}: ${shown})` : ` (${shown})`;
}

/** A diagnostic produced by the CLI edge itself (the overlay loader's shape and codes). */
function edgeDiagnostic(code, folder, message) {
  return { code, severity: 'error', capabilityId: folder, message };
}

/** Validates one manifest text read from disk: `{ path, folder, diagnostics }`. */
function validateText(file, folder, text) {
  try {
    const errors = api.validateCapability(text, folder);
    const warnings = errors.length === 0 ? api.warningRecords(text) : [];
    return { path: file, folder, diagnostics: [...errors, ...warnings] };
  } catch (err) {
    if (typeof err?.code !== 'string' || !err.code.startsWith('MANIFEST_')) throw err;
    // Refused as loading refuses it: the loader's code, the parse error's code in `detail`;
    // the message names the file read (a manifest given by path may have another name).
    const { message, ...head } = edgeDiagnostic('overlay_manifest_invalid', folder, `${require('node:path').basename(file)}: ${err.message}`);
    const field = typeof err.field === 'string' ? { field: err.field } : {};
    return { path: file, folder, diagnostics: [{ ...head, ...field, message, detail: { code: err.code } }] };
  }
}

/**
 * Validates one capability folder read under the overlay loader's rules (links, FIFOs,
 * devices, non-UTF-8 and oversized folders are refused before any manifest is checked).
 */
function validateFolder(dir, folder) {
  const read = overlays.readCapabilityFolder(dir, folder);
  const file = require('node:path').join(dir, 'capability.json');
  if (read.diagnostic) return { path: file, folder, diagnostics: [read.diagnostic] };
  return validateText(file, folder, read.overlay.manifest);
}

/**
 * The capability folders named by a target: a capability.json, a capability folder, or an
 * overlay root. Reading follows the rules of `loadOverlayDir`, so the CLI and the API
 * refuse the same trees with the same codes. The folders of an overlay root are also
 * admitted onto the first-party registry, as `loadOverlayDir` does, unless `firstParty`
 * says the root is the first-party capability tree itself (whose every id is taken).
 */
function validateTarget(target, firstParty) {
  const fs = require('node:fs');
  const path = require('node:path');
  let stat;
  // `link/` and `link/.` name the link's target, and `lstat` follows them: the path is
  // looked at without its trailing `/` and `/.` components, as the overlay loaders do.
  const inspected = overlays.trimTrailing(target);
  const name = path.basename(path.resolve(inspected));
  const shown = printable(target);
  try {
    stat = fs.lstatSync(inspected);
  } catch (err) {
    // A path that names nothing is the command line's fault; one that is there but cannot
    // be looked at (a folder above it without search permission) is a failure to read.
    if (err?.code === 'ENOENT' || err?.code === 'ENOTDIR') throw new UsageError(`cannot read ${printable(target)}: ${describeOsError(err)}`);
    return [{ path: target, folder: name, diagnostics: [edgeDiagnostic('overlay_unreadable', name, `'${shown}' cannot be read: ${describeOsError(err)}`)] }];
  }
  // A file given by path, and anything named capability.json, is a manifest: its folder is
  // the one that holds it, whatever it turns out to be.
  const holder = path.basename(path.dirname(path.resolve(inspected)));
  const folderOf = stat.isFile() || name === 'capability.json' ? holder : name;
  if (stat.isSymbolicLink()) return [{ path: target, folder: folderOf, diagnostics: [edgeDiagnostic('overlay_symlink_refused', folderOf, `'${shown}' is a symbolic link; links are never followed`)] }];
  if (stat.isFile()) {
    const folder = holder;
    const read = overlays.readBounded(target, overlays.MANIFEST_MAX_BYTES);
    if (read.oversize !== undefined) return [{ path: target, folder, diagnostics: [overlays.sizeRefusal(folder, null, read.oversize)] }];
    if (read.fault) {
      const [code, what] = read.fault;
      const why = code === 'overlay_unreadable' ? `cannot be read: ${describeOsError(what)}` : what;
      return [{ path: target, folder, diagnostics: [edgeDiagnostic(code, folder, `'${shown}' ${why}`)] }];
    }
    return [validateText(target, folder, read.text)];
  }
  if (!stat.isDirectory()) return [{ path: target, folder: folderOf, diagnostics: [edgeDiagnostic('overlay_not_regular_file', folderOf, `'${shown}' is neither a regular file nor a directory; it is not opened`)] }];
  // A folder whose capability.json is there, or cannot even be looked for (a folder without
  // search permission), is one capability folder: reading it reports what is wrong.
  if (manifestMayBeIn(target)) return [validateFolder(target, name)];
  const { overlays: admitted, diagnostics } = overlays.readOverlayDir(target);
  const refused = diagnostics.map((d) => {
    const result = { path: path.join(target, d.capabilityId), folder: d.capabilityId, diagnostics: [d] };
    // The loader names a refused folder already escaped: shown as it is, never escaped twice.
    SHOWN.set(result, { folder: d.capabilityId, path: path.join(printable(target), d.capabilityId) });
    return result;
  });
  const results = [
    ...refused,
    ...admitted.map((o) => validateText(path.join(target, o.folder, 'capability.json'), o.folder, o.manifest)),
  ];
  if (!firstParty) addAdmissionDiagnostics(results, admitted, target);
  return results.sort((a, b) => Buffer.compare(Buffer.from(a.folder), Buffer.from(b.folder)));
}

/**
 * Admits the folders that were read onto the first-party registry (what `loadOverlayDir`
 * does with them) and adds what admission reports (`requires_unknown`,
 * `overlay_id_conflict`, `overlay_rejected`...) to the folder it names. A manifest that
 * fails its own checks is reported by admission with the same records again: those are
 * listed once.
 */
function addAdmissionDiagnostics(results, admitted, target) {
  const byFolder = new Map(results.map((r) => [r.folder, r]));
  const key = (d) => JSON.stringify([d.code, d.field ?? null, d.message]);
  // Admission refuses a manifest that fails its own checks with the same finding, under
  // the loader's code (`overlay_manifest_invalid`, the check's code in `detail.code`) and
  // prefixed with the file name.
  const repeats = (known, d) =>
    typeof d.detail?.code === 'string' && known.code === d.detail.code.toLowerCase() && d.message === `capability.json: ${known.message}`;
  for (const d of api.buildRegistry(admitted).diagnostics()) {
    const folder = d.capabilityId ?? '';
    let result = byFolder.get(folder);
    if (result === undefined) {
      result = { path: require('node:path').join(target, folder), folder, diagnostics: [] };
      byFolder.set(folder, result);
      results.push(result);
    }
    if (!result.diagnostics.some((known) => key(known) === key(d) || repeats(known, d))) result.diagnostics.push(d);
  }
}

/** Whether `dir` holds a capability.json, or cannot be searched to find out. */
function manifestMayBeIn(dir) {
  try {
    require('node:fs').lstatSync(require('node:path').join(dir, 'capability.json'));
    return true;
  } catch (err) {
    return err?.code !== 'ENOENT' && err?.code !== 'ENOTDIR';
  }
}

function cmdValidate(args) {
  const { values, positionals } = parse(args, COMMAND_OPTIONS.validate, 'validate');
  if (values.help) return print(HELP);
  if (positionals.length !== 1) {
    const got = positionals.length === 0 ? 'none' : `${positionals.length}: ${positionals.map((p) => `'${printable(p)}'`).join(' ')}`;
    throw new UsageError(`validate takes exactly one folder or capability.json, got ${got}`);
  }
  if (positionals[0] === '') throw new UsageError('validate requires a non-empty path');
  const results = validateTarget(positionals[0], values['first-party'] === true);
  // Nothing to validate (no capability.json and no folder in it) is a failure: the path is
  // wrong or the manifest misnamed, and a success would hide that.
  const failed = results.length === 0 || results.some((r) => r.diagnostics.some((d) => d.severity === 'error'));
  if (results.length === 0) {
    process.stderr.write(`gsd-core: ${stderrRed(`${printable(positionals[0])} holds no capability.json and no capability folder: nothing was validated`)}\n`);
  }
  if (values.json) {
    print(JSON.stringify(results, null, 2));
  } else {
    for (const r of results) {
      const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
      const shown = SHOWN.get(r) ?? { folder: printable(r.folder), path: printable(r.path) };
      print(`${errors ? red('✗') : green('✓')} ${shown.folder}  ${dim(shown.path)}`);
      for (const d of r.diagnostics) {
        const where = d.field ? ` [${printable(d.field)}]` : '';
        print(`    ${d.severity === 'error' ? red('error') : yellow(d.severity)} ${d.code}${where}: ${d.message}`);
      }
    }
  }
  return failed ? EXIT_FAILURE : EXIT_OK;
}

/** `1 file`, `2 files`. */
function counted(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
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

const COMMANDS = { doctor: cmdDoctor, plan: cmdPlan, runtimes: cmdRuntimes, validate: cmdValidate };

function main(argv) {
  const [command, ...rest] = argv;
  if (command === undefined) {
    // No command is a usage error: the help goes where usage errors go.
    process.stderr.write(`${HELP}\n`);
    return EXIT_USAGE;
  }
  if (command === '-h' || command === '--help') return print(HELP);
  if (command === '-V' || command === '--version') {
    if (rest.length > 0) {
      process.stderr.write(`gsd-core: ${command} takes no arguments, got '${printable(rest.join(' '))}'\nRun 'gsd-core --help' for usage.\n`);
      return EXIT_USAGE;
    }
    return print(require('../package.json').version);
  }
  if (command === 'help') {
    // `help` or `help <command>`: one help text covers every command.
    if (rest.length > 1 || (rest.length === 1 && !Object.hasOwn(COMMANDS, rest[0]))) {
      process.stderr.write(`gsd-core: help takes one command name (${Object.keys(COMMANDS).join(', ')}), got '${printable(rest.join(' '))}'\nRun 'gsd-core --help' for usage.\n`);
      return EXIT_USAGE;
    }
    return print(HELP);
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  try {
    if (!run) throw new UsageError(`unknown command '${printable(command)}'`);
    return run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`gsd-core: ${err.message}\nRun 'gsd-core --help' for usage.\n`);
      return EXIT_USAGE;
    }
    if (err instanceof SourceReadError) {
      process.stderr.write(`gsd-core: ${stderrRed(err.message)}\n`);
      return EXIT_FAILURE;
    }
    if (typeof err?.code === 'string' && api.errorCodes.includes(err.code)) {
      process.stderr.write(`gsd-core: ${stderrRed(describeError(err))}\n`);
      return EXIT_FAILURE;
    }
    throw err;
  }
}

module.exports = { main, HELP, EXIT_OK, EXIT_FAILURE, EXIT_USAGE, UsageError, parse, runtimeOptions, selectedRuntimes, describeError, print, renderTable, bold, dim, red, yellow, green };

if (require.main === module) {
  // A reader that stops early (`| head -1`) closes the pipe: that ends the output quietly,
  // with the status the command had, never with a stack trace.
  // Any other failure to write (`> /dev/full`: ENOSPC) is one line on stderr and status 1
  // (when stderr itself fails, the status alone).
  for (const [name, stream] of [['stdout', process.stdout], ['stderr', process.stderr]]) {
    stream.on('error', (err) => {
      if (err?.code === 'EPIPE') process.exit();
      if (stream !== process.stderr) {
        try {
          require('node:fs').writeSync(2, `gsd-core: cannot write to ${name}: ${describeOsError(err)}\n`);
        } catch {
          // stderr is gone too: the status says it.
        }
      }
      process.exit(EXIT_FAILURE);
    });
  }
  process.exitCode = main(process.argv.slice(2));
}
