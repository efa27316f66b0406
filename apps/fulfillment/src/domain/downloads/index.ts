import { BundleSync } from '../bundles/bundle-sync';
import type { DownloadsDeps } from './deps';
import { Downloads } from './downloads';

export type { DownloadsDeps } from './deps';

/** Downloads and bundle sync, wired once per service instance. */
export function createDownloadsDomain(deps: DownloadsDeps) {
  return { deps, downloads: new Downloads(deps), bundles: new BundleSync(deps) };
}
export type DownloadsDomain = ReturnType<typeof createDownloadsDomain>;
