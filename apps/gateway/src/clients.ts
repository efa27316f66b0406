import { bindClient, bindServices, openChannel, type Channel, type PackageClients, type PromiseClient } from '@storefront/grpc-client';
import { health } from '@storefront/proto';
import type { cart } from '@storefront/proto/cart';
import type { catalog } from '@storefront/proto/catalog';
import type { customers } from '@storefront/proto/customers';
import type { fulfillment } from '@storefront/proto/fulfillment';
import type { notifications } from '@storefront/proto/notifications';
import type { orders } from '@storefront/proto/orders';
import type { payments } from '@storefront/proto/payments';
import type { Tracing } from '@storefront/telemetry';
import type { GatewayConfig } from './config';
import { SERVICE_BINDINGS, type ServiceBinding } from './services';

export type CustomersClients = PackageClients<typeof customers>;
export type CatalogClients = PackageClients<typeof catalog>;
export type FulfillmentClients = PackageClients<typeof fulfillment>;
export type PaymentsClients = PackageClients<typeof payments>;
export type OrdersClients = PackageClients<typeof orders>;
export type CartClients = PackageClients<typeof cart>;
export type NotificationsClients = PackageClients<typeof notifications>;

/**
 * One client set per backing service (`clients.catalog.product`), one channel
 * each. A service with a development default is always there; the others are
 * absent only in development when their address is not configured (production
 * refuses to boot without every address).
 */
export type ServiceClients = {
  [B in ServiceBinding as B['name']]: B extends { developmentDefault: string }
    ? PackageClients<B['proto']>
    : PackageClients<B['proto']> | undefined;
} & {
  /** grpc.health.v1 of every connected backing service, by service name (for /readyz). */
  health: Record<string, PromiseClient<typeof health.HealthService>>;
  close(): void;
};

export function connectServices(config: GatewayConfig, tracing?: Tracing): ServiceClients {
  const channels: Channel[] = [];
  const clients: Record<string, unknown> = {};
  const healthClients: ServiceClients['health'] = {};
  for (const binding of SERVICE_BINDINGS) {
    const address = config[binding.address] ?? ('developmentDefault' in binding ? binding.developmentDefault : undefined);
    if (!address) continue;
    const channel = openChannel(binding.name, address, config.GRPC_DEADLINE_MS, tracing);
    channels.push(channel);
    clients[binding.name] = bindServices(channel, binding.proto);
    // Readiness polls are not traced: they would be most of the traces and say nothing.
    healthClients[binding.name] = bindClient({ ...channel, tracing: undefined }, health.HealthService);
  }
  return {
    ...(clients as Omit<ServiceClients, 'health' | 'close'>),
    health: healthClients,
    close: () => channels.forEach((channel) => channel.close()),
  } as ServiceClients;
}
