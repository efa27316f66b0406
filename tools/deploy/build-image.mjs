// The build steps of deploy/docker/Dockerfile as a plain script, so they run (and are checked by
// tools/deploy/validate.ts) without a Docker engine:
//   node tools/deploy/build-image.mjs <app> <outDir> [--link]
// 1. bundles the app (tools/build/bundle.mjs: workspace libraries inlined, npm packages external);
// 2. reads from the bundle's metafile which npm packages it imports, and takes those plus what they
//    depend on (package-lock.json, Node's resolution rules) out of the installed node_modules:
//    the app's runtime dependencies only (no PGlite, no dev dependencies, no other app's packages);
// 3. writes <outDir>: main.js (+ map, assets), node_modules, a package.json naming those
//    dependencies, and healthcheck.mjs (the image's HEALTHCHECK).
// --link hard-links files instead of copying them (the validator's fast path; same tree).
// Plain .mjs (no tsx): it runs in the image's build stage.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [app, outDir] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const link = process.argv.includes('--link');
if (!app || !outDir) {
  console.error('usage: node tools/deploy/build-image.mjs <app> <outDir> [--link]');
  process.exit(2);
}

/** The gateway answers HTTP; every other app is a gRPC service. */
const healthKind = (name) => (name === 'gateway' ? 'http' : 'grpc');

const bundled = spawnSync(process.execPath, ['tools/build/bundle.mjs', app], { stdio: 'inherit' });
if (bundled.status !== 0) process.exit(bundled.status ?? 1);

const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const meta = JSON.parse(readFileSync(`dist/apps/${app}.meta.json`, 'utf8'));
const imported = new Set();
for (const output of Object.values(meta.outputs)) {
  for (const { path, external } of output.imports ?? []) {
    if (external && !isBuiltin(path) && !path.startsWith('node:')) imported.add(packageOf(path));
  }
}

// Installed packages by lock path ("node_modules/a", "node_modules/a/node_modules/b").
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages;
/** Node's lookup: the nearest node_modules/<name> walking up from the requiring package. */
function resolveFrom(fromPath, name) {
  let base = fromPath;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (lock[candidate] && existsSync(candidate)) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}
const needed = new Set();
const missing = [];
const visit = (fromPath, name, optional) => {
  const path = resolveFrom(fromPath, name);
  if (!path) {
    if (!optional) missing.push(`${name} (required by ${fromPath || app})`);
    return;
  }
  if (needed.has(path)) return;
  needed.add(path);
  const entry = lock[path];
  for (const dep of Object.keys(entry.dependencies ?? {})) visit(path, dep, false);
  // Optional dependencies are installed per platform (e.g. esbuild-style binaries): take those present.
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(path, dep, true);
  // Required peers must be there; optional peers (e.g. drivers a library can use) are left out.
  for (const dep of Object.keys(entry.peerDependencies ?? {})) {
    if (!entry.peerDependenciesMeta?.[dep]?.optional) visit(path, dep, false);
  }
};
for (const name of imported) visit('', name, false);
if (missing.length) {
  console.error(`build-image ${app}: not installed:\n  ${missing.join('\n  ')}`);
  process.exit(1);
}

/** Copies (or hard-links) a package directory without its nested node_modules (those are lock entries of their own). */
function place(from, to, top = true) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (top && entry.name === 'node_modules') continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) place(source, target, false);
    else if (entry.isSymbolicLink()) cpSync(source, target, { verbatimSymlinks: true });
    else if (link) linkSync(source, target);
    else copyFileSync(source, target);
  }
}

rmSync(outDir, { recursive: true, force: true });
cpSync(`dist/apps/${app}`, outDir, { recursive: true });
for (const path of [...needed].sort()) place(path, join(outDir, path));

const rootDependencies = JSON.parse(readFileSync('package.json', 'utf8')).dependencies;
const dependencies = Object.fromEntries([...imported].sort().map((name) => [name, lock[`node_modules/${name}`]?.version ?? rootDependencies[name]]));
writeFileSync(
  join(outDir, 'package.json'),
  `${JSON.stringify({ name: `@storefront/${app}-image`, private: true, type: 'module', main: 'main.js', dependencies }, null, 2)}\n`,
);
const here = dirname(fileURLToPath(import.meta.url));
const kindLine = "const KIND = process.env.HEALTHCHECK_KIND ?? 'grpc';";
const healthcheck = readFileSync(join(here, 'healthcheck.mjs'), 'utf8');
// The app's probe kind is baked in; a healthcheck.mjs without that line would silently probe gRPC.
if (!healthcheck.includes(kindLine)) throw new Error(`healthcheck.mjs no longer has the line: ${kindLine}`);
writeFileSync(join(outDir, 'healthcheck.mjs'), healthcheck.replace(kindLine, `const KIND = '${healthKind(app)}';`));
console.log(`${outDir}: ${imported.size} direct and ${needed.size - imported.size} transitive packages`);
