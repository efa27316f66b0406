// `npm test`: every check CI runs, in order, each timed:
//   proto     buf lint, generated code up to date, no breaking change vs HEAD~1
//   api       libs/client (OpenAPI document + types) up to date with the routes; redocly lint (recommended rules, 0 errors)
//   types     typecheck of every Nx project's files, in one program (tsconfig.check.json)
//   lint      eslint (module boundaries: the Nx project graph is computed first) of every project
//   deploy    docker-compose / kustomize manifests validate offline
//   jest      unit, integration (real Postgres, NATS, gRPC) and end-to-end tests
//   prod      production-shape smoke test: bundles, one process per app, migrate command, kill/restart
// `npm test -- --only=jest` runs one step; arguments after `--` go to Jest.
import { spawnSync } from 'node:child_process';

const argv = process.argv.slice(2);
const only = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const passThrough = argv.includes('--') ? argv.slice(argv.indexOf('--') + 1) : [];

const steps: Array<[name: string, command: string[]]> = [
  ['proto', ['node', '--import', 'tsx', 'tools/codegen/proto.ts', '--check']],
  ['api', ['node', '--import', 'tsx', 'tools/codegen/client.ts', '--check']],
  ['redocly', ['node_modules/.bin/redocly', 'lint', 'libs/client/openapi.json', '--format=summary']],
  // One program and one eslint run instead of a process per project and target (`nx run-many -t
  // typecheck lint`): every shared lib was checked again by each project importing it, 5 minutes on a busy CI.
  ['types', ['npx', 'tsc', '-p', 'tsconfig.check.json']],
  ['graph', ['npx', 'nx', 'show', 'projects']],
  ['lint', ['npx', 'eslint', 'apps', 'libs', 'tools']],
  ['deploy', ['node', '--import', 'tsx', 'tools/deploy/validate.ts']],
  // As in production (deploy/docker/Dockerfile): AsyncLocalStorage on async context frames; jest's workers inherit the flags.
  ['jest', ['node', '--experimental-async-context-frame', '--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '--maxWorkers=2', ...passThrough]],
  // Alone after the other tests: it runs eight processes and times a restart.
  ['prod', ['node', '--experimental-async-context-frame', '--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--ci', '-c', 'tools/prod/jest.config.js']],
];

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NODE_NO_WARNINGS: '1' };
const timings: string[] = [];
for (const [name, [cmd, ...args]] of steps) {
  if (only && only !== name) continue;
  const started = Date.now();
  process.stdout.write(`\n=== ${name}: ${[cmd, ...args].join(' ')}\n`);
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  timings.push(`${name} ${seconds}s`);
  if (result.status !== 0) {
    process.stderr.write(`\n=== ${name} FAILED after ${seconds}s\n`);
    process.exit(result.status ?? 1);
  }
}
process.stdout.write(`\n=== all checks passed (${timings.join(', ')})\n`);
