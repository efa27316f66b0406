import type { fulfillment } from '@storefront/proto';

/**
 * `{country_code, states, label, required}` with `states` as an object
 * `code -> name` (WooCommerce's shape; `{}` for a country without a state list).
 */
export function statesResource(r: fulfillment.GetStatesResponse) {
  return {
    country_code: r.countryCode,
    states: Object.fromEntries(r.states.map((s) => [s.code, s.name])),
    label: r.label,
    required: r.required,
  };
}

/** `GET /shipping/regions`: continents with their countries, countries with their state lists. */
export function regionsResource(r: fulfillment.ListRegionsResponse) {
  return {
    continents: r.continents.map((c) => ({ code: c.code, name: c.name, countries: c.countries })),
    countries: r.countries.map((c) => ({
      code: c.code,
      name: c.name,
      continent: c.continent,
      state_label: c.stateLabel,
      state_required: c.stateRequired,
      states: c.states.map((s) => ({ code: s.code, name: s.name })),
    })),
  };
}
