import type { Database } from '@storefront/persistence';
import type { Logger } from 'pino';
import type { CatalogConfig } from '../config';

/** Which of the given user ids exist: the customers service answers it (coupon references). */
export interface CustomerDirectory {
  existingCustomerIds(ids: readonly number[]): Promise<number[]>;
}

/** The store's settings, owned by the customers service (read through a cache). */
export interface StoreSettings {
  /** ISO code of the store currency: prices written without a currency get it. */
  currency(): Promise<string>;
}

/** What every domain module of the catalog service works with. */
export interface CatalogDeps {
  db: Database;
  config: CatalogConfig;
  customers: CustomerDirectory;
  store: StoreSettings;
  logger: Logger;
  now(): Date;
}
