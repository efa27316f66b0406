import { bindServices, openChannel, type CallerContext, type Channel, type PackageClients } from '@storefront/grpc-client';
import { DomainError } from '@storefront/errors';
import { catalog } from '@storefront/proto/catalog';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import type { TestEvents } from '@storefront/testing';
import { capabilitiesOf, MANAGER_ROLE } from '@storefront/access';
import { catalogService } from '../src/service';

// Callers as the gateway would send them (roles of the contract's "Host platform").

export function callerWith(userId: number, capabilities: string[]): CallerContext {
  return { userId, login: userId ? `user${userId}` : '', roles: [], capabilities, requestId: 'test' };
}

export const guest = callerWith(0, []);
export const customer = callerWith(7, ['read']);
export const manager = callerWith(2, capabilitiesOf([MANAGER_ROLE]));
/** May write drafts but not publish (an author-like role). */
export const contributor = callerWith(3, ['read', 'edit_shop_product', 'edit_shop_products', 'read_shop_product']);

export async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

/** [code, status] of a rejection, for compact assertions. */
export async function failure(promise: Promise<unknown>): Promise<[string, number]> {
  const err = await rejection(promise);
  return [err.code, err.status];
}

type Bound = PackageClients<typeof catalog>;

/** Every catalog service bound by bindServices, under the names these tests use. */
export interface CatalogClients {
  service: TestService;
  channel: Channel;
  products: Bound['product'];
  terms: Bound['term'];
  coupons: Bound['coupon'];
  stock: Bound['stock'];
  lookup: Bound['catalogLookup'];
  inventory: Bound['inventory'];
  stop(): Promise<void>;
}

/** A catalog service on a fresh database, and clients bound to it over real gRPC. */
export async function startCatalog(
  options: { env?: NodeJS.ProcessEnv; events?: TestEvents } = {},
): Promise<CatalogClients> {
  const service = await startTestService(catalogService, options);
  const channel = openChannel('catalog', service.address, 15_000);
  const { product, term, coupon, stock, catalogLookup, inventory } = bindServices(channel, catalog);
  return {
    service,
    channel,
    products: product,
    terms: term,
    coupons: coupon,
    stock,
    lookup: catalogLookup,
    inventory,
    async stop() {
      channel.close();
      await service.stop();
    },
  };
}

export const onetimePrice = (amount: string, extra: Partial<catalog.PriceInput> = {}) =>
  catalog.PriceInput.fromPartial({ name: 'Standard', amount, ...extra });

/** A published simple product with one price (and managed stock when `stock` is given). */
export async function createSimpleProduct(
  clients: CatalogClients,
  fields: Partial<catalog.ProductFields> & { amount?: string; stock?: number } = {},
): Promise<catalog.Product> {
  const { amount = '10.00', stock, ...rest } = fields;
  const res = await clients.products.createProduct(
    {
      fields: catalog.ProductFields.fromPartial({
        title: 'Simple product',
        status: 'publish',
        prices: { items: [onetimePrice(amount)] },
        ...(stock === undefined ? {} : { manageStock: true, stockQuantity: stock }),
        ...rest,
      }),
    },
    manager,
  );
  return res.product!;
}

export const variationInput = (attributes: Record<string, string>, extra: Partial<catalog.VariationInput> = {}) =>
  catalog.VariationInput.fromPartial({ attributes, ...extra });
