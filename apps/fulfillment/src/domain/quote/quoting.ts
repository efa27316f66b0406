import type { FulfillmentDeps } from '../deps';
import { parseQuoteRequest, type QuoteRequestFields } from './quote-input';
import { quote } from './quote-engine';
import type { QuoteResult } from './quote-types';
import { QuoteSnapshotSource } from './snapshot-source';

/** Quotes shipping and tax for carts (the cart service calls it on every recalculation). */
export class Quoting {
  private readonly source: QuoteSnapshotSource;

  constructor(private readonly deps: FulfillmentDeps) {
    this.source = new QuoteSnapshotSource(deps.db);
  }

  async quote(fields: QuoteRequestFields): Promise<QuoteResult> {
    const input = parseQuoteRequest(fields);
    return quote(await this.source.snapshot(), input, this.deps.config.TAX_ROUNDING);
  }
}
