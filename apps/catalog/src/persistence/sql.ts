import { escapeLike } from '@storefront/persistence';
/** The catalog schema, for schema-qualified raw SQL (never rely on search_path). */
export const T = {
  products: '"catalog"."products"',
  prices: '"catalog"."prices"',
  variations: '"catalog"."variations"',
  terms: '"catalog"."terms"',
  productTerms: '"catalog"."product_terms"',
  coupons: '"catalog"."coupons"',
  stockLevels: '"catalog"."stock_levels"',
  stockMovements: '"catalog"."stock_movements"',
  reservations: '"catalog"."reservations"',
  reservationLines: '"catalog"."reservation_lines"',
  couponRedemptions: '"catalog"."coupon_redemptions"',
  productCounts: '"catalog"."product_counts"',
} as const;

/** A LIKE/ILIKE pattern matching `text` anywhere, with the pattern's own wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** `(?, ?, ?), (?, ?, ?)` for `rows` tuples of `width` values (MikroORM does not expand nested arrays). */
export function tuplePlaceholders(rows: number, width: number): string {
  const tuple = `(${Array.from({ length: width }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => tuple).join(', ');
}

/** `array_position(array[3,1,2]::int[], <column>)`: orders rows as the ids were given (orderby=include). */
export function orderByIdList(ids: readonly number[], column: string): string {
  return `array_position(array[${ids.map((id) => Math.trunc(Number(id))).join(',')}]::int[], ${column})`;
}
