// Asks the peer which files an install writes, per runtime × scope × profile, by running its
// real staging: resolveRuntimeArtifactLayout + createRuntimeArtifactInstallPlan over the
// package's own commands/ and agents/, then walking every item's staged sourceDir and
// naming each file the way the installer's copy step does (commands through
// composeCommandFilename, agents through hostBehaviors.agentFileExtension, skills and
// kimi-agents copied as they are).
//
// Input: { profiles: ["full", "standard", "core"] }.
// Output: { package: { commands, agents, routers }, profiles: { <name>: { skills, agents } },
//           cases: [ { runtime, scope, profile, home, cwd, configDir,
//                      ok, message?, items: [ { kind, destDir, files: [rel], installed: [abs] } ],
//                      install: { configDir, home, written: [abs] } } ] }
// `install` is the real installRuntimeArtifacts run into a config directory and home of its
// own: `written` lists every file under each layout kind's directory afterwards.
// `routers` maps each `ns-*` router stem to its body, so the caller derives the router
// structure itself. Every temporary directory is removed before exit.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const lib = process.env.GSD_PEER_LIB;
const pkg = process.env.GSD_PEER_DIR;
const registry = require(path.join(lib, 'capability-registry.cjs'));
const layoutMod = require(path.join(lib, 'runtime-artifact-layout.cjs'));
const planMod = require(path.join(lib, 'runtime-artifact-install-plan.cjs'));
const profiles = require(path.join(lib, 'install-profiles.cjs'));
const engine = require(path.join(lib, 'install-engine.cjs'));

const input = JSON.parse(fs.readFileSync(0, 'utf8') || '{}');
const wanted = input.profiles || ['full', 'standard', 'core'];

const commandsRoot = path.join(pkg, 'commands', 'gsd');
const agentsRoot = path.join(pkg, 'agents');
const mdStems = (dir) => fs.readdirSync(dir, { withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.md'))
  .map((e) => e.name.slice(0, -3))
  .sort();

// Relative POSIX paths of every regular file under `dir` (recursive), sorted.
function walk(dir, rel = '') {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(dir, child));
    else if (entry.isFile()) out.push(child);
  }
  return out.sort();
}

// The destinations the installer's copy step gives the staged files of one item.
function installedNames(runtime, kind, files) {
  if (kind.kind === 'skills') {
    // Only the staged top-level directories are copied (recursively).
    return files.filter((f) => f.includes('/'));
  }
  if (kind.kind === 'kimi-agents') return files;
  const top = files.filter((f) => !f.includes('/') && f.endsWith('.md'));
  if (kind.kind === 'agents') {
    const ext = (registry.runtimes[runtime].runtime.hostBehaviors || {}).agentFileExtension;
    return top.map((f) => (ext ? f.replace(/\.md$/, ext) : f));
  }
  const namespaced = layoutMod.isNamespacedByDir(kind.kind, kind.destSubpath, kind.prefix);
  return top.map((f) => layoutMod.composeCommandFilename(namespaced, kind.prefix, f.slice(0, -3)));
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gsd-placements-'));
const home = path.join(tmp, 'home');
const cwd = path.join(tmp, 'project');
fs.mkdirSync(home, { recursive: true });
fs.mkdirSync(cwd, { recursive: true });
// The peer reads the real home directory for a kind's `home` root.
process.env.HOME = home;
process.chdir(cwd);

const resolved = {};
// As the installer does: `core` resolves over an empty skills manifest, every other
// profile over the package's manifest.
for (const name of wanted) {
  const manifest = name === 'core' ? new Map() : profiles.loadSkillsManifest(commandsRoot);
  resolved[name] = profiles.resolveProfile({ modes: [name], manifest });
}

const cases = [];
const cleanup = [];
try {
  for (const runtime of Object.keys(registry.runtimes).sort()) {
    for (const scope of ['global', 'local']) {
      for (const profileName of wanted) {
        const configDir = path.join(tmp, 'config', `${runtime}-${scope}-${profileName}`);
        fs.mkdirSync(configDir, { recursive: true });
        if (scope === 'global') {
          // The marker the installer injects on its package-source retry.
          fs.writeFileSync(path.join(configDir, '.gsd-source'), `${commandsRoot}\n`);
        }
        const result = { runtime, scope, profile: profileName, home, cwd, configDir, items: [] };
        const layout = layoutMod.resolveRuntimeArtifactLayout(runtime, configDir, scope);
        const plan = planMod.createRuntimeArtifactInstallPlan({
          layout,
          resolvedProfile: resolved[profileName],
          homedir: () => home,
          platform: 'linux',
          projectDir: cwd,
        });
        result.ok = plan.ok;
        if (!plan.ok) {
          result.message = plan.message;
          cleanup.push(...plan.cleanupDirs);
        } else {
          cleanup.push(...plan.plan.cleanupDirs);
          plan.plan.items.forEach((item, index) => {
            const kind = layout.kinds[index];
            const files = walk(item.sourceDir);
            const installed = installedNames(runtime, kind, files).map((f) => path.join(item.destDir, f));
            result.items.push({ kind: item.kind, destDir: item.destDir, files, installed });
          });
        }
        // The real installer into a fresh config directory of its own (no marker: a global
        // install provisions its corpus or retries with the package as source): every file
        // under each kind's directory afterwards.
        const installDir = path.join(tmp, 'installed', `${runtime}-${scope}-${profileName}`);
        fs.mkdirSync(installDir, { recursive: true });
        const installHome = path.join(tmp, 'installed-home', `${runtime}-${scope}-${profileName}`);
        fs.mkdirSync(installHome, { recursive: true });
        process.env.HOME = installHome;
        engine.installRuntimeArtifacts(runtime, installDir, scope, resolved[profileName]);
        const installedLayout = layoutMod.resolveRuntimeArtifactLayout(runtime, installDir, scope);
        result.install = { configDir: installDir, home: installHome, written: [] };
        for (const kind of installedLayout.kinds) {
          const destDir = planMod.assertDestWithinConfigHome(kind.home ?? installDir, kind.destSubpath);
          for (const f of walk(destDir)) result.install.written.push(path.join(destDir, f));
        }
        process.env.HOME = home;
        cases.push(result);
      }
    }
  }
} finally {
  process.chdir(os.tmpdir());
  for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  if (typeof profiles.cleanupStagedSkills === 'function') profiles.cleanupStagedSkills();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const routers = {};
for (const stem of mdStems(commandsRoot).filter((s) => s.startsWith('ns-'))) {
  routers[stem] = fs.readFileSync(path.join(commandsRoot, `${stem}.md`), 'utf8');
}
const profileOut = {};
for (const [name, p] of Object.entries(resolved)) {
  profileOut[name] = {
    skills: p.skills === '*' ? null : [...p.skills].sort(),
    agents: p.skills === '*' ? null : [...p.agents].sort(),
  };
}
process.stdout.write(JSON.stringify({
  package: { commands: mdStems(commandsRoot), agents: mdStems(agentsRoot), routers },
  profiles: profileOut,
  cases,
}));
