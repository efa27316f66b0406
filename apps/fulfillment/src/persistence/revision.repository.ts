import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import { FulfillmentEvents } from '@storefront/domain-events/fulfillment';
import { recordEvent } from '@storefront/events';

// One row, "quote": the revision of everything a quote reads (zones, methods, tax rates).

/** Call inside the transaction of every change to zones, methods or tax rates. */
export async function bumpQuoteRevision(em: EntityManager): Promise<void> {
  const rows = await em.execute<{ revision: number }[]>(
    `update "fulfillment"."configuration_revisions" set "revision" = "revision" + 1 where "name" = 'quote' returning "revision"`,
  );
  // Tells quote consumers (the cart's priced snapshots) that their copies are stale; same transaction, via the outbox.
  recordEvent(em, FulfillmentEvents.quoteRulesChanged, { revision: Number(rows[0]?.revision ?? 0) });
}

const READ_REVISION = `select "revision" from "fulfillment"."configuration_revisions" where "name" = 'quote'`;

export async function readQuoteRevision(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ revision: number }[]>(READ_REVISION);
  return Number(rows[0]?.revision ?? 0);
}

/** The same outside a transaction: a prepared statement on the read pool (once per quote, so kept cheap). */
export async function readQuoteRevisionNow(reader: Reader): Promise<number> {
  const rows = await reader.query<{ revision: number }>(READ_REVISION);
  return Number(rows[0]?.revision ?? 0);
}
