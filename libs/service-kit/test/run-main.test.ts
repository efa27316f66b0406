import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const RUNTIME = fileURLToPath(new URL('../src/runtime.ts', import.meta.url));

/** Runs `body` (the service's start) under runMain in a real Node process. */
function runProcess(body: string) {
  const script = `import { runMain } from ${JSON.stringify(RUNTIME)};
runMain('probe', async () => { ${body}; return { stop: async () => {} }; });`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('runMain process guards', () => {
  it('logs a promise rejection nobody handled and keeps serving', () => {
    const result = runProcess(
      `setTimeout(() => { Promise.reject(new Error('stray')); }, 10);
       setTimeout(() => { console.log('still serving'); process.exit(0); }, 500)`,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('still serving');
    const logged = JSON.parse(result.stderr.trim().split('\n').find((l) => l.includes('unhandled promise rejection'))!);
    expect(logged).toMatchObject({ level: 50, name: 'probe', err: { message: 'stray' } });
  }, 60_000);

  it('exits 1 with the error on an uncaught exception (state may be half-changed)', () => {
    const result = runProcess(`setTimeout(() => { throw new Error('boom'); }, 10); setTimeout(() => process.exit(0), 5000)`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('probe crashed on an uncaught exception: Error: boom');
  }, 60_000);
});
