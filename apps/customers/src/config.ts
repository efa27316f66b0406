import { Type, type Static } from 'typebox';

/** Environment of the customers service (beside the base service variables). */
export const CustomersConfigSchema = Type.Object({
  SHOP_ADMIN_USER: Type.String({ minLength: 1, default: 'admin' }),
  SHOP_ADMIN_EMAIL: Type.String({ format: 'email', default: 'admin@example.test' }),
  /** Required in production; otherwise generated on first boot and printed once. */
  SHOP_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  /** Key of the keyed hash over application passwords; required in production. */
  APP_PASSWORD_PEPPER: Type.Optional(Type.String({ minLength: 16 })),
  SHOP_MIN_PASSWORD_LENGTH: Type.Integer({ minimum: 1, maximum: 128, default: 8 }),
  SESSION_TTL_SECONDS: Type.Integer({ minimum: 60, default: 2 * 24 * 3600 }),
  SESSION_REMEMBER_TTL_SECONDS: Type.Integer({ minimum: 60, default: 14 * 24 * 3600 }),
  PASSWORD_RESET_TTL_SECONDS: Type.Integer({ minimum: 60, default: 24 * 3600 }),
  LOGIN_RATE_LIMIT_ENABLED: Type.Boolean({ default: true }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, default: 5 }),
  LOGIN_MAX_FAILURES_PER_IP: Type.Integer({ minimum: 1, default: 50 }),
  LOGIN_FAILURE_WINDOW_SECONDS: Type.Integer({ minimum: 1, default: 900 }),
  /**
   * scrypt N and p (r=8): N=2^14, p=5 is OWASP's equivalent of N=2^17, p=1 at 16 MiB per hash instead of
   * 128 MiB; tests lower N. Hashes made with other parameters are upgraded at the next login.
   */
  SCRYPT_COST: Type.Integer({ minimum: 1024, default: 16384 }),
  SCRYPT_PARALLELISM: Type.Integer({ minimum: 1, maximum: 16, default: 5 }),
  SHOP_ADDONS: Type.String({ default: 'subscriptions,embed,card,bogo' }),
  /** Initial site options, used until an admin changes them. */
  SHOP_SITE_URL: Type.String({ default: 'http://127.0.0.1:8080' }),
  SHOP_STORE_NAME: Type.String({ default: 'Storefront' }),
  SHOP_CURRENCY: Type.String({ pattern: '^[A-Z]{3}$', default: 'USD' }),
});
export type CustomersConfig = Static<typeof CustomersConfigSchema>;
