export type { DownloadPermission, NewPermission, PaidLine } from '../../persistence/download-records';

/** A file of a product (contract product record `downloads [{id, name, file}]`). */
export interface ProductFile {
  id: string;
  name: string;
  /** Path relative to FILES_DIR. */
  file: string;
}

/** What grants need to know of a product. */
export interface DownloadableProduct {
  productId: number;
  name: string;
  productType: string;
  downloadable: boolean;
  downloads: ProductFile[];
  /** -1 = unlimited. */
  downloadLimit: number;
  /** Days after purchase, -1 = never. */
  downloadExpiry: number;
  bundleProductIds: number[];
}

/** Port: product data from the catalog service. */
export interface ProductDirectory {
  /** The products that exist, by id (unknown ids are absent). */
  lookup(productIds: number[]): Promise<Map<number, DownloadableProduct>>;
}

/** Port: where the files live (local folder today; a bucket driver can implement it). */
export interface FileStorage {
  /** Size in bytes; throws a DomainError (4xx) for a path outside the store or a missing file. */
  stat(path: string): Promise<{ size: number }>;
  read(path: string, offset: number, length: number): Promise<Buffer>;
}
