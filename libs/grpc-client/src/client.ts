import { Client, credentials, type ServiceError, type ServiceDefinition } from '@grpc/grpc-js';
import { callerToMetadata, type CallerContext } from './caller-context';
import { fromServiceError } from './errors';

export interface CallOptions {
  deadlineMs?: number;
}

type UnaryMethod<M> = M extends {
  requestSerialize: (value: infer Req) => Buffer;
  responseDeserialize: (bytes: Buffer) => infer Res;
}
  ? (request: Req, caller: CallerContext, options?: CallOptions) => Promise<Res>
  : never;

/** A ts-proto service definition turned into promise methods that take the caller context. */
export type PromiseClient<D> = { [K in keyof D]: UnaryMethod<D[K]> };

/** One HTTP/2 channel to a service's address, shared by every client bound to it. */
export interface Channel {
  readonly name: string;
  readonly address: string;
  readonly client: Client;
  readonly deadlineMs: number;
  close(): void;
}

export function openChannel(name: string, address: string, deadlineMs = 5000): Channel {
  const client = new Client(address, credentials.createInsecure(), {
    // Spread calls over every address a Kubernetes headless service resolves to.
    'grpc.service_config': JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] }),
    'grpc.keepalive_time_ms': 30_000,
    // Reconnect within seconds of the peer's return: grpc-js's default backoff
    // grows to 120 s, which kept answering 503 long after a restart.
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.min_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 2000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
  });
  return { name, address, client, deadlineMs, close: () => client.close() };
}

export function bindClient<D extends ServiceDefinition>(channel: Channel, definition: D): PromiseClient<D> {
  const methods: Record<string, unknown> = {};
  for (const [key, method] of Object.entries(definition)) {
    methods[key] = (request: unknown, caller: CallerContext, options?: CallOptions) =>
      new Promise((resolve, reject) => {
        const deadline = Date.now() + (options?.deadlineMs ?? channel.deadlineMs);
        channel.client.makeUnaryRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          request,
          callerToMetadata(caller),
          { deadline },
          (err: ServiceError | null, response?: unknown) =>
            err ? reject(fromServiceError(err, channel.name)) : resolve(response),
        );
      });
  }
  return methods as PromiseClient<D>;
}
