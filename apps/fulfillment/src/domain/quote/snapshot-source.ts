import { IsolationLevel } from '@mikro-orm/core';
import type { Database } from '@storefront/persistence';
import { TaxRate } from '../../persistence/entities';
import { readQuoteRevision, readQuoteRevisionNow } from '../../persistence/revision.repository';
import { loadZones } from '../../persistence/shipping.repository';
import { FreshRead } from './fresh-read';
import { buildSnapshot, type QuoteSnapshot } from './snapshot';

/**
 * The quote snapshot, kept in memory and reloaded only when the stored
 * revision moved. Every quote waits for a read of the revision (a primary-key
 * lookup, shared by concurrent quotes through FreshRead) that started after
 * the quote arrived, so a change committed through any replica is seen by the
 * very next quote on every replica: no TTL, no cross-replica staleness. A
 * reload reads revision, zones, locations, methods and tax rates in one
 * repeatable-read transaction, so the snapshot matches the revision it carries.
 */
export class QuoteSnapshotSource {
  private current: QuoteSnapshot | undefined;
  private loading: Promise<QuoteSnapshot> | undefined;
  private readonly revision: FreshRead<number>;

  constructor(private readonly db: Database) {
    this.revision = new FreshRead(() => readQuoteRevisionNow(db.reader));
  }

  async snapshot(): Promise<QuoteSnapshot> {
    const revision = await this.revision.get();
    let snapshot = this.current;
    // A shared reload may have started before this revision was committed: then load again.
    while (!snapshot || snapshot.revision < revision) snapshot = await this.reload();
    return snapshot;
  }

  /** Concurrent quotes after a change share one reload. */
  private reload(): Promise<QuoteSnapshot> {
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async load(): Promise<QuoteSnapshot> {
    const snapshot = await this.db.em().transactional(
      async (em) => {
        const revision = await readQuoteRevision(em);
        const zones = await loadZones(em);
        const rates = await em.find(TaxRate, {});
        return buildSnapshot(revision, zones, rates);
      },
      { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
    );
    if (!this.current || snapshot.revision >= this.current.revision) this.current = snapshot;
    return snapshot;
  }
}
