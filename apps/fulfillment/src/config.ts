import { Type, type Static } from 'typebox';

/** Environment of the fulfillment service (beside the base service variables). */
export const FulfillmentConfigSchema = Type.Object({
  /** The catalog service (download grants read products from it). */
  CATALOG_GRPC_ADDR: Type.Optional(Type.String({ minLength: 1 })),
  /** The store's files: product download paths are relative to it. */
  FILES_DIR: Type.String({ minLength: 1, default: './files' }),
  /** HMAC key of signed download links; required in production. */
  DOWNLOAD_SIGNING_SECRET: Type.Optional(Type.String({ minLength: 16 })),
  /**
   * How long an unfinished download session holds one of a limited
   * permission's downloads when its gateway never reports the end (it died
   * mid-stream); a finished or abandoned stream lets go at once.
   */
  DOWNLOAD_SESSION_HOLD_SECONDS: Type.Integer({ minimum: 60, default: 1800 }),
  /** Site URL of download links when the gateway passes none. */
  SHOP_SITE_URL: Type.String({ default: 'http://127.0.0.1:8080' }),
  /**
   * Where tax is rounded to the cent. line: each line's tax per rate, half up.
   * subtotal: per rate over all lines, unrounded until then, half up (the
   * cents are then spread over the lines by largest remainder).
   */
  TAX_ROUNDING: Type.Union([Type.Literal('line'), Type.Literal('subtotal')], { default: 'line' }),
});
export type FulfillmentConfig = Static<typeof FulfillmentConfigSchema>;
