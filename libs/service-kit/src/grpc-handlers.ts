import type { handleUnaryCall, ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { DomainError } from '@storefront/errors';
import { callerFromMetadata, toServiceError } from '@storefront/grpc-client';
import { runWithTraceparent } from '@storefront/events';
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
): UntypedServiceImplementation {
  const implementation: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = (handlers as Record<string, (req: unknown, caller: unknown) => Promise<unknown>>)[name];
    if (!handler) throw new Error(`No handler for ${method.path}`);
    const call: handleUnaryCall<unknown, unknown> = (call, callback) => {
      const caller = callerFromMetadata(call.metadata);
      const done = latency.startTimer({ method: method.path });
      runWithTraceparent(caller.traceparent, () => handler(call.request, caller)).then(
        (response) => {
          done({ code: 'OK' });
          callback(null, response);
        },
        (err: unknown) => {
          if (!DomainError.is(err)) logger.error({ err, method: method.path, requestId: caller.requestId }, 'unhandled error');
          const serviceError = toServiceError(err);
          done({ code: String(serviceError.code) });
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
