// Proto toolchain: `buf lint` (STANDARD), `buf generate` (ts-proto -> libs/proto),
// and in --check mode: generated code must match the protos, and no breaking
// change (`buf breaking`, FILE rules) against the baseline: BUF_BREAKING_AGAINST
// (a git ref), else the merge-base with main (origin/main), else the previous
// commit, else the last tag. A shallow clone is deepened first; a baseline that
// cannot be found fails the check instead of skipping it.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

run(['lint']);
if (!process.argv.includes('--check')) {
  run(['generate']);
  console.log('libs/proto regenerated');
} else {
  const out = mkdtempSync(join(tmpdir(), 'proto-check-'));
  try {
    run(['generate', '-o', out]);
    const diff = spawnSync('diff', ['-r', join(out, 'libs/proto/src/gen'), 'libs/proto/src/gen'], { encoding: 'utf8' });
    if (diff.status !== 0) {
      console.error(diff.stdout || diff.stderr);
      console.error('libs/proto is stale: run `npm run proto:gen` and commit the result.');
      process.exit(1);
    }
    console.log('libs/proto is up to date with proto/');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  const against = baseline();
  if (against) {
    breakingAgainst(against);
    console.log(`no breaking proto changes against ${against}`);
  } else {
    console.log('buf breaking: first commit with protos, nothing to compare with');
  }
}
