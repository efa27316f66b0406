import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams } from '@storefront/errors';
import { isIsoCurrency } from '@storefront/money';
import { recordEvent } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { SiteOption } from '../persistence/entities';
import type { CustomersConfig } from '../config';
import type { CustomersDeps } from './deps';
import { storeSettings, type StoreSettings } from './store-settings';

export interface StoreAddress {
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
}

export interface SiteOptions {
  users_can_register: boolean;
  store_name: string;
  site_url: string;
  currency: string;
  prices_include_tax: boolean;
  logo_url: string;
  store_address: StoreAddress;
}

export function defaultSiteOptions(config: CustomersConfig): SiteOptions {
  return {
    users_can_register: true,
    store_name: config.SHOP_STORE_NAME,
    site_url: config.SHOP_SITE_URL,
    currency: config.SHOP_CURRENCY,
    prices_include_tax: false,
    logo_url: '',
    store_address: { address_1: '', address_2: '', city: '', state: '', postcode: '', country: '' },
  };
}

/** Stored options over their defaults. */
export async function readSiteOptions(em: EntityManager, config: CustomersConfig): Promise<SiteOptions> {
  const options = defaultSiteOptions(config) as unknown as Record<string, unknown>;
  for (const row of await em.find(SiteOption, {})) {
    if (row.name in options) options[row.name] = row.value;
  }
  return options as unknown as SiteOptions;
}

export async function writeSiteOptions(
  em: EntityManager,
  config: CustomersConfig,
  patch: Partial<SiteOptions>,
): Promise<SiteOptions> {
  validate(patch);
  const current = await readSiteOptions(em, config);
  const next: SiteOptions = {
    ...current,
    ...patch,
    store_address: { ...current.store_address, ...(patch.store_address ?? {}) },
  };
  for (const [name, value] of Object.entries(next)) {
    await em.upsert(SiteOption, { name, value });
  }
  recordEvent(em, CustomerEvents.siteSettingsUpdated, { siteUrl: next.site_url });
  return next;
}

/** An http(s) address with a host. */
const WEB_ADDRESS = /^https?:\/\/[^\s/]+/;

function validate(patch: Partial<SiteOptions>): void {
  const problems: Record<string, string> = {};
  if (patch.site_url !== undefined && !WEB_ADDRESS.test(patch.site_url)) {
    problems.site_url = 'site_url must be an http(s) URL.';
  }
  if (patch.currency !== undefined && !isIsoCurrency(patch.currency)) {
    problems.currency = 'currency must be an ISO 4217 code (USD, EUR, ...).';
  }
  // Shown on pages and in emails: a web address only (never javascript: or data:).
  if (patch.logo_url !== undefined && patch.logo_url !== '' && !WEB_ADDRESS.test(patch.logo_url)) {
    problems.logo_url = 'logo_url must be an http(s) URL or empty.';
  }
  if (patch.store_name !== undefined && !patch.store_name.trim()) problems.store_name = 'store_name cannot be empty.';
  if (Object.keys(problems).length) throw invalidParams(problems);
}

/** The store's editable settings as the settings API sees them: read, patch (one transaction), full store view. */
export class SiteSettings {
  constructor(
    private readonly deps: CustomersDeps,
    private readonly addons: string[],
  ) {}

  read(): Promise<SiteOptions> {
    return readSiteOptions(this.deps.db.em(), this.deps.config);
  }

  update(patch: Partial<SiteOptions>): Promise<SiteOptions> {
    return this.deps.db.em().transactional((em) => writeSiteOptions(em, this.deps.config, patch));
  }

  async store(): Promise<StoreSettings> {
    return storeSettings(await this.read(), this.deps.config.SHOP_MIN_PASSWORD_LENGTH, this.addons);
  }
}
