// The production shape on one machine: every app built as the Dockerfile builds
// it (tools/build/bundle.mjs -> dist/apps/<app>/main.js), one database per
// service on the real Postgres, `main.js migrate` run first as the init
// containers run it, then each app as its own NODE_ENV=production process with
// MIGRATE_ON_BOOT=false, the production secrets and every service address.
// Used by the smoke test (tools/prod/smoke.test.ts), the memory and capacity
// measurements (tools/prod/measure.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { health } from '@storefront/proto';
import { createTestDatabase, createTestEvents, type TestDatabase, type TestEvents } from '@storefront/testing';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Services in start order (callers after the services they call at boot). */
export const SERVICES = ['customers', 'catalog', 'fulfillment', 'payments', 'orders', 'cart', 'notifications'] as const;
export type ServiceName = (typeof SERVICES)[number];
export type AppName = ServiceName | 'gateway';
export const APPS: AppName[] = [...SERVICES, 'gateway'];

export const ADMIN = { login: 'admin', password: `admin-${randomBytes(6).toString('hex')}` };

/**
 * Node flags every production process gets: the image's NODE_OPTIONS
 * (deploy/docker/Dockerfile, with MALLOC_ARENA_MAX=2): a 16 MB young generation instead of V8's default growth to
 * 32-64 MB per semi-space, and an old-space cap that makes V8 collect before
 * RSS passes the container's budget. See docs/capacity.md (Memory). And
 * AsyncLocalStorage on async context frames (docs/decisions.md, "Node runtime").
 */
export const PRODUCTION_NODE_OPTIONS = '--enable-source-maps --experimental-async-context-frame --max-semi-space-size=4 --max-old-space-size=192';

export interface ProdOptions {
  /** Extra environment for every app (after the defaults). */
  env?: Record<string, string>;
  /** Per-app environment, applied last. */
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** NODE_OPTIONS for every process (default PRODUCTION_NODE_OPTIONS). */
  nodeOptions?: string;
  /** Skip the bundle step (a caller that already built). */
  skipBuild?: boolean;
  /** How long one app may take to report ready (busy CI machines: generous). */
  startTimeoutMs?: number;
  /** Extra instances of an app on their own ports, all behind one `ipv4:` address list (scaling measurement). */
  replicas?: Partial<Record<AppName, number>>;
  log?: (line: string) => void;
}

export interface AppProcess {
  app: AppName;
  /** Instance index (0 for the first). */
  index: number;
  port: number;
  metricsPort: number;
  child: ChildProcess;
  logFile: string;
  /** When the process last reported ready (Date.now()). */
  readyAt: number;
  exited: Promise<number | null>;
}

export interface ProdStack {
  /** http://127.0.0.1:<port> of the first gateway. */
  url: string;
  /** Every gateway's base URL. */
  gatewayUrls: string[];
  processes: AppProcess[];
  /** Process of an app (first instance by default). */
  get(app: AppName, index?: number): AppProcess;
  /** SIGKILL (or another signal) to one instance; resolves when it has exited. */
  kill(app: AppName, signal?: NodeJS.Signals, index?: number): Promise<void>;
  /** Starts a stopped instance again on the same ports (env: changes for this start only); resolves when it reports ready. */
  restart(app: AppName, index?: number, env?: Record<string, string>): Promise<AppProcess>;
  /** Where the logs are. */
  logDir: string;
  /** Each service's database URL. */
  databases: Record<ServiceName, string>;
  /** The isolated JetStream stream and subject prefix. */
  events: { stream: string; subjectPrefix: string; url: string };
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done(out) : fail(new Error(`${command} ${args.join(' ')} exited ${code}:\n${out.slice(-4000)}`)),
    );
  });
}

/** Every app bundled exactly as the Dockerfile's build stage does: `node tools/build/bundle.mjs <app>`. */
export async function buildBundles(apps: AppName[] = APPS): Promise<void> {
  await Promise.all(apps.map((app) => run(process.execPath, ['tools/build/bundle.mjs', app], process.env)));
}

export function bundlePath(app: AppName): string {
  return join(ROOT, 'dist/apps', app, 'main.js');
}

function tail(file: string, chars = 3000): string {
  try {
    return readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Waits until `ready()` holds, failing at once when the process exits first and after `timeoutMs`. */
async function waitReady(proc: AppProcess, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 250)) {
    if (exitCode !== undefined) {
      throw new Error(`${proc.app}#${proc.index} exited (${exitCode}) before it was ready; log tail:\n${tail(proc.logFile)}`);
    }
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(`${proc.app}#${proc.index} not ready within ${timeoutMs} ms; log tail:\n${tail(proc.logFile)}`);
    }
    await sleep(delay);
  }
}

const anonymous = { userId: 0, login: '', roles: [], capabilities: [], requestId: 'prod-launcher' };

/** grpc.health.v1 SERVING on a service's own port: what the Kubernetes startup/readiness probe asks. */
function serviceReady(port: number): () => Promise<boolean> {
  return async () => {
    const channel: Channel = openChannel('health', `127.0.0.1:${port}`, 1000);
    try {
      const client = bindClient(channel, health.HealthService);
      const res = await client.check({ service: '' }, anonymous, { deadlineMs: 1000 });
      return res.status === health.HealthCheckResponse_ServingStatus.SERVING;
    } finally {
      channel.close();
    }
  };
}

/** The gateway's strict readiness: 200 only when every backing service is SERVING. */
function gatewayReady(port: number): () => Promise<boolean> {
  return async () => (await fetch(`http://127.0.0.1:${port}/readyz?strict=1`, { signal: AbortSignal.timeout(2000) })).status === 200;
}

/**
 * Builds and starts the production shape. Failing anywhere (a bundle that
 * does not build, a migration, a process that exits or never gets ready)
 * stops what was started, drops the databases and throws with the log tail.
 */
export async function startProd(options: ProdOptions = {}): Promise<ProdStack> {
  const log = options.log ?? (() => undefined);
  const startTimeoutMs = options.startTimeoutMs ?? 240_000;
  const nodeOptions = options.nodeOptions ?? PRODUCTION_NODE_OPTIONS;
  const replicas = (app: AppName) => Math.max(1, options.replicas?.[app] ?? 1);
  const logDir = mkdtempSync(join(tmpdir(), 'storefront-prod-'));
  const filesDir = join(logDir, 'files');
  mkdirSync(filesDir);

  const databases: Partial<Record<ServiceName, TestDatabase>> = {};
  let events: TestEvents | undefined;
  const processes: AppProcess[] = [];
  /** Each instance's environment as first started (restarts reuse it). */
  const envOf = new Map<string, NodeJS.ProcessEnv>();

  const stop = async () => {
    await Promise.all(
      processes.map(async (proc) => {
        if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
        proc.child.kill('SIGTERM');
        const timer = setTimeout(() => proc.child.kill('SIGKILL'), 15_000);
        await proc.exited;
        clearTimeout(timer);
      }),
    );
    await Promise.all(Object.values(databases).map((db) => db.drop().catch(() => undefined)));
    await events?.cleanup().catch(() => undefined);
  };

  try {
    if (!options.skipBuild) {
      const started = Date.now();
      await buildBundles();
      log(`bundles built in ${Date.now() - started} ms`);
    }
    events = createTestEvents();
    for (const service of SERVICES) databases[service] = await createTestDatabase(`prod_${service}`);

    // Every port up front, so each app is started knowing every address (as DNS names would be).
    const ports = new Map<string, { port: number; metricsPort: number }>();
    for (const app of APPS) {
      for (let i = 0; i < replicas(app); i++) ports.set(`${app}#${i}`, { port: await freePort(), metricsPort: await freePort() });
    }
    const addresses: Record<string, string> = {};
    for (const service of SERVICES) {
      const list = Array.from({ length: replicas(service) }, (_, i) => `127.0.0.1:${ports.get(`${service}#${i}`)!.port}`);
      // grpc-js's ipv4: scheme takes an address list; round_robin (the channel's service config) spreads calls over it.
      addresses[`${service.toUpperCase()}_GRPC_ADDR`] = list.length > 1 ? `ipv4:${list.join(',')}` : list[0];
    }
    const gatewayPort = ports.get('gateway#0')!.port;

    const shared: Record<string, string> = {
      NODE_ENV: 'production',
      NODE_OPTIONS: nodeOptions,
      MALLOC_ARENA_MAX: '2',
      LOG_LEVEL: 'info',
      ...events.env,
      SHOP_ADDONS: 'subscriptions,embed,card,bogo',
      SHOP_SITE_URL: `http://127.0.0.1:${gatewayPort}`,
      // Each service opens up to DB_POOL_SIZE + half of it (hot-read pool) connections; at the
      // production 10 the eight processes alone can take 105 of a shared server's 100.
      DB_POOL_SIZE: '4',
      ...addresses,
      ...options.env,
    };
    const secrets: Partial<Record<AppName, Record<string, string>>> = {
      customers: {
        SHOP_ADMIN_USER: ADMIN.login,
        SHOP_ADMIN_PASSWORD: ADMIN.password,
        APP_PASSWORD_PEPPER: randomBytes(24).toString('hex'),
      },
      cart: { CART_TOKEN_SECRET: randomBytes(24).toString('hex') },
      fulfillment: { DOWNLOAD_SIGNING_SECRET: randomBytes(24).toString('hex'), FILES_DIR: filesDir },
      notifications: { DEFAULT_TEMPLATES_DIR: join(ROOT, 'dist/apps/notifications/templates') },
      gateway: { SESSION_SECRET: randomBytes(24).toString('hex'), HOST: '127.0.0.1' },
    };
    const appEnv = (app: AppName, i: number): NodeJS.ProcessEnv => {
      const { port, metricsPort } = ports.get(`${app}#${i}`)!;
      const own: Record<string, string> =
        app === 'gateway'
          ? { PORT: String(port) }
          : { GRPC_HOST: '127.0.0.1', GRPC_PORT: String(port), DATABASE_URL: databases[app]!.url, MIGRATE_ON_BOOT: 'false' };
      // Only PATH and HOME from this process: the rest is what a container would be given.
      return {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...shared,
        ...secrets[app],
        ...own,
        METRICS_PORT: String(metricsPort),
        ...options.appEnv?.[app],
      };
    };

    // The init containers: `node main.js migrate` per service, before any service starts.
    const migrateStarted = Date.now();
    await Promise.all(
      SERVICES.map((service) => {
        const { NODE_OPTIONS: _ignored, ...env } = appEnv(service, 0);
        return run(process.execPath, [bundlePath(service), 'migrate'], { ...env, NODE_OPTIONS: '--enable-source-maps' }, join(ROOT, 'dist/apps', service));
      }),
    );
    log(`migrations applied in ${Date.now() - migrateStarted} ms`);

    const spawnApp = (app: AppName, index: number, env: NodeJS.ProcessEnv): AppProcess => {
      const { port, metricsPort } = ports.get(`${app}#${index}`)!;
      const logFile = join(logDir, `${app}-${index}.log`);
      const fd = openSync(logFile, 'a');
      const child = spawn(process.execPath, [bundlePath(app)], { cwd: join(ROOT, 'dist/apps', app), env, stdio: ['ignore', fd, fd] });
      closeSync(fd);
      const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
      // A launcher that dies without stop() (an uncaught error) must not leave its apps running.
      const orphanGuard = () => child.kill('SIGKILL');
      process.once('exit', orphanGuard);
      void exited.then(() => process.off('exit', orphanGuard));
      const proc: AppProcess = { app, index, port, metricsPort, child, logFile, readyAt: 0, exited };
      return proc;
    };
    const startOne = async (app: AppName, index: number, env?: NodeJS.ProcessEnv): Promise<AppProcess> => {
      if (!envOf.has(`${app}#${index}`)) envOf.set(`${app}#${index}`, appEnv(app, index));
      env ??= envOf.get(`${app}#${index}`)!;
      const proc = spawnApp(app, index, env);
      const existing = processes.findIndex((p) => p.app === app && p.index === index);
      if (existing >= 0) processes[existing] = proc;
      else processes.push(proc);
      await waitReady(proc, app === 'gateway' ? gatewayReady(proc.port) : serviceReady(proc.port), startTimeoutMs);
      proc.readyAt = Date.now();
      return proc;
    };

    // Services concurrently (they reconnect to each other lazily), then the gateway once all are SERVING.
    const bootStarted = Date.now();
    await Promise.all(SERVICES.flatMap((s) => Array.from({ length: replicas(s) }, (_, i) => startOne(s, i))));
    await Promise.all(Array.from({ length: replicas('gateway') }, (_, i) => startOne('gateway', i)));
    log(`${processes.length} processes ready in ${Date.now() - bootStarted} ms`);

    const get = (app: AppName, index = 0) => {
      const proc = processes.find((p) => p.app === app && p.index === index);
      if (!proc) throw new Error(`no ${app}#${index}`);
      return proc;
    };
    return {
      url: `http://127.0.0.1:${gatewayPort}`,
      gatewayUrls: Array.from({ length: replicas('gateway') }, (_, i) => `http://127.0.0.1:${ports.get(`gateway#${i}`)!.port}`),
      processes,
      get,
      logDir,
      databases: Object.fromEntries(SERVICES.map((s) => [s, databases[s]!.url])) as Record<ServiceName, string>,
      events: { stream: events.env.EVENTS_STREAM, subjectPrefix: events.env.EVENTS_SUBJECT_PREFIX, url: events.env.NATS_URL },
      async kill(app, signal = 'SIGKILL', index = 0) {
        const proc = get(app, index);
        proc.child.kill(signal);
        await proc.exited;
      },
      async restart(app, index = 0, env = {}) {
        get(app, index);
        return startOne(app, index, { ...envOf.get(`${app}#${index}`), ...env });
      },
      async stop() {
        await stop();
        // PROD_KEEP_LOGS=1 keeps every process's log for a look after the run.
        if (process.env.PROD_KEEP_LOGS === '1') process.stderr.write(`production-shape logs kept in ${logDir}\n`);
        else rmSync(logDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Resident set size now and its high-water mark (VmHWM: the peak since the process started), in MB. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}
