import type { handleUnaryCall, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { DomainError, invalidParams } from '@storefront/errors';
import { isClientDataError, isConnectionLost } from '@storefront/persistence';
import { callerFromMetadata, toServiceError } from '@storefront/grpc-client';
import { failSpan, runWithTraceparent, SpanKind, traceparentOf, type Span, type Tracing } from '@storefront/telemetry';
import type { Logger } from 'pino';
import type { Histogram } from 'prom-client';
import type { ServiceHandlers } from './service-definition';

/**
 * Adapts promise handlers to grpc-js: caller context from metadata, trace
 * context around the call, domain errors to gRPC statuses, and a latency
 * histogram per method. Handlers stay thin: request in, domain call, response out.
 */
export function adaptHandlers<D extends ServiceDefinition>(
  definition: D,
  handlers: ServiceHandlers<D>,
  logger: Logger,
  latency: Histogram<'method' | 'code'>,
  tracing?: Tracing,
): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = (handlers as Record<string, (req: unknown, caller: unknown) => Promise<unknown>>)[name];
    if (!handler) throw new Error(`No handler for ${method.path}`);
    const [, rpcService, rpcMethod] = method.path.split('/');
    const call: handleUnaryCall<unknown, unknown> = (call, callback) => {
      const caller = callerFromMetadata(call.metadata);
      const done = latency.startTimer({ method: method.path });
      let span: Span | undefined;
      if (tracing) {
        span = tracing.start(method.path.slice(1), SpanKind.SERVER, caller.traceparent, {
          'rpc.system': 'grpc',
          'rpc.service': rpcService,
          'rpc.method': rpcMethod,
        });
        // What this handler records or calls continues under its own span.
        caller.traceparent = traceparentOf(span);
      }
      runWithTraceparent(caller.traceparent, () => handler(call.request, caller)).then(
        (response) => {
          done({ code: 'OK' });
          span?.end();
          callback(null, response);
        },
        (err: unknown) => {
          // A value Postgres refuses (too long, NUL, out of range) is the client's mistake: 400, not 500.
          if (isClientDataError(err)) {
            logger.info({ method: method.path, code: (err as { code: string }).code, requestId: caller.requestId }, 'value refused by the database');
            err = invalidParams({ value: 'A value is invalid or too long.' });
          }
          // A dropped database connection is transient: 503, and the pool reconnects on next use.
          if (isConnectionLost(err)) {
            logger.warn({ method: method.path, err: { message: (err as Error).message }, requestId: caller.requestId }, 'database connection lost during a call');
            err = new DomainError('shop_service_unavailable', 503, 'The service is temporarily unavailable. Please retry.');
          }
          if (!DomainError.is(err)) logger.error({ err, method: method.path, requestId: caller.requestId }, 'unhandled error');
          const serviceError = toServiceError(err);
          done({ code: String(serviceError.code) });
          if (span) {
            span.setAttribute('rpc.grpc.status_code', serviceError.code ?? 2);
            // Client mistakes (4xx) are answers; only faults mark the span failed.
            if (!DomainError.is(err) || err.status >= 500) failSpan(span, err);
            span.end();
          }
          callback(serviceError);
        },
      );
    };
    implementation[name] = call;
  }
  return implementation;
}

/** `shop.customers.v1.AuthService` from a definition's method paths. */
export function serviceNameOf(definition: ServiceDefinition): string {
  const first = Object.values(definition)[0];
  return first ? first.path.split('/')[1] : '';
}
