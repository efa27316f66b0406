import type { Database } from '@storefront/persistence';
import type { CustomersConfig } from '../config';

/** What every domain module of the customers service works with. */
export interface CustomersDeps {
  db: Database;
  config: CustomersConfig & { NODE_ENV: string };
  /** Key for keyed hashes (application passwords, reset keys). */
  pepper: string;
  now(): Date;
}
