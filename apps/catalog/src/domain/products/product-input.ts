import { randomUUID } from 'node:crypto';
import { invalidParams } from '@storefront/errors';
import type { DownloadFile, JsonObject } from '../../persistence/entities';
import { isId, MAX_ID } from '../shared/ids';
import { requireWritableStatus, type PostStatus } from '../posts/post-status';
import { MAX_STOCK, STOCK_STATUSES, type StockStatus } from '../stock/stock-math';

// The writable fields of a product as the domain receives them (absent =
// unchanged on update, default on create), and the checks of the scalar ones.

export interface PriceInputData {
  id?: number;
  name: string;
  amount: string;
  compareAtAmount?: string;
  currency: string;
  type: string;
  billingPeriod: string;
  billingInterval: number;
  trialDays: number;
}

export interface VariationInputData {
  id?: number;
  attributes?: Record<string, unknown>;
  sku: string;
  barcode: string;
  priceId: number;
  amount?: string;
  stockQuantity?: number;
  image: string;
}

export interface ProductInput {
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: string;
  author?: number;
  menuOrder?: number;
  meta?: JsonObject;
  categories?: number[];
  tags?: number[];
  productType?: string;
  prices?: PriceInputData[];
  variations?: VariationInputData[];
  sku?: string;
  barcode?: string;
  manageStock?: boolean;
  stockQuantity?: number;
  stockStatus?: string;
  backordersAllowed?: boolean;
  hideStock?: boolean;
  lowStockThreshold?: number;
  shippingRequired?: boolean;
  downloadable?: boolean;
  downloads?: Array<{ id: string; name: string; file: string }>;
  downloadLimit?: number;
  downloadExpiry?: number;
  bundleProductIds?: number[];
  images?: string[];
}

export const PRODUCT_TYPES = ['simple', 'variable', 'bundle'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

const LIMITS = {
  title: 1000,
  excerpt: 10_000,
  content: 500_000,
  code: 64,
  barcode: 32,
  images: 50,
  downloads: 50,
  url: 2048,
  filePath: 1024,
};

export function limitText(field: string, value: string, max: number): string {
  if (value.length > max) throw invalidParams({ [field]: `${field} is limited to ${max} characters.` });
  return value;
}

export function parseProductType(value: string): ProductType {
  if (!(PRODUCT_TYPES as readonly string[]).includes(value)) {
    throw invalidParams({ product_type: `product_type must be one of ${PRODUCT_TYPES.join(', ')}.` });
  }
  return value as ProductType;
}

export function parseStockStatus(value: string): StockStatus {
  if (!(STOCK_STATUSES as readonly string[]).includes(value)) {
    throw invalidParams({ stock_status: `stock_status must be one of ${STOCK_STATUSES.join(', ')}.` });
  }
  return value as StockStatus;
}

/** SKUs and barcodes: printable ASCII without spaces at the ends. */
export function parseCode(field: string, value: string, max: number): string {
  const code = value.trim();
  if (code && !/^[\x21-\x7e]+( [\x21-\x7e]+)*$/.test(code)) {
    throw invalidParams({ [field]: `${field} may only hold printable ASCII.` });
  }
  return limitText(field, code, max);
}

export const parseSku = (field: string, value: string) => parseCode(field, value, LIMITS.code);
export const parseBarcode = (field: string, value: string) => parseCode(field, value, LIMITS.barcode);

export function parseUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParams({ [field]: `${field} must be an absolute http(s) URL.` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidParams({ [field]: `${field} must be an absolute http(s) URL.` });
  }
  return limitText(field, value, LIMITS.url);
}

function parseInt4(field: string, value: number, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidParams({ [field]: `${field} must be an integer between ${min} and ${max}.` });
  }
  return value;
}

export function parseImages(images: readonly string[]): string[] {
  if (images.length > LIMITS.images) throw invalidParams({ images: `At most ${LIMITS.images} images.` });
  return images.map((url, i) => parseUrl(`images[${i}]`, url.trim()));
}

export function parseDownloads(downloads: NonNullable<ProductInput['downloads']>): DownloadFile[] {
  if (downloads.length > LIMITS.downloads) throw invalidParams({ downloads: `At most ${LIMITS.downloads} downloads.` });
  return downloads.map((d, i) => ({
    id: limitText(`downloads[${i}].id`, d.id.trim(), 100) || randomUUID(),
    name: limitText(`downloads[${i}].name`, d.name.trim(), 200),
    file: parseFilePath(`downloads[${i}].file`, d.file.trim()),
  }));
}

/**
 * A download's file: a path relative to the store's files directory (FILES_DIR).
 * Absolute paths, `..` segments, URLs (anything with a scheme), backslashes and
 * control characters are refused: the server streams files, it never fetches.
 */
export function parseFilePath(field: string, value: string): string {
  const bad = () => invalidParams({ [field]: `${field} must be a path relative to the files directory.` });
  if (!value || value.length > LIMITS.filePath) throw bad();
  const controlOrBackslash = [...value].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f || ch === '\\');
  if (controlOrBackslash || value.startsWith('/') || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) throw bad();
  const segments = value.split('/');
  if (segments.some((s) => s === '..' || s === '.' || s === '')) throw bad();
  return value;
}

/** -1 (unlimited / never) or a whole number from 0 up. */
export function parseDownloadTerm(field: string, value: number): number {
  if (value === -1) return value;
  return parseInt4(field, value, 0, MAX_ID);
}

/** The checked scalar columns present in the input, ready to assign onto the entity. */
export interface ProductScalars {
  title?: string;
  content?: string;
  excerpt?: string;
  status?: PostStatus;
  authorId?: number;
  menuOrder?: number;
  productType?: ProductType;
  sku?: string;
  barcode?: string;
  manageStock?: boolean;
  stockStatus?: StockStatus;
  backordersAllowed?: boolean;
  hideStock?: boolean;
  lowStockThreshold?: number | null;
  shippingRequired?: boolean;
  downloadable?: boolean;
  downloads?: DownloadFile[];
  downloadLimit?: number;
  downloadExpiry?: number;
  images?: string[];
}

export function parseProductScalars(input: ProductInput): ProductScalars {
  const out: ProductScalars = {};
  if (input.title !== undefined) out.title = limitText('title', input.title, LIMITS.title);
  if (input.content !== undefined) out.content = limitText('content', input.content, LIMITS.content);
  if (input.excerpt !== undefined) out.excerpt = limitText('excerpt', input.excerpt, LIMITS.excerpt);
  if (input.status !== undefined) out.status = requireWritableStatus(input.status);
  if (input.author !== undefined && input.author !== 0) {
    if (!isId(input.author)) throw invalidParams({ author: 'author must be a user id.' });
    out.authorId = input.author;
  }
  if (input.menuOrder !== undefined) out.menuOrder = parseInt4('menu_order', input.menuOrder, -MAX_ID, MAX_ID);
  if (input.productType !== undefined) out.productType = parseProductType(input.productType);
  if (input.sku !== undefined) out.sku = parseSku('sku', input.sku);
  if (input.barcode !== undefined) out.barcode = parseBarcode('barcode', input.barcode);
  if (input.manageStock !== undefined) out.manageStock = input.manageStock;
  if (input.stockStatus !== undefined) out.stockStatus = parseStockStatus(input.stockStatus);
  if (input.backordersAllowed !== undefined) out.backordersAllowed = input.backordersAllowed;
  if (input.hideStock !== undefined) out.hideStock = input.hideStock;
  if (input.lowStockThreshold !== undefined) {
    out.lowStockThreshold =
      input.lowStockThreshold === 0 ? null : parseInt4('low_stock_threshold', input.lowStockThreshold, 1, MAX_STOCK);
  }
  if (input.shippingRequired !== undefined) out.shippingRequired = input.shippingRequired;
  if (input.downloadable !== undefined) out.downloadable = input.downloadable;
  if (input.downloads !== undefined) out.downloads = parseDownloads(input.downloads);
  if (input.downloadLimit !== undefined) out.downloadLimit = parseDownloadTerm('download_limit', input.downloadLimit);
  if (input.downloadExpiry !== undefined) {
    out.downloadExpiry = parseDownloadTerm('download_expiry', input.downloadExpiry);
  }
  if (input.images !== undefined) out.images = parseImages(input.images);
  return out;
}
