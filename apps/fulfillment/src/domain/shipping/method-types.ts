import { invalidParams } from '@storefront/errors';
import { parseMoneySetting } from './money-setting';

export type MethodTypeId = 'flat_rate' | 'free_shipping' | 'local_pickup';
export type Settings = Record<string, unknown>;

/** A setting's JSON Schema plus how to check one value of it. */
interface SettingDefinition {
  schema: Record<string, unknown>;
  parse(value: unknown): { value: unknown } | { problem: string };
}

export interface MethodType {
  id: MethodTypeId;
  title: string;
  description: string;
  /** JSON Schema of the instance's settings object. */
  settingsSchema: Record<string, unknown>;
  defaults: Settings;
}

export const FREE_SHIPPING_REQUIREMENTS = ['none', 'coupon', 'min_amount', 'either', 'both'] as const;
export type FreeShippingRequirement = (typeof FREE_SHIPPING_REQUIREMENTS)[number];

const cost: SettingDefinition = {
  schema: { type: 'number', minimum: 0, default: 0, title: 'Cost', description: 'Charged once per order, excluding tax.' },
  parse: parseMoneySetting,
};

const requires: SettingDefinition = {
  schema: {
    type: 'string',
    enum: [...FREE_SHIPPING_REQUIREMENTS],
    default: 'none',
    title: 'Free shipping requires',
    description: 'none; a free-shipping coupon; a minimum order amount; either one; or both.',
  },
  parse: (value) =>
    typeof value === 'string' && (FREE_SHIPPING_REQUIREMENTS as readonly string[]).includes(value)
      ? { value }
      : { problem: `must be one of ${FREE_SHIPPING_REQUIREMENTS.join(', ')}.` },
};

const minAmount: SettingDefinition = {
  schema: {
    type: 'number',
    minimum: 0,
    default: 0,
    title: 'Minimum order amount',
    description: 'The cart subtotal needed when the requirement involves min_amount.',
  },
  parse: parseMoneySetting,
};

const SETTINGS: Record<MethodTypeId, Record<string, SettingDefinition>> = {
  flat_rate: { cost },
  free_shipping: { requires, min_amount: minAmount },
  local_pickup: { cost },
};

const DESCRIPTIONS: Record<MethodTypeId, [title: string, description: string]> = {
  flat_rate: ['Flat rate', 'Lets you charge a fixed rate for shipping.'],
  free_shipping: ['Free shipping', 'Free shipping is a special method which can be triggered with coupons and minimum spends.'],
  local_pickup: ['Local pickup', 'Allow customers to pick up orders themselves.'],
};

function describe(id: MethodTypeId): MethodType {
  const settings = SETTINGS[id];
  const properties = Object.fromEntries(Object.entries(settings).map(([key, def]) => [key, def.schema]));
  return {
    id,
    title: DESCRIPTIONS[id][0],
    description: DESCRIPTIONS[id][1],
    settingsSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties, additionalProperties: false },
    defaults: Object.fromEntries(Object.entries(settings).map(([key, def]) => [key, def.schema.default])),
  };
}

/** The method-type catalog, in display order. */
export const METHOD_TYPES: readonly MethodType[] = (['flat_rate', 'free_shipping', 'local_pickup'] as const).map(describe);

export function methodType(id: string): MethodType | undefined {
  return METHOD_TYPES.find((t) => t.id === id);
}

/**
 * The instance settings after applying `changes` over `current`: every key
 * must be a setting of the type and every value valid, else 400
 * rest_invalid_param naming each bad setting.
 */
export function mergeSettings(type: MethodType, current: Settings, changes: Settings): Settings {
  const definitions = SETTINGS[type.id];
  const next: Settings = { ...type.defaults, ...current };
  const problems: Record<string, string> = {};
  for (const [key, value] of Object.entries(changes)) {
    const definition = definitions[key];
    if (!definition) {
      problems[key] = `${key} is not a setting of ${type.id}.`;
      continue;
    }
    const parsed = definition.parse(value);
    if ('problem' in parsed) problems[key] = `${key} ${parsed.problem}`;
    else next[key] = parsed.value;
  }
  if (Object.keys(problems).length) throw invalidParams(problems);
  return next;
}
