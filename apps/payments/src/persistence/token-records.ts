// Card summaries and stored tokens as the repositories keep them; the domain
// re-exports them (persistence never imports the domain).

/** Card data a gateway may keep: never the number or CVC. */
export interface CardSummary {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** How the simulator's card behaves on later charges (derived, not card data). */
  behaviour: string;
}

/** A stored token as gateways see it. */
export interface StoredToken {
  id: number;
  customerId: number;
  gatewayId: string;
  gatewayToken: string;
  card: CardSummary;
  isDefault: boolean;
}
