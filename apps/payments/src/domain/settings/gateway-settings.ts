import { activityLogged } from '@storefront/domain-events';
import { invalidParams, missingParams } from '@storefront/errors';
import { recordEvent } from '@storefront/events';
import { loadAllSettings, loadSettings, saveSettings } from '../../persistence/settings.repository';
import type { PaymentsDeps } from '../deps';
import type { GatewaySettings, PaymentGateway } from '../gateways/gateway';
import { checkField, fieldSchema, PASSWORD_MASK } from './field-types';

const MAX_INDEX = 10_000;

/** A gateway's settings with every default filled in. */
export function defaultSettings(gateway: PaymentGateway): GatewaySettings {
  const settings: GatewaySettings = { is_enabled: true, index: gateway.index };
  for (const field of gateway.adminFields) {
    if (field.id === 'title') settings.title = gateway.title;
    else if (field.id === 'description') settings.description = gateway.description;
    else settings[field.id] = field.default ?? (field.type === 'checkbox' ? false : field.type === 'multiselect' ? [] : '');
  }
  return settings;
}

/** Settings as an admin reads them: password fields masked (never sent back in clear). */
export function maskedSettings(gateway: PaymentGateway, settings: GatewaySettings): GatewaySettings {
  const out: GatewaySettings = { ...settings };
  for (const field of gateway.adminFields) {
    if (field.type === 'password') out[field.id] = settings[field.id] ? PASSWORD_MASK : '';
  }
  return out;
}

/** How long a replica serves its copy of the settings without a change notice (the notice may be lost). */
const CACHE_TTL_MS = 30_000;

/**
 * Gateway settings: read with defaults, update with per-type validation, verify, schema.
 *
 * Every payment reads them, so they are cached: dropped here on update, and on
 * every replica by `invalidate()`, which the service calls on each
 * payments.activity_logged broadcast (an update records one), with a TTL as
 * the safety net.
 */
export class GatewaySettingsStore {
  private cached: { settings: Promise<Map<string, GatewaySettings>>; at: number } | undefined;

  constructor(private readonly deps: PaymentsDeps) {}

  async effective(gateway: PaymentGateway): Promise<GatewaySettings> {
    const stored = await loadSettings(this.deps.db.em(), gateway.id);
    return { ...defaultSettings(gateway), ...(stored ?? {}) } as GatewaySettings;
  }

  /** Every gateway's settings with defaults (the cached copy; see the class comment). */
  allEffective(): Promise<Map<string, GatewaySettings>> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= CACHE_TTL_MS) {
      const settings = this.load();
      const entry = { settings, at: now };
      this.cached = entry;
      settings.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return this.cached.settings;
  }

  /** The settings changed (here or on another replica): the next read loads them again. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async load(): Promise<Map<string, GatewaySettings>> {
    const stored = await loadAllSettings(this.deps.db.em());
    const out = new Map<string, GatewaySettings>();
    for (const gateway of this.deps.gateways.all()) {
      out.set(gateway.id, { ...defaultSettings(gateway), ...(stored.get(gateway.id) ?? {}) } as GatewaySettings);
    }
    return out;
  }

  async masked(): Promise<Record<string, GatewaySettings>> {
    const all = await this.allEffective();
    return Object.fromEntries([...all].map(([id, s]) => [id, maskedSettings(this.deps.gateways.get(id)!, s)]));
  }

  /** JSON Schema of `config`, generated from the registered gateways. */
  schema(): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (const gateway of this.deps.gateways.all()) {
      const fields: Record<string, unknown> = {
        is_enabled: { type: 'boolean', title: 'Enabled' },
        index: { type: 'integer', minimum: 0, maximum: MAX_INDEX, title: 'Sort order' },
      };
      for (const field of gateway.adminFields) fields[field.id] = fieldSchema(field);
      properties[gateway.id] = {
        type: 'object',
        title: gateway.methodTitle,
        description: gateway.methodDescription,
        properties: fields,
        additionalProperties: false,
      };
    }
    return {
      $schema: 'http://json-schema.org/draft-04/schema#',
      title: 'payment_gateway_settings',
      type: 'object',
      properties,
      additionalProperties: false,
    };
  }

  /**
   * Validates every field of `config` by its gateway's declared type, then
   * stores the sanitized values in one transaction with an activity-log entry
   * (gateway ids and field names only, never values).
   */
  async update(config: unknown, replace: boolean): Promise<Record<string, GatewaySettings>> {
    const sanitized = this.sanitizeConfig(config);
    const stored = await this.load();
    const changes = Object.entries(sanitized).map(([id, values]) => {
      const gateway = this.deps.gateways.get(id)!;
      const current = stored.get(id)!;
      const base = replace ? defaultSettings(gateway) : current;
      const next: GatewaySettings = { ...base, ...values };
      // A masked password sent back means "unchanged".
      for (const field of gateway.adminFields) {
        if (field.type === 'password' && values[field.id] === PASSWORD_MASK) next[field.id] = current[field.id];
        if (field.type === 'copy_text') next[field.id] = current[field.id];
      }
      return { id, gateway, next };
    });
    // Spec 2.11 `verify_config`: such a gateway's settings are verified before they are saved (nothing is, on a refusal).
    for (const { gateway, next } of changes) {
      if (gateway.verifyConfig && gateway.verifyConfiguration) await gateway.verifyConfiguration(next);
    }
    await this.deps.db.em().transactional(async (em) => {
      for (const { id, next } of changes) await saveSettings(em, id, next, this.deps.now());
      recordEvent(em, activityLogged('payments'), {
        status: 'info',
        source: 'payments',
        message: 'Payment gateway settings updated.',
        contextJson: JSON.stringify({
          gateways: Object.fromEntries(Object.entries(sanitized).map(([id, v]) => [id, Object.keys(v)])),
          mode: replace ? 'replace' : 'merge',
        }),
        customerId: 0,
        orderId: 0,
      });
    });
    this.invalidate();
    return this.masked();
  }

  /** Validates `config` for `method` and asks the gateway to verify it; nothing is stored. */
  async verify(method: string, config: unknown): Promise<{ verified: boolean; message: string }> {
    if (!method) throw missingParams(['method']);
    const gateway = this.deps.gateways.has(method) ? this.deps.gateways.get(method)! : undefined;
    if (!gateway) throw invalidParams({ method: `Unknown payment gateway "${method}".` });
    const values = this.sanitizeGateway(gateway, config, 'config');
    const current = await this.effective(gateway);
    const candidate: GatewaySettings = { ...current, ...values };
    for (const field of gateway.adminFields) {
      if (field.type === 'password' && values[field.id] === PASSWORD_MASK) candidate[field.id] = current[field.id];
    }
    if (!gateway.verifyConfiguration) return { verified: true, message: 'This gateway has no credentials to verify.' };
    await gateway.verifyConfiguration(candidate);
    return { verified: true, message: 'The settings are valid.' };
  }

  private sanitizeConfig(config: unknown): Record<string, Record<string, unknown>> {
    if (!isObject(config)) throw invalidParams({ config: 'config must be an object keyed by gateway id.' });
    const problems: Record<string, string> = {};
    const out: Record<string, Record<string, unknown>> = {};
    for (const [id, values] of Object.entries(config)) {
      const gateway = this.deps.gateways.has(id) ? this.deps.gateways.get(id) : undefined;
      if (!gateway) {
        problems[`config.${id}`] = `Unknown payment gateway "${id}".`;
        continue;
      }
      try {
        out[id] = this.sanitizeGateway(gateway, values, `config.${id}`);
      } catch (err) {
        const params = (err as { data?: { params?: Record<string, string> } }).data?.params;
        if (!params) throw err;
        Object.assign(problems, params);
      }
    }
    if (Object.keys(problems).length) throw invalidParams(problems);
    return out;
  }

  private sanitizeGateway(gateway: PaymentGateway, values: unknown, path: string): Record<string, unknown> {
    if (!isObject(values)) throw invalidParams({ [path]: 'must be an object of settings fields.' });
    const problems: Record<string, string> = {};
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (key === 'is_enabled') {
        const check = checkField({ type: 'checkbox' }, value);
        if (check.ok) out.is_enabled = check.value;
        else problems[`${path}.is_enabled`] = 'is_enabled must be a boolean.';
        continue;
      }
      if (key === 'index') {
        if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_INDEX) out.index = value;
        else problems[`${path}.index`] = `index must be an integer from 0 to ${MAX_INDEX}.`;
        continue;
      }
      const field = gateway.adminFields.find((f) => f.id === key);
      if (!field) {
        problems[`${path}.${key}`] = `Unknown setting "${key}" of ${gateway.id}.`;
        continue;
      }
      const check = checkField(field, value);
      if (check.ok) out[key] = check.value;
      else problems[`${path}.${key}`] = `${key} ${check.problem}`;
    }
    if (Object.keys(problems).length) throw invalidParams(problems);
    return out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
