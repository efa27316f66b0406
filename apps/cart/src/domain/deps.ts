import type { Database } from '@storefront/persistence';
import type { Logger } from 'pino';
import type { CartConfig } from '../config';
import type { CatalogPort, OrdersPort, PaymentsPort, QuotePort, RegionsPort, SettingsPort } from './ports';

/** What every domain module of the cart service works with. */
export interface CartDeps {
  db: Database;
  config: CartConfig;
  logger: Logger;
  /** Keys the hashes of guest tokens. */
  tokenSecret: string;
  catalog: CatalogPort;
  quotes: QuotePort;
  regions: RegionsPort;
  settings: SettingsPort;
  /** Absent while PAYMENTS_GRPC_ADDR is unset (no gateways, no placing). */
  payments?: PaymentsPort;
  /** Absent while ORDERS_GRPC_ADDR is unset. */
  orders?: OrdersPort;
  now(): Date;
}
