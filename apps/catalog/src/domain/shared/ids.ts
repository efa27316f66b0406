/** Ids are Postgres int4: anything outside 1..2^31-1 names no row (and must never reach an insert). */
export const MAX_ID = 2_147_483_647;

export function isId(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_ID;
}

/** A non-negative int4 (0 meaning "none" where fields allow it). */
export function isIdOrZero(value: number): boolean {
  return value === 0 || isId(value);
}
