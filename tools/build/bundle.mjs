// Bundles one app (apps/<name>/src/main.ts) with the workspace libraries it
// uses into dist/apps/<name>/main.js; npm dependencies stay external and come
// from the image's production node_modules. Usage: node tools/build/bundle.mjs <app>
import { build } from 'esbuild';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

const app = process.argv[2];
if (!app) {
  console.error('usage: node tools/build/bundle.mjs <app>');
  process.exit(2);
}
const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8'));

const result = await build({
  entryPoints: [`apps/${app}/src/main.ts`],
  outfile: `dist/apps/${app}/main.js`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  external: Object.keys(dependencies),
  // Bundled ESM still meets CommonJS-only globals in a few dependencies' call sites.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
  // The import graph beside the bundle: tools/deploy/build-image.mjs reads which packages it needs at run time.
  metafile: true,
});
writeFileSync(`dist/apps/${app}.meta.json`, JSON.stringify(result.metafile));
// Plain-file assets an app reads at run time (notifications' email templates) go beside main.js.
if (existsSync(`apps/${app}/templates`)) cpSync(`apps/${app}/templates`, `dist/apps/${app}/templates`, { recursive: true });
console.log(`dist/apps/${app}/main.js`);
