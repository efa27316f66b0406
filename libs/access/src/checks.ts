import { DomainError } from '@storefront/errors';

/** Whoever acts: a user id (0 for a guest) and the capabilities the gateway resolved (a CallerContext fits). */
export interface Principal {
  userId: number;
  capabilities: readonly string[];
}

export function can(who: Principal, capability: string): boolean {
  return who.capabilities.includes(capability);
}

export function canAny(who: Principal, capabilities: readonly string[]): boolean {
  return capabilities.some((c) => can(who, c));
}

/** Host-platform convention: 401 when nobody is signed in, 403 when the signed-in user lacks the right. */
export function denied(who: Principal, code: string, message: string): DomainError {
  return new DomainError(code, who.userId > 0 ? 403 : 401, message);
}
