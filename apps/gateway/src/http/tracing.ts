import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newTraceparent } from '@storefront/events';
import { failSpan, SpanKind, traceparentOf, type Span, type Tracing } from '@storefront/telemetry';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's SERVER span, when tracing is on. */
    traceSpan?: Span;
  }
}

const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
/** Probes and scrapes: frequent, and nothing to follow. */
const UNTRACED = new Set(['/healthz', '/readyz']);

/** The trace every call made for this request continues: its span's, else the caller's valid `traceparent`, else a new one. */
export function requestTraceparent(request: FastifyRequest): string {
  if (request.traceSpan) return traceparentOf(request.traceSpan);
  const incoming = request.headers.traceparent;
  return typeof incoming === 'string' && TRACEPARENT.test(incoming) ? incoming : newTraceparent();
}

/**
 * One SERVER span per request, named after the route pattern (never the raw
 * URL), child of the caller's `traceparent` when it sent one. Installed only
 * when tracing is on; registered before caller resolution so the session
 * lookup is inside the trace too.
 */
export function installTracing(app: FastifyInstance, tracing: Tracing): void {
  app.decorateRequest('traceSpan', undefined);
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (route && UNTRACED.has(route)) return;
    const incoming = request.headers.traceparent;
    request.traceSpan = tracing.start(`${request.method} ${route ?? 'unmatched'}`, SpanKind.SERVER, typeof incoming === 'string' ? incoming : undefined, {
      'http.request.method': request.method,
      'http.route': route ?? 'unmatched',
      'url.path': request.url.split('?')[0],
      'http.request.id': request.id,
    });
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = request.traceSpan;
    if (!span) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) failSpan(span, new Error(`HTTP ${reply.statusCode}`));
    span.end();
  });
}
