/** Extra members of an error object's `data`, beside `status` (e.g. `params`). */
export type ErrorData = Record<string, unknown>;

/**
 * A failure the client can act on: it carries the spec's stable error `code`
 * and the HTTP `status` it maps to. Domain code throws these; transports carry
 * them unchanged (gRPC status + metadata) to the gateway, which serializes
 * `{code, message, data: {status, ...data}}`.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly data: ErrorData = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static is(err: unknown): err is DomainError {
    return err instanceof DomainError;
  }
}
