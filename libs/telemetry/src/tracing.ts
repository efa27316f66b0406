import { hostname } from 'node:os';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { runWithTraceparent } from './trace-context';

export { SpanKind, type Span, type Attributes } from '@opentelemetry/api';

/**
 * Spans of one app (one OTel resource: `service.name` = the app). Several
 * apps in one process (apps/platform) each get their own, so their spans
 * still name the service that recorded them.
 *
 * Parents travel as W3C `traceparent` strings (gRPC metadata, outbox rows,
 * message headers, the request's trace scope), not as an ambient OTel
 * context: the propagation already existed and costs nothing when tracing
 * is off, and nothing depends on a global context manager.
 */
export interface Tracing {
  readonly service: string;
  /** Starts a span under `parent` (a traceparent), or a new trace without one. */
  start(name: string, kind: SpanKind, parent: string | undefined, attributes?: Attributes): Span;
  /**
   * Runs `fn` inside a span whose traceparent is the current one meanwhile
   * (SQL statements and recorded events see it); a rejection marks the span failed.
   */
  run<T>(name: string, kind: SpanKind, parent: string | undefined, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T>;
  /** Exports every finished span now (tests; shutdown does it too). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface TracingEnv {
  /** OTLP/HTTP base URL (`http://collector:4318`); unset: tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Head sampling ratio for new traces, 0..1 (default 1); a sampled parent is always followed. */
  OTEL_TRACES_SAMPLER_ARG?: string;
  /** `key=value,...` headers sent with every export (collector auth). */
  OTEL_EXPORTER_OTLP_HEADERS?: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of a span (what children are started under). */
export function traceparentOf(span: Span): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

function parentContext(traceparent: string | undefined) {
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!match) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** Marks a span failed with the error's message (no stack: spans leave the process). */
export function failSpan(span: Span, err: unknown): void {
  const message = String((err as Error)?.message ?? err).slice(0, 500);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  const code = (err as { code?: unknown })?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : ((err as Error)?.name ?? 'Error'));
}

/**
 * Tracing for the app `service`, or undefined when no OTLP endpoint is set:
 * then nothing of the SDK is loaded and every hook stays uninstalled, so an
 * app without tracing pays nothing for it.
 */
export async function startTracing(service: string, env: TracingEnv): Promise<Tracing | undefined> {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const { TracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, OTLPTraceExporter, resourceFromAttributes } =
    await (sdk ??= loadSdk());
  const ratio = env.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': service,
      'service.namespace': 'storefront',
      'service.instance.id': `${hostname()}:${process.pid}`,
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? ratio : 1) }),
    spanProcessors: [
      new BatchSpanProcessor({
        // The endpoint variable is the base URL; traces go to its /v1/traces (OTLP/HTTP, JSON).
        exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces`, headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS) }),
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  return createTracing(service, provider.getTracer(service), () => provider.forceFlush(), () => provider.shutdown());
}

let sdk: ReturnType<typeof loadSdk> | undefined;

/** Loaded once, one module after the other (Jest's ESM loader fails on concurrent imports of shared modules). */
async function loadSdk() {
  const trace = await import('@opentelemetry/sdk-trace');
  const exporter = await import('@opentelemetry/exporter-trace-otlp-http');
  const resources = await import('@opentelemetry/resources');
  return {
    TracerProvider: trace.TracerProvider,
    BatchSpanProcessor: trace.BatchSpanProcessor,
    ParentBasedSampler: trace.ParentBasedSampler,
    TraceIdRatioBasedSampler: trace.TraceIdRatioBasedSampler,
    OTLPTraceExporter: exporter.OTLPTraceExporter,
    resourceFromAttributes: resources.resourceFromAttributes,
  };
}

export function createTracing(service: string, tracer: Tracer, flush: () => Promise<void>, close: () => Promise<void>): Tracing {
  const start = (name: string, kind: SpanKind, parent: string | undefined, attributes?: Attributes) =>
    tracer.startSpan(name, { kind, attributes }, parentContext(parent));
  return {
    service,
    start,
    async run(name, kind, parent, attributes, fn) {
      const span = start(name, kind, parent, attributes);
      try {
        return await runWithTraceparent(traceparentOf(span), () => fn(span));
      } catch (err) {
        failSpan(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
    flush,
    close,
  };
}

function parseHeaders(text: string | undefined): Record<string, string> | undefined {
  if (!text) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}
