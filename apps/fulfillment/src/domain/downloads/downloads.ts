import { randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@storefront/events';
import { FulfillmentEvents } from '@storefront/domain-events/fulfillment';
import {
  completeSession,
  findOpenSession,
  findPermission,
  insertPermissions,
  openSession,
  abandonSession,
  listCustomerPermissions,
  recordPaidLines,
  forgetPaidOrder,
  isRevokedOrder,
  recordPaidLinesNow,
} from '../../persistence/downloads.repository';
import { badSignature, linkExpired, permissionGone, permissionNotFound, sessionNotFound } from './errors';
import { permissionsFor } from './grants';
import { clampExpiresIn, signDownload, validSignature } from './signing';
import type { DownloadsDeps } from './deps';
import type { DownloadableProduct, DownloadPermission } from './types';

const MAX_CHUNK = 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.txt': 'text/plain; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.epub': 'application/epub+zip',
};

export interface PaidOrder {
  orderId: number;
  customerId: number;
  paidAt: Date;
  lines: { productId: number; variationId: number }[];
}

const paidLines = (order: PaidOrder) =>
  order.lines.map((l) => ({ ...l, orderId: order.orderId, customerId: order.customerId, paidAt: order.paidAt }));

export function isExpired(p: DownloadPermission, now: Date): boolean {
  return p.accessExpires !== null && p.accessExpires.getTime() <= now.getTime();
}

/** Download permissions: granted when an order is paid, signed links, counted streams. */
export class Downloads {
  constructor(private readonly deps: DownloadsDeps) {}

  /**
   * orders.order_paid: remembers the order's lines (bundle sync walks them) and grants a
   * permission per file of every downloadable product (a bundle's products included).
   * Idempotent per order: existing grants are kept as they are.
   */
  /**
   * The products (and bundled products) of a customer's paid order, from
   * catalog: looked up before the order's grants are written, never inside
   * their transaction (a remote call must not hold it open).
   */
  async productsOfPaidOrder(order: PaidOrder): Promise<Map<number, DownloadableProduct>> {
    const ids = [...new Set(order.lines.map((l) => l.productId).filter((id) => id > 0))];
    if (!order.customerId || !ids.length) return new Map();
    const products = await this.deps.products.lookup(ids);
    const bundled = [...products.values()].flatMap((p) => (p.productType === 'bundle' ? p.bundleProductIds : []));
    const extra = bundled.filter((id) => !products.has(id));
    if (extra.length) for (const [id, p] of await this.deps.products.lookup([...new Set(extra)])) products.set(id, p);
    return products;
  }

  /** Records the order's paid lines and grants its downloads (`products`: productsOfPaidOrder). */
  async grantForPaidOrder(em: EntityManager, order: PaidOrder, products: Map<number, DownloadableProduct>): Promise<DownloadPermission[]> {
    // Cancelled or refunded in full before this order_paid was handled (a lagging consumer): nothing to grant.
    if (await isRevokedOrder(em, order.orderId)) return [];
    await recordPaidLines(em, paidLines(order));
    if (!order.customerId) return [];
    const now = this.deps.now();
    const grants = [...products.values()]
      .filter((p) => p.downloadable || p.downloads.length)
      .flatMap((p) => permissionsFor(p, order, now));
    const created = await insertPermissions(em, grants);
    if (created.length) {
      recordEvent(em, FulfillmentEvents.downloadsGranted, {
        orderId: order.orderId,
        customerId: order.customerId,
        permissionIds: created.map((p) => p.id),
        productIds: [...new Set(created.map((p) => p.productId))],
        reason: 'order_paid',
      });
    }
    return created;
  }

  /**
   * order_paid's shortcut (no inbox transaction): a guest order gets no
   * permissions, so all it needs is its lines recorded, which one idempotent
   * statement does (a redelivery inserts nothing). False for a customer's order.
   */
  async recordGuestPaidOrder(order: PaidOrder): Promise<boolean> {
    if (order.customerId) return false;
    await recordPaidLinesNow(this.deps.db.reader, paidLines(order));
    return true;
  }

  /**
   * An order no longer paid (cancelled after payment, fully refunded,
   * deleted): its download permissions are revoked (the host platform serves
   * downloads only of orders that permit them, and these statuses are
   * final), and bundle syncs walk past it (they grant to past paid orders).
   */
  async forgetPaidOrder(orderId: number): Promise<void> {
    await forgetPaidOrder(this.deps.db.reader, orderId, this.deps.now());
  }

  async listForCustomer(customerId: number, page: number, perPage: number) {
    const { permissions, total } = await listCustomerPermissions(this.deps.db.em(), customerId, perPage, (page - 1) * perPage);
    return { permissions, total, now: this.deps.now() };
  }

  /** One of the customer's permissions (404 when not theirs). */
  async getForCustomer(customerId: number, permissionId: number) {
    return { permission: await this.ownPermission(customerId, permissionId), now: this.deps.now() };
  }

  /** A signed URL for the caller's own permission; 410 when exhausted or expired, 404 when not theirs. */
  async sign(customerId: number, permissionId: number, expiresIn: number, siteUrl: string) {
    const permission = await this.ownPermission(customerId, permissionId);
    const now = this.deps.now();
    this.requireUsable(permission, now);
    const seconds = clampExpiresIn(expiresIn);
    const expires = Math.floor(now.getTime() / 1000) + seconds;
    const url = new URL(`/shop/v1/downloads/${permission.id}`, siteUrl || this.deps.siteUrl);
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', signDownload(this.deps.secret, permission.id, expires));
    return { url: url.toString(), expiresIn: seconds, expiresAt: new Date(expires * 1000), fileName: fileNameOf(permission.file) };
  }

  /**
   * Checks a signed link and opens a session the gateway streams from. A
   * limited permission's session holds one of its remaining downloads until
   * it completes or is abandoned: concurrent streams never exceed the limit
   * (410 when every remaining download is taken). A `probe` (HEAD) checks
   * the link and the file and holds nothing.
   */
  async open(permissionId: number, expires: number, signature: string, probe = false) {
    if (!validSignature(this.deps.secret, permissionId, expires, signature)) throw badSignature();
    const now = this.deps.now();
    if (expires * 1000 <= now.getTime()) throw linkExpired();
    const em = this.deps.db.em();
    const permission = await findPermission(em, permissionId);
    if (!permission) throw permissionNotFound();
    this.requireUsable(permission, now);
    const { size } = await this.deps.storage.stat(permission.file);
    let sessionId = '';
    if (!probe) {
      sessionId = randomUUID();
      const heldSince = new Date(now.getTime() - this.deps.sessionHoldSeconds * 1000);
      if (!(await em.transactional((tx) => openSession(tx, sessionId, permission.id, heldSince)))) throw permissionGone('exhausted');
    }
    const fileName = fileNameOf(permission.file);
    return { sessionId, fileName, size, contentType: CONTENT_TYPES[extname(fileName).toLowerCase()] ?? 'application/octet-stream' };
  }

  /** The stream ended early: the session closes uncounted and its download is free again (idempotent). */
  async abandon(sessionId: string): Promise<void> {
    await abandonSession(this.deps.db.em(), sessionId);
  }

  async readChunk(sessionId: string, offset: number, length: number): Promise<{ data: Buffer; eof: boolean }> {
    const session = await findOpenSession(this.deps.db.em(), sessionId);
    if (!session) throw sessionNotFound();
    const { size } = await this.deps.storage.stat(session.file);
    const start = Math.max(0, Math.trunc(offset));
    const want = Math.min(MAX_CHUNK, Math.max(1, Math.trunc(length) || MAX_CHUNK));
    const data = start >= size ? Buffer.alloc(0) : await this.deps.storage.read(session.file, start, Math.min(want, size - start));
    return { data, eof: start + data.length >= size };
  }

  /** The whole file reached the client: counts the download once for this session. */
  complete(sessionId: string): Promise<DownloadPermission> {
    return this.deps.db.em().transactional(async (em) => {
      const permission = await completeSession(em, sessionId, this.deps.now());
      if (!permission) throw sessionNotFound();
      recordEvent(em, FulfillmentEvents.downloadCompleted, {
        permissionId: permission.id,
        customerId: permission.customerId,
        productId: permission.productId,
        orderId: permission.orderId,
      });
      return permission;
    });
  }

  private async ownPermission(customerId: number, permissionId: number): Promise<DownloadPermission> {
    const permission = await findPermission(this.deps.db.em(), permissionId);
    if (!permission || !customerId || permission.customerId !== customerId) throw permissionNotFound();
    return permission;
  }

  private requireUsable(p: DownloadPermission, now: Date): void {
    if (p.downloadsRemaining === 0) throw permissionGone('exhausted');
    if (isExpired(p, now)) throw permissionGone('expired');
  }
}

function fileNameOf(file: string): string {
  return file.split('/').filter(Boolean).pop() ?? 'download';
}
