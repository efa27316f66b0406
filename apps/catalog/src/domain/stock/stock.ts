import { invalidParams } from '@storefront/errors';
import type { StockMovement } from '../../persistence/entities';
import {
  ensureLevelRows,
  levelKey,
  levelsOfProducts,
  listMovements,
  lockLevels,
} from '../../persistence/stock.repository';
import { requireStockManager, type Actor } from '../shared/actor';
import { parsePage } from '../posts/collection-query';
import type { CatalogDeps } from '../deps';
import { recordLevelChanges } from './stock-ledger';
import { normalizeLines, type StockLineInput } from '../reservations/reservation-lines';
import { planLines } from '../reservations/reservation-plan';
import {
  canTake,
  levelAfter,
  parseReason,
  parseStockAction,
  requireStockQuantity,
  stockStatusOf,
  type StockStatus,
} from './stock-math';
import { levelOf, variationStockStatus } from './stock-status';
import { requireLevelKey, requireManagedStock, requireProduct } from './stock-targets';

export interface StockAdjustment {
  productId: number;
  variationId: number;
  action: string;
  quantity: number;
  reason: string;
  note: string;
}

export interface LineAvailability {
  productId: number;
  variationId: number;
  requested: number;
  manageStock: boolean;
  /** undefined when stock is not managed (unlimited). */
  available?: number;
  backordersAllowed: boolean;
  stockStatus: StockStatus;
  sufficient: boolean;
}

export interface LevelView {
  productId: number;
  variationId: number;
  manageStock: boolean;
  quantity: number | null;
  status: StockStatus;
  backordersAllowed: boolean;
}

const MAX_NOTE_LENGTH = 1000;

function parseNote(note: string): string {
  if (note.length > MAX_NOTE_LENGTH) throw invalidParams({ note: `note is limited to ${MAX_NOTE_LENGTH} characters.` });
  return note;
}

/** Manual stock adjustments and their history (admin routes products/<id>/stock-*). */
export class StockKeeper {
  constructor(private readonly deps: CatalogDeps) {}

  async adjust(actor: Actor, input: StockAdjustment): Promise<{ level: LevelView; movement: StockMovement }> {
    requireStockManager(actor);
    const action = parseStockAction(input.action);
    const quantity = requireStockQuantity('quantity', input.quantity);
    const reason = parseReason(input.reason, 'manual');
    const note = parseNote(input.note);
    return this.deps.db.em().transactional(async (em) => {
      const product = await requireProduct(em, input.productId);
      requireManagedStock(product);
      const key = await requireLevelKey(em, product, input.variationId);
      await ensureLevelRows(em, [key], this.deps.now());
      const before = (await lockLevels(em, [key])).get(levelKey(key.productId, key.variationId)) ?? 0;
      const after = levelAfter(before, action, quantity, product.backordersAllowed);
      const [movement] = await recordLevelChanges(em, this.deps, [{ ...key, before, after }], {
        userId: actor.userId,
        reason,
        note,
        reservationId: null,
      });
      const level: LevelView = {
        ...key,
        manageStock: true,
        quantity: after,
        status: stockStatusOf(after, product.backordersAllowed),
        backordersAllowed: product.backordersAllowed,
      };
      return { level, movement };
    });
  }

  async movements(
    actor: Actor,
    input: { productId: number; variationId: number; page?: number; perPage?: number },
  ): Promise<{ movements: StockMovement[]; total: number; perPage: number }> {
    requireStockManager(actor);
    const page = parsePage(input.page, input.perPage, 25);
    const em = this.deps.db.em();
    const product = await requireProduct(em, input.productId);
    if (input.variationId !== 0) await requireLevelKey(em, product, input.variationId);
    const result = await listMovements(em, { productId: product.id, variationId: input.variationId }, page);
    return { ...result, perPage: page.perPage };
  }

  /** Whether the lines could be reserved now (no lock, nothing changes); lines of the same item count together. */
  async availability(lines: readonly StockLineInput[]): Promise<LineAvailability[]> {
    const totals = new Map(normalizeLines(lines).map((l) => [levelKey(l.productId, l.variationId), l.quantity]));
    const em = this.deps.db.em();
    const planned = await planLines(em, lines);
    const levels = await levelsOfProducts(em, [...new Set(lines.map((l) => l.productId))]);
    return planned.map(({ product, productId, variationId, quantity }) => {
      const available = product.manageStock ? levelOf(levels, productId, variationId) : undefined;
      const stockStatus = variationStockStatus(product, levels, variationId);
      const total = totals.get(levelKey(productId, variationId)) ?? quantity;
      const sufficient =
        available === undefined ? stockStatus !== 'outofstock' : canTake(available, total, product.backordersAllowed);
      return {
        productId,
        variationId,
        requested: quantity,
        manageStock: product.manageStock,
        available,
        backordersAllowed: product.backordersAllowed,
        stockStatus,
        sufficient,
      };
    });
  }
}
