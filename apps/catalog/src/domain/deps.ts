import type { Database } from '@storefront/persistence';
import type { Logger } from 'pino';
import type { CatalogConfig } from '../config';

/** Which of the given user ids exist: the customers service answers it (coupon references). */
export interface CustomerDirectory {
  existingCustomerIds(ids: readonly number[]): Promise<number[]>;
}

/** What every domain module of the catalog service works with. */
export interface CatalogDeps {
  db: Database;
  config: CatalogConfig;
  customers: CustomerDirectory;
  logger: Logger;
  now(): Date;
}
