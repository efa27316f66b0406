import type { Database } from '@storefront/persistence';
import type { FileStorage, ProductDirectory } from './types';

/** What the downloads and bundle-sync modules work with. */
export interface DownloadsDeps {
  db: Database;
  products: ProductDirectory;
  storage: FileStorage;
  /** HMAC key of signed download links. */
  secret: string;
  /** Seconds an unfinished session holds a download (DOWNLOAD_SESSION_HOLD_SECONDS). */
  sessionHoldSeconds: number;
  /** Fallback site URL of links when the caller does not pass the configured one. */
  siteUrl: string;
  now(): Date;
}
