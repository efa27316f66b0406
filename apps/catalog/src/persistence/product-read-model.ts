import type { Price, Variation } from './entities';

// What the product read path hands the domain (persistence/product-read.ts
// fills these; the domain shapes responses from them).

/** Everything a product response shows beside the product row, for a whole page at once. */
export interface ProductDetails {
  prices: Price[];
  variations: Variation[];
  terms: Array<{ productId: number; termId: number; taxonomy: string }>;
  levels: Array<{ productId: number; variationId: number; quantity: number }>;
}

/** A product's identity and a fingerprint of everything its document shows (for ETags). */
export interface ProductKey {
  id: number;
  status: string;
  fingerprint: string;
}
