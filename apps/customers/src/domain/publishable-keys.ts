import { randomBytes } from 'node:crypto';
import { invalidParams, notFound } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import {
  activePublishableKeys,
  insertPublishableKey,
  revokePublishableKey,
  type PublishableKeyRecord,
} from '../persistence/publishable-keys.repository';
import type { CustomersDeps } from './deps';

export type { PublishableKeyRecord } from '../persistence/publishable-keys.repository';

const MAX_ORIGINS = 50;

/**
 * Publishable keys of the embed addon (contract "Host platform"). A key is
 * public (an embedding page carries it), so it is stored as issued; what it
 * grants is decided per request by the gateway: a known, unrevoked key, and
 * CORS only for its allowed origins.
 */
export class PublishableKeys {
  constructor(private readonly deps: CustomersDeps) {}

  async create(name: string, origins: string[]): Promise<PublishableKeyRecord> {
    const allowedOrigins = normalizeOrigins(origins);
    return this.deps.db.em().transactional(async (em) => {
      const record = await insertPublishableKey(em, {
        name: name.trim(),
        key: `pk_${randomBytes(16).toString('hex')}`,
        allowedOrigins,
        createdAt: this.deps.now(),
      });
      recordEvent(em, CustomerEvents.publishableKeysChanged, { id: record.id });
      return record;
    });
  }

  list(): Promise<PublishableKeyRecord[]> {
    return activePublishableKeys(this.deps.db.em());
  }

  async revoke(id: number): Promise<PublishableKeyRecord> {
    return this.deps.db.em().transactional(async (em) => {
      const record = await revokePublishableKey(em, id, this.deps.now());
      if (!record) throw notFound('shop_pk_not_found', 'The publishable key was not found.');
      recordEvent(em, CustomerEvents.publishableKeysChanged, { id });
      return record;
    });
  }
}

/** Each origin as the browser sends it (`scheme://host[:port]`, lower case, default port dropped); duplicates once. */
export function normalizeOrigins(origins: string[]): string[] {
  if (origins.length > MAX_ORIGINS) throw invalidParams({ allowed_origins: `At most ${MAX_ORIGINS} origins.` });
  const out = new Set<string>();
  for (const raw of origins) {
    let url: URL | undefined;
    try {
      url = new URL(raw.trim());
    } catch {
      url = undefined;
    }
    const bare = url && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash && !url.username && !url.password;
    if (!url || !bare || !['http:', 'https:'].includes(url.protocol)) {
      throw invalidParams({ allowed_origins: `"${raw}" is not an origin (scheme://host[:port], nothing after it).` });
    }
    out.add(url.origin);
  }
  return [...out];
}
