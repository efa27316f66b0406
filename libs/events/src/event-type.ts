/** Encode/decode pair of a proto message, as ts-proto generates them. */
export interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(bytes: Uint8Array): T;
}

/**
 * A domain event: `type` is `<service>.<event>`, published on the subject
 * `<prefix>.<service>.<event>.v<version>` with a proto payload.
 */
export interface EventType<T> {
  type: string;
  /** Subject without the deployment prefix, e.g. `customers.customer_created.v1`. */
  subject: string;
  codec: EventCodec<T>;
}

export function defineEvent<T>(service: string, name: string, codec: EventCodec<T>, version = 1): EventType<T> {
  return { type: `${service}.${name}`, subject: `${service}.${name}.v${version}`, codec };
}
