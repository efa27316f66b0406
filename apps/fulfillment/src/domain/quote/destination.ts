/** A normalized destination address: uppercase codes, trimmed text. */
export interface Destination {
  country: string;
  state: string;
  postcode: string;
  city: string;
  /** Continent of the country, "" when unknown. */
  continent: string;
}
