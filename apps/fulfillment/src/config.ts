import { Type, type Static } from 'typebox';

/** Environment of the fulfillment service (beside the base service variables). */
export const FulfillmentConfigSchema = Type.Object({
  /**
   * Where tax is rounded to the cent. line: each line's tax per rate, half up.
   * subtotal: per rate over all lines, unrounded until then, half up (the
   * cents are then spread over the lines by largest remainder).
   */
  TAX_ROUNDING: Type.Union([Type.Literal('line'), Type.Literal('subtotal')], { default: 'line' }),
});
export type FulfillmentConfig = Static<typeof FulfillmentConfigSchema>;
