import type { EntityManager } from '@mikro-orm/postgresql';
import { TaxRate } from './entities';

export interface TaxRateListQuery {
  perPage: number;
  /** Rows skipped (from page or offset). */
  skip: number;
  orderby: 'id' | 'order' | 'priority';
  order: 'asc' | 'desc';
}

const ORDER_COLUMNS: Record<TaxRateListQuery['orderby'], string> = {
  id: '"id"',
  order: '"order"',
  priority: '"priority"',
};

/** One page of tax rates and the count of all of them, in two bounded queries. */
export async function listTaxRates(em: EntityManager, q: TaxRateListQuery): Promise<{ rates: TaxRate[]; total: number }> {
  const [{ count }] = await em.execute<{ count: string }[]>(`select count(*) as count from "fulfillment"."tax_rates"`);
  const rows = await em.execute(
    `select * from "fulfillment"."tax_rates" order by ${ORDER_COLUMNS[q.orderby]} ${q.order}, "id" ${q.order} limit ? offset ?`,
    [q.perPage, q.skip],
  );
  return { rates: rows.map((row) => em.map(TaxRate, row)), total: Number(count) };
}
