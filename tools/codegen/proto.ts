// Proto toolchain: `buf lint` (STANDARD), `buf generate` (ts-proto -> libs/proto),
// and in --check mode: generated code must match the protos, and no breaking
// change against the previous commit (`buf breaking`, FILE rules).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const buf = join('node_modules', '.bin', 'buf');
const run = (args: string[]) => execFileSync(buf, args, { stdio: 'inherit' });

function previousCommitHasProtos(): boolean {
  const ls = spawnSync('git', ['ls-tree', '-r', '--name-only', 'HEAD~1', '--', 'proto'], { encoding: 'utf8' });
  return ls.status === 0 && ls.stdout.includes('.proto');
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
  if (previousCommitHasProtos()) {
    run(['breaking', '--against', '.git#ref=HEAD~1']);
    console.log('no breaking proto changes against HEAD~1');
  } else {
    console.log('buf breaking skipped: HEAD~1 is absent or has no protos');
  }
}
