/** Addons of the contract; SHOP_ADDONS is a comma list of them (default: all). */
export const KNOWN_ADDONS = ['subscriptions', 'embed', 'card', 'bogo'] as const;
export type Addon = (typeof KNOWN_ADDONS)[number];

export function parseAddons(value: string | undefined): Addon[] {
  if (value === undefined) return [...KNOWN_ADDONS];
  const requested = value.split(',').map((a) => a.trim()).filter(Boolean);
  const unknown = requested.filter((a) => !(KNOWN_ADDONS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`SHOP_ADDONS names unknown addon(s): ${unknown.join(', ')}`);
  return requested as Addon[];
}
