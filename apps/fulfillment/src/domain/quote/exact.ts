import { divRoundHalfUp } from '@storefront/money';

/**
 * An exact rational amount of minor units (cents): taxes stay exact until the
 * one place where they are rounded, so no binary float ever touches money.
 */
export interface Exact {
  readonly n: bigint;
  /** Always positive. */
  readonly d: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b;
  while (y) [x, y] = [y, x % y];
  return x || 1n;
}

function reduced(n: bigint, d: bigint): Exact {
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d < 0n ? -d : d);
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export const exact = (n: bigint, d = 1n): Exact => reduced(n, d);
export const ZERO: Exact = { n: 0n, d: 1n };
export const ONE: Exact = { n: 1n, d: 1n };

export const add = (a: Exact, b: Exact): Exact => reduced(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a: Exact, b: Exact): Exact => reduced(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a: Exact, b: Exact): Exact => reduced(a.n * b.n, a.d * b.d);
export const div = (a: Exact, b: Exact): Exact => reduced(a.n * b.d, a.d * b.n);
export const sum = (values: Iterable<Exact>): Exact => [...values].reduce(add, ZERO);

/** To whole minor units, half away from zero. */
export const roundHalfUp = (a: Exact): bigint => divRoundHalfUp(a.n, a.d);

/** Whole minor units below a non-negative amount, and what is left over. */
export function floorParts(a: Exact): { whole: bigint; rest: Exact } {
  const whole = a.n / a.d;
  return { whole, rest: exact(a.n - whole * a.d, a.d) };
}

export const compare = (a: Exact, b: Exact): number => {
  const diff = a.n * b.d - b.n * a.d;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
};
