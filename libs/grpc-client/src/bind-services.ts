import type { ServiceDefinition } from '@grpc/grpc-js';
import { bindClient, type Channel, type PromiseClient } from './client';

/**
 * Short client name of a generated service definition export:
 * `ProductServiceService` -> `product`, `CatalogLookupServiceService` -> `catalogLookup`.
 */
export type ClientName<K> = K extends `${infer N}ServiceService` ? Uncapitalize<N> : never;

/** The service definitions a generated proto package (`import { catalog } from '@storefront/proto/catalog'`) exports. */
type ServiceKeys<P> = {
  [K in keyof P]: K extends `${string}ServiceService` ? (P[K] extends ServiceDefinition ? K : never) : never;
}[keyof P];

/** One promise client per service of a generated package, by short name. */
export type PackageClients<P> = { [K in ServiceKeys<P> as ClientName<K>]: PromiseClient<P[K]> };

const SUFFIX = 'ServiceService';

/**
 * Binds every service of a generated proto package to promise clients on one
 * channel: `bindServices(channel, catalog).product.getProduct(...)`. A service
 * added to the package's protos shows up here without another line of code.
 */
export function bindServices<P extends object>(channel: Channel, protoPackage: P): PackageClients<P> {
  const clients: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(protoPackage)) {
    if (!key.endsWith(SUFFIX) || key === SUFFIX || !isServiceDefinition(value)) continue;
    const name = key.slice(0, -SUFFIX.length);
    clients[name[0]!.toLowerCase() + name.slice(1)] = bindClient(channel, value);
  }
  return clients as PackageClients<P>;
}

function isServiceDefinition(value: unknown): value is ServiceDefinition {
  if (!value || typeof value !== 'object') return false;
  const methods = Object.values(value);
  return methods.length > 0 && methods.every((m) => typeof (m as { path?: unknown })?.path === 'string');
}
