import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { DomainError } from '@storefront/errors';

/**
 * The one table between HTTP statuses (what the spec's error codes carry) and
 * gRPC status codes. The exact spec code, HTTP status and extra data also
 * travel in trailing metadata, so the gateway rebuilds the error exactly.
 */
const HTTP_TO_GRPC: Record<number, GrpcStatus> = {
  400: GrpcStatus.INVALID_ARGUMENT,
  401: GrpcStatus.UNAUTHENTICATED,
  403: GrpcStatus.PERMISSION_DENIED,
  404: GrpcStatus.NOT_FOUND,
  409: GrpcStatus.ALREADY_EXISTS,
  410: GrpcStatus.FAILED_PRECONDITION,
  413: GrpcStatus.OUT_OF_RANGE,
  422: GrpcStatus.FAILED_PRECONDITION,
  429: GrpcStatus.RESOURCE_EXHAUSTED,
  500: GrpcStatus.INTERNAL,
  501: GrpcStatus.UNIMPLEMENTED,
  503: GrpcStatus.UNAVAILABLE,
};

const CODE_KEY = 'shop-error-code';
const HTTP_KEY = 'shop-http-status';
const DATA_KEY = 'shop-error-data';

export function grpcStatusForHttp(httpStatus: number): GrpcStatus {
  return HTTP_TO_GRPC[httpStatus] ?? (httpStatus >= 500 ? GrpcStatus.INTERNAL : GrpcStatus.INVALID_ARGUMENT);
}

/** Server side: a thrown error becomes a gRPC error; anything not a DomainError is an internal fault. */
export function toServiceError(err: unknown): Partial<ServiceError> {
  const domain = DomainError.is(err) ? err : new DomainError('shop_internal_error', 500, 'Internal server error.');
  const metadata = new Metadata();
  metadata.set(CODE_KEY, domain.code);
  metadata.set(HTTP_KEY, String(domain.status));
  if (Object.keys(domain.data).length) metadata.set(DATA_KEY, JSON.stringify(domain.data));
  return { code: grpcStatusForHttp(domain.status), details: domain.message, metadata };
}

const timedOut = new WeakSet<DomainError>();

/**
 * True for the 503 of a call that hit its deadline: unlike "unreachable", the
 * service may have run it (and may still be running it), so a caller whose
 * call has effects (a charge) must not assume nothing happened.
 */
export function deadlineExceeded(err: unknown): boolean {
  return err instanceof DomainError && timedOut.has(err);
}

/** Client side: rebuild the DomainError, or explain a transport failure as 503. */
export function fromServiceError(err: ServiceError, serviceName: string): DomainError {
  const get = (key: string) => {
    const value = err.metadata?.get(key)[0];
    return typeof value === 'string' ? value : undefined;
  };
  const code = get(CODE_KEY);
  if (code) {
    const data = get(DATA_KEY);
    return new DomainError(code, Number(get(HTTP_KEY) ?? 500), err.details, data ? JSON.parse(data) : {});
  }
  if (
    err.code === GrpcStatus.UNAVAILABLE ||
    err.code === GrpcStatus.DEADLINE_EXCEEDED ||
    err.code === GrpcStatus.CANCELLED
  ) {
    const error = new DomainError('shop_service_unavailable', 503, `The ${serviceName} service is unavailable.`, {
      service: serviceName,
    });
    if (err.code === GrpcStatus.DEADLINE_EXCEEDED) timedOut.add(error);
    return error;
  }
  return new DomainError('shop_internal_error', 500, 'Internal server error.');
}
