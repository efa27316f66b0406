import type { Database } from '@storefront/persistence';
import type { Addon } from '@storefront/service-kit';
import type { Logger } from 'pino';
import type { PaymentsConfig } from '../config';
import type { GatewayRegistry } from './gateways/registry';
import type { OrdersPort, SitePort } from './ports';

/** What every domain module of the payments service works with. */
export interface PaymentsDeps {
  db: Database;
  config: PaymentsConfig;
  addons: readonly Addon[];
  gateways: GatewayRegistry;
  /** Absent when ORDERS_GRPC_ADDR is not configured. */
  orders?: OrdersPort;
  site: SitePort;
  logger: Logger;
  now(): Date;
}
