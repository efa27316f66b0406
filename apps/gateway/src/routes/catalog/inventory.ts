import { Type } from 'typebox';
import type { RouteModule } from '../../context';
import { MAX_ID } from '../../http/schemas';
import { documented, errorResponses } from '../../http/responses';
import {
  generatedCodeResource,
  GeneratedCodeSchema,
  resolvedCodesResource,
  ResolvedCodesSchema,
} from '../../resources/catalog/inventory';

const GenerateBody = Type.Object(
  {
    type: Type.Union([Type.Literal('sku'), Type.Literal('barcode')], { description: 'sku or an EAN-13 barcode.' }),
    name: Type.String({ maxLength: 200, default: '', description: 'Product name: its first words make the SKU.' }),
    category_id: Type.Integer({
      minimum: 0,
      maximum: MAX_ID,
      default: 0,
      description: 'Product category whose name prefixes the SKU; 0: none.',
    }),
  },
  { additionalProperties: false },
);

const ResolveBody = Type.Object(
  {
    codes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      minItems: 1,
      maxItems: 100,
      description: 'Scanned or typed SKUs (case-insensitive) or barcodes.',
    }),
  },
  { additionalProperties: false },
);

/** Inventory helpers of the admin (spec 4.6), edit_shop_products. Both answer 200: nothing is created. */
export const inventoryRoutes: RouteModule = (app, ctx) => {
  const inventory = ctx.clients.catalog?.inventory;
  if (!inventory) return;
  const access = { capability: 'edit_shop_products' };

  app.post(
    '/inventory/generate-code',
    {
      config: { access, itemSchema: GeneratedCodeSchema },
      schema: {
        ...documented('catalog')('generateCode', 'Generate an unused SKU or barcode', { 200: GeneratedCodeSchema, ...errorResponses(404, 422) }),
        body: GenerateBody,
      },
    },
    async (request) => {
      const { type, name, category_id } = request.body;
      return generatedCodeResource(await inventory.generateCode({ type, name, categoryId: category_id }, request.caller));
    },
  );

  app.post(
    '/inventory/resolve-codes',
    {
      config: { access, itemSchema: ResolvedCodesSchema },
      schema: {
        ...documented('catalog')('resolveCodes', 'Find the products and variations of SKUs or barcodes', { 200: ResolvedCodesSchema }),
        body: ResolveBody,
      },
    },
    async (request) => resolvedCodesResource(await inventory.resolveCodes({ codes: request.body.codes }, request.caller)),
  );
};
