import type { EntityManager } from '@mikro-orm/postgresql';

// One row, "quote": the revision of everything a quote reads (zones, methods, tax rates).

/** Call inside the transaction of every change to zones, methods or tax rates. */
export async function bumpQuoteRevision(em: EntityManager): Promise<void> {
  await em.execute(`update "fulfillment"."configuration_revisions" set "revision" = "revision" + 1 where "name" = 'quote'`);
}

export async function readQuoteRevision(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ revision: number }[]>(
    `select "revision" from "fulfillment"."configuration_revisions" where "name" = 'quote'`,
  );
  return Number(rows[0]?.revision ?? 0);
}
