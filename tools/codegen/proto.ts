// Proto toolchain: `buf lint` (STANDARD), `buf generate` (ts-proto), laid out one
// Nx library per proto package so `nx affected` follows a service's proto alone:
//   proto/shop/<svc>/**           -> libs/proto/<svc>/src/gen  (`@storefront/proto/<svc>`, project proto-<svc>)
//   proto/shop/common, grpc/health and the well-known types they use
//                                 -> libs/proto/src/gen        (`@storefront/proto`, project proto)
// A generated import that leaves its package (`../../../google/protobuf/timestamp`) is
// rewritten to the common lib's `@storefront/proto/gen/...` export. A service lib's
// skeleton (project.json, tsconfigs, src/index.ts) is written when missing.
// In --check mode: generated code must match the protos, and no breaking
// change (`buf breaking`, FILE rules) against the baseline: BUF_BREAKING_AGAINST
// (a git ref), else the merge-base with main (origin/main), else the previous
// commit, else the last tag. A shallow clone is deepened first; a baseline that
// cannot be found fails the check instead of skipping it.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';

const buf = join('node_modules', '.bin', 'buf');
const run = (args: string[]) => execFileSync(buf, args, { stdio: 'inherit' });

const git = (args: string[]) => spawnSync('git', args, { encoding: 'utf8' });
const ok = (args: string[]) => {
  const r = git(args);
  return r.status === 0 ? r.stdout.trim() : undefined;
};

function hasProtos(ref: string): boolean {
  return !!ok(['ls-tree', '-r', '--name-only', ref, '--', 'proto'])?.includes('.proto');
}

/** The commit protos must stay compatible with, or undefined when the history has none (first commit). */
function baseline(): string | undefined {
  if (ok(['rev-parse', '--is-shallow-repository']) === 'true') {
    // CI clones shallow: fetch enough history to find the baseline (no-op offline).
    git(['fetch', '--quiet', '--deepen=100']);
    git(['fetch', '--quiet', 'origin', 'main']);
  }
  const head = ok(['rev-parse', 'HEAD']);
  const candidates = [
    process.env.BUF_BREAKING_AGAINST,
    ...['main', 'origin/main'].map((b) => ok(['merge-base', 'HEAD', b])).filter((c) => c && c !== head),
    ok(['rev-parse', '--verify', '--quiet', 'HEAD~1']),
    ok(['describe', '--tags', '--abbrev=0', 'HEAD~1']),
  ];
  for (const ref of candidates) if (ref && hasProtos(ref)) return ref;
  if (ok(['rev-list', '--count', 'HEAD']) === '1' || !hasProtos('HEAD')) return undefined;
  console.error('buf breaking: no baseline commit with protos found (set BUF_BREAKING_AGAINST=<ref>).');
  process.exit(1);
}

/** `buf breaking` against `ref`, read with `git archive` (works in worktrees and without a .git directory input). */
function breakingAgainst(ref: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'proto-base-'));
  try {
    execFileSync('sh', ['-c', `git archive ${JSON.stringify(ref)} buf.yaml proto | tar -x -C ${JSON.stringify(dir)}`]);
    run(['breaking', '--against', dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where ts-proto writes, under the scratch directory (buf.gen.yaml's `out`). */
const GEN_OUT = 'dist/proto-gen';
const COMMON_LIB = 'libs/proto';
const COMMON_IMPORT = '@storefront/proto';

/** The lib a generated file (path under the gen root) belongs to: a service's `shop/<svc>/` tree, or the common lib. */
function serviceOf(genPath: string): string | undefined {
  const m = /^shop\/([^/]+)\//.exec(genPath);
  return m && m[1] !== 'common' ? m[1] : undefined;
}
const libDir = (svc: string | undefined) => (svc ? `${COMMON_LIB}/${svc}` : COMMON_LIB);

const walk = (dir: string, base = ''): string[] =>
  readdirSync(join(dir, base), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(dir, posix.join(base, e.name)) : [posix.join(base, e.name)],
  );

/**
 * Lays ts-proto's output (`genRoot`) out per lib under `outRoot` (`<lib>/src/gen/...`, the same
 * relative paths), keeping only the leaf package index files (`index.shop.orders.v1.ts`) and
 * rewriting imports that cross into another lib. Returns the services found.
 */
function layOut(genRoot: string, outRoot: string): string[] {
  const files = walk(genRoot);
  const packageDirs = new Set(files.filter((f) => !f.startsWith('index.')).map((f) => posix.dirname(f)));
  const services = new Set<string>();
  for (const file of files) {
    let target: string | undefined;
    if (file.startsWith('index.')) {
      // index.shop.orders.v1.ts: kept when shop/orders/v1/ holds files (the umbrella indexes are not needed).
      const dir = file.slice('index.'.length, -'.ts'.length).split('.').join('/');
      if (!packageDirs.has(dir)) continue;
      target = `${dir}/x`;
    }
    const svc = serviceOf(target ?? file);
    if (svc) services.add(svc);
    let text = readFileSync(join(genRoot, file), 'utf8');
    text = text.replace(/(from ")(\.{1,2}\/[^"]+)(")/g, (all, pre: string, spec: string, post: string) => {
      const resolved = posix.normalize(posix.join(posix.dirname(file), spec));
      const owner = serviceOf(resolved);
      if (owner === svc) return all;
      if (owner) throw new Error(`${file} imports ${resolved}: a service proto may import only its own package, shop/common and google/protobuf`);
      return `${pre}${COMMON_IMPORT}/gen/${resolved}${post}`;
    });
    const out = join(outRoot, libDir(svc), 'src/gen', file);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, text);
  }
  return [...services].sort();
}

/** Files of a new service's proto lib; existing ones are never overwritten. */
function skeleton(svc: string): Record<string, string> {
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  return {
    'project.json': json({
      name: `proto-${svc}`,
      $schema: '../../../node_modules/nx/schemas/project-schema.json',
      sourceRoot: `libs/proto/${svc}/src`,
      projectType: 'library',
      tags: ['scope:contract', 'type:lib'],
      namedInputs: { owned: [`{workspaceRoot}/proto/shop/${svc}/**/*`] },
      targets: { build: {}, typecheck: {}, lint: {} },
    }),
    'tsconfig.json': json({ extends: '../../../tsconfig.base.json', include: ['src/**/*.ts'] }),
    'tsconfig.lib.json': json({
      extends: '../../../tsconfig.base.json',
      compilerOptions: { noEmit: false, declaration: true, outDir: `../../../dist/libs/proto/${svc}`, rootDir: 'src' },
      include: ['src/**/*.ts'],
    }),
    'src/index.ts':
      `// Generated by ts-proto from proto/shop/${svc}/ (npm run proto:gen); nothing else lives here.\n` +
      `// \`import { ${svc} } from '@storefront/proto/${svc}'\`, then \`${svc}.SomeMessage\`.\n` +
      `export * as ${svc} from './gen/index.shop.${svc}.v1';\n`,
  };
}

/** The generated trees: libs/proto/src/gen and every libs/proto/<svc>/src/gen under `root`. */
function genDirs(root: string): string[] {
  const base = join(root, COMMON_LIB);
  if (!existsSync(base)) return [];
  const libs = readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(base, e.name, 'src/gen')))
    .map((e) => `${COMMON_LIB}/${e.name}/src/gen`);
  return [...(existsSync(join(base, 'src/gen')) ? [`${COMMON_LIB}/src/gen`] : []), ...libs].sort();
}

/** `buf generate` into a scratch directory, laid out per lib under `<scratch>/out`. */
function generate(): { scratch: string; out: string; services: string[] } {
  const scratch = mkdtempSync(join(tmpdir(), 'proto-gen-'));
  run(['generate', '-o', join(scratch, 'raw')]);
  const out = join(scratch, 'out');
  const services = layOut(join(scratch, 'raw', GEN_OUT), out);
  return { scratch, out, services };
}

run(['lint']);
if (!process.argv.includes('--check')) {
  const { scratch, out, services } = generate();
  try {
    for (const dir of genDirs('.')) rmSync(dir, { recursive: true, force: true });
    for (const dir of genDirs(out)) {
      cpSync(join(out, dir), dir, { recursive: true });
    }
    for (const svc of services) {
      for (const [file, text] of Object.entries(skeleton(svc))) {
        const path = join(libDir(svc), file);
        if (existsSync(path)) continue;
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
        console.log(`created ${path}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`libs/proto regenerated (common + ${services.join(', ')})`);
} else {
  const { scratch, out, services } = generate();
  try {
    const stale: string[] = [];
    const dirs = new Set([...genDirs(out), ...genDirs('.')]);
    for (const dir of dirs) {
      const diff = spawnSync('diff', ['-r', join(out, dir), dir], { encoding: 'utf8' });
      if (diff.status !== 0) stale.push(diff.stdout || diff.stderr);
    }
    for (const svc of services) {
      for (const file of Object.keys(skeleton(svc))) {
        if (!existsSync(join(libDir(svc), file))) stale.push(`missing ${join(libDir(svc), file)}`);
      }
    }
    if (stale.length) {
      console.error(stale.join('\n'));
      console.error('libs/proto is stale: run `npm run proto:gen` and commit the result.');
      process.exit(1);
    }
    console.log(`libs/proto is up to date with proto/ (common + ${services.join(', ')})`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const against = baseline();
  if (against) {
    breakingAgainst(against);
    console.log(`no breaking proto changes against ${against}`);
  } else {
    console.log('buf breaking: first commit with protos, nothing to compare with');
  }
}
