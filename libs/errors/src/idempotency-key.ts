/** The contract's Idempotency-Key: 1 to 255 printable ASCII characters. */
const CONTRACT_KEY = /^[\x20-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return CONTRACT_KEY.test(key);
}
