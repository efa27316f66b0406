import { Type } from 'typebox';
import type { fulfillment } from '@storefront/proto/fulfillment';

export const StatesSchema = Type.Object(
  {
    country_code: Type.String(),
    states: Type.Record(Type.String(), Type.String(), { description: 'State code -> name; {} when the country has no list.' }),
    label: Type.String({ description: 'What the state field is called ("State", "Province", ...).' }),
    required: Type.Boolean(),
  },
  { title: 'CountryStates' },
);

const State = Type.Object({ code: Type.String(), name: Type.String() }, { title: 'State' });
export const RegionsSchema = Type.Object(
  {
    continents: Type.Array(
      Type.Object({ code: Type.String(), name: Type.String(), countries: Type.Array(Type.String()) }, { title: 'Continent' }),
    ),
    countries: Type.Array(
      Type.Object(
        {
          code: Type.String(),
          name: Type.String(),
          continent: Type.String(),
          state_label: Type.String(),
          state_required: Type.Boolean(),
          states: Type.Array(State),
        },
        { title: 'Country' },
      ),
    ),
  },
  { title: 'Regions' },
);

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
