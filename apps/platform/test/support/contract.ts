import workerThreads, { Worker } from 'node:worker_threads';
import { afterAll } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import type { ShopResponse } from './client';

// The served OpenAPI document checked by an outside validator: Stoplight
// Prism's own router and response validator (the engine behind
// `prism proxy`), run in a worker thread instead of a proxy process. Every
// response an end-to-end test receives through ShopClient is matched to its
// operation and validated (status described, body against the schema); a
// violation fails the request, so a response that drifts from the document
// fails CI. SHOP_CONTRACT_CHECK=0 turns it off (e.g. to debug a test).

interface CheckResult {
  routed: boolean;
  operation?: string;
  problems: string[];
}

type Waiter = { resolve: (r: CheckResult) => void; reject: (e: Error) => void };
interface Validator {
  worker: Worker;
  nextId: number;
  pending: Map<number, Waiter>;
}

// One validator thread per Jest worker process, shared by the test files it runs
// (kept on the core module object, which Jest does not re-create per file).
const SHARED = Symbol.for('storefront.contract-validator');
const holder = workerThreads as unknown as { [SHARED]?: Validator };

function validator(): Validator {
  const existing = holder[SHARED];
  if (existing) return existing;
  const file = fileURLToPath(new URL('./contract-worker.cjs', import.meta.url));
  const created: Validator = { worker: new Worker(file), nextId: 1, pending: new Map() };
  created.worker.on('message', ({ id, result, error }: { id: number; result?: CheckResult; error?: string }) => {
    const waiter = created.pending.get(id);
    created.pending.delete(id);
    if (error) waiter?.reject(new Error(error));
    else waiter?.resolve(result!);
  });
  created.worker.on('error', (err) => created.pending.forEach((w) => w.reject(err)));
  created.worker.unref(); // after the listeners (attaching one refs the port again)
  holder[SHARED] = created;
  return created;
}


/** Counts for the report: responses validated, not matched to an operation, and violations. */
export const contractStats = { validated: 0, unrouted: 0, violations: 0 };

export class ContractViolation extends Error {}

/**
 * Validates one response against the document served at `baseUrl`, in the
 * background (a test never waits for the validator); the test file's
 * `afterAll` waits for every check and fails with the violations.
 * Requests that match no documented operation (unknown URLs, OPTIONS, the
 * docs page) are not checked; `_fields` responses are partial by design, so
 * only their status is checked.
 */
export function checkResponse(baseUrl: string, method: string, path: string, response: ShopResponse): void {
  if (process.env.SHOP_CONTRACT_CHECK === '0') return;
  checks.push(
    validate(baseUrl, method, path, response).catch((err: unknown) => {
      violations.push(`${method} ${path}: validator failed: ${String(err)}`);
    }),
  );
}

const checks: Array<Promise<void>> = [];
const violations: string[] = [];

afterAll(async () => {
  await Promise.all(checks);
  // SHOP_CONTRACT_STATS=<file>: one line per test file (validated, unrouted, violations), for reports.
  if (process.env.SHOP_CONTRACT_STATS) {
    const { appendFileSync } = await import('node:fs');
    appendFileSync(process.env.SHOP_CONTRACT_STATS, `${JSON.stringify(contractStats)}\n`);
  }
  if (violations.length) {
    throw new ContractViolation(`${violations.length} response(s) violate the OpenAPI document:\n${violations.join('\n')}`);
  }
}, 180_000);

async function validate(baseUrl: string, method: string, path: string, response: ShopResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  const partial = new URL(path, baseUrl).searchParams.has('_fields');
  const body = response.status === 204 || response.status === 304 || partial ? undefined : response.body;
  const v = validator();
  const id = v.nextId++;
  const result = await new Promise<CheckResult>((resolve, reject) => {
    v.pending.set(id, { resolve, reject });
    v.worker.postMessage({ id, request: { baseUrl, method, path, status: response.status, headers, body, partial } });
  });
  if (!result.routed) {
    contractStats.unrouted++;
    return;
  }
  contractStats.validated++;
  if (!result.problems.length) return;
  contractStats.violations++;
  violations.push(
    `${method} ${path} -> ${response.status} (${result.operation}): ${result.problems.join('; ')}\n` +
      `  body: ${JSON.stringify(response.body)?.slice(0, 400)}`,
  );
}
