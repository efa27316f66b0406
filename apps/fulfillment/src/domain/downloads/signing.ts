import { createHmac, timingSafeEqual } from 'node:crypto';

export const MIN_EXPIRES_IN = 30;
export const MAX_EXPIRES_IN = 3600;

/** expires_in clamped into 30..3600 seconds (spec 4.9 / section 8). */
export function clampExpiresIn(value: number): number {
  if (!Number.isFinite(value)) return MAX_EXPIRES_IN;
  return Math.min(MAX_EXPIRES_IN, Math.max(MIN_EXPIRES_IN, Math.trunc(value)));
}

/** HMAC-SHA256 over the permission and the link's expiry (unix seconds), base64url. */
export function signDownload(secret: string, permissionId: number, expires: number): string {
  return createHmac('sha256', secret).update(`download:${permissionId}:${expires}`).digest('base64url');
}

export function validSignature(secret: string, permissionId: number, expires: number, signature: string): boolean {
  const expected = Buffer.from(signDownload(secret, permissionId, expires));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
