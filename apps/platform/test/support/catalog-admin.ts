import { bindServices, openChannel, type CallerContext, type PackageClients } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import type { Platform } from '../../src';
import type { ShopClient } from './client';

/**
 * Test data for the catalog's REST routes, written straight to the running
 * catalog over gRPC as the administrator (the product REST routes are
 * another area's). The caller is the real admin: id and capabilities come
 * from the customers REST route, as the gateway would resolve them.
 */
export interface CatalogAdmin {
  caller: CallerContext;
  products: PackageClients<typeof catalog>['product'];
  terms: PackageClients<typeof catalog>['term'];
  /** A published product with one price (default "10.00"); `stock` turns on managed stock at that level. */
  simpleProduct(fields?: ProductSeed): Promise<catalog.Product>;
  /** A published variable product with one price and these variations. */
  variableProduct(variations: Partial<catalog.VariationInput>[], fields?: ProductSeed): Promise<catalog.Product>;
  close(): void;
}

export type ProductSeed = Partial<catalog.ProductFields> & { amount?: string; stock?: number };

async function adminCaller(admin: ShopClient): Promise<CallerContext> {
  const res = await admin.get('/shop/v1/customer?roles=administrator&context=edit');
  const [user] = res.body as Array<{ id: number; username: string; roles: string[]; capabilities: Record<string, boolean> }>;
  if (res.status !== 200 || !user) throw new Error(`cannot read the administrator: ${res.status}`);
  return {
    userId: user.id,
    login: user.username,
    roles: user.roles,
    capabilities: Object.keys(user.capabilities).filter((cap) => user.capabilities[cap]),
    requestId: 'e2e-seed',
  };
}

function productFields({ amount = '10.00', stock, ...rest }: ProductSeed): catalog.ProductFields {
  return catalog.ProductFields.fromPartial({
    title: 'Product',
    status: 'publish',
    prices: { items: amount ? [{ name: 'Standard', amount }] : [] },
    ...(stock === undefined ? {} : { manageStock: true, stockQuantity: stock }),
    ...rest,
  });
}

export async function connectCatalogAdmin(stack: Platform, admin: ShopClient): Promise<CatalogAdmin> {
  const service = stack.services.find((s) => s.name === 'catalog');
  if (!service) throw new Error('the platform runs no catalog service');
  const caller = await adminCaller(admin);
  const channel = openChannel('catalog', service.address, 15_000);
  const { product: products, term: terms } = bindServices(channel, catalog);
  const create = async (fields: catalog.ProductFields) => (await products.createProduct({ fields }, caller)).product!;
  return {
    caller,
    products,
    terms,
    simpleProduct: (fields = {}) => create(productFields(fields)),
    variableProduct: (variations, fields = {}) =>
      create(
        productFields({
          productType: 'variable',
          variations: { items: variations.map((v) => catalog.VariationInput.fromPartial(v)) },
          ...fields,
        }),
      ),
    close: () => channel.close(),
  };
}
