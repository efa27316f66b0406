import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Socket } from 'node:net';
import { invalidParams } from '@storefront/errors';

export interface InputLimits {
  /** Deepest nesting of objects/arrays anywhere in a body or query (free-form `meta` included). */
  maxDepth: number;
  /** Most keys of one object and most items of one array. */
  maxEntries: number;
  /** Longest string anywhere (route schemas set tighter limits on their own fields). */
  maxStringLength: number;
}

export const DEFAULT_INPUT_LIMITS: InputLimits = { maxDepth: 32, maxEntries: 1000, maxStringLength: 100_000 };

// NUL is refused by Postgres in text and jsonb; a lone UTF-16 surrogate is no
// character at all (it would be stored as U+FFFD). U+FFFD itself is what an
// invalid UTF-8 byte sequence decodes to.
// eslint-disable-next-line no-control-regex
const REFUSED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/;

/**
 * The one input rule of the gateway, applied to every route before its
 * schema: every string in the path parameters, the query and the body
 * (object keys included) must be text Postgres can store, and free-form
 * values are bounded in depth, breadth and length. A violation is 400
 * `rest_invalid_param` naming the field; nothing a client sends reaches a
 * service as a 500.
 */
export function installInputRules(app: FastifyInstance, limits: InputLimits = DEFAULT_INPUT_LIMITS): void {
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const params = request.params as Record<string, unknown> | undefined;
    const query = request.query as Record<string, unknown> | undefined;
    for (const [part, value] of [
      ['params', params],
      ['query', query],
      ['body', request.body],
    ] as const) {
      const problem = inspect(value, '', 0, limits);
      if (problem) {
        const field = problem.path || part;
        throw invalidParams({ [field]: `${field} ${problem.reason}` });
      }
    }
    done();
  });
}

interface Problem {
  path: string;
  reason: string;
}

/** The first problem in `value`, depth-first; `path` is the top-level field with dotted children. */
export function inspect(value: unknown, path: string, depth: number, limits: InputLimits): Problem | undefined {
  if (typeof value === 'string') {
    if (value.length > limits.maxStringLength) return { path, reason: `is longer than ${limits.maxStringLength} characters.` };
    if (REFUSED.test(value)) return { path, reason: 'contains a character that is not allowed (NUL or invalid UTF-8).' };
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= limits.maxDepth) return { path, reason: `is nested deeper than ${limits.maxDepth} levels.` };
  if (Array.isArray(value)) {
    if (value.length > limits.maxEntries) return { path, reason: `has more than ${limits.maxEntries} items.` };
    for (let i = 0; i < value.length; i++) {
      const found = inspect(value[i], path ? `${path}.${i}` : String(i), depth + 1, limits);
      if (found) return found;
    }
    return undefined;
  }
  if (Buffer.isBuffer(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > limits.maxEntries) return { path, reason: `has more than ${limits.maxEntries} keys.` };
  for (const [key, child] of entries) {
    const childPath = path ? `${path}.${key}` : key;
    if (REFUSED.test(key) || key.length > 1000) {
      return { path: path || sanitize(key), reason: 'has a key that is not allowed (NUL, invalid UTF-8 or too long).' };
    }
    const found = inspect(child, childPath, depth + 1, limits);
    if (found) return found;
  }
  return undefined;
}

/** A field name safe to echo back in the error (refused characters replaced). */
function sanitize(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000\ud800-\udfff\ufffd]/g, '?').slice(0, 100);
}

const BAD_REQUEST_BODY = (status: number, code: string, message: string) =>
  JSON.stringify({ code, message, data: { status } });

/**
 * Fastify options so that the answers the framework and Node's HTTP parser
 * produce themselves (a malformed URL, a bad header, headers too large) are
 * the spec's `{code, message, data: {status}}` object too.
 */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    const code = error.code === 'FST_ERR_BAD_URL' ? 'rest_invalid_url' : 'rest_bad_request';
    const message = error.code === 'FST_ERR_BAD_URL' ? 'The request URL is malformed.' : 'The request could not be processed.';
    void reply.code(status).type('application/json; charset=utf-8').send(BAD_REQUEST_BODY(status, code, message));
  },
  clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
    if (!socket.writable) return void socket.destroy(error);
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const body = tooLarge
      ? BAD_REQUEST_BODY(431, 'rest_headers_too_large', 'The request headers are too large.')
      : BAD_REQUEST_BODY(400, 'rest_bad_request', 'The request is malformed.');
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  },
};
