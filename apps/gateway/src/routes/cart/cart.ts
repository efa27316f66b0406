import { Type } from 'typebox';
import { notFound } from '@storefront/errors';
import type { CartClients } from '../../clients';
import type { RouteModule } from '../../context';
import { errorResponses } from '../../http/responses';
import { fragmentsResource } from '../../resources/cart/html';
import { CartLineSchema, CartSnapshotSchema, lineResource, snapshotResource } from '../../resources/cart/snapshot';
import { applySession, cartSession } from './session';

const SessionId = Type.Optional(Type.String({ maxLength: 128, description: 'Cart session token of a cross-origin client.' }));
const SessionQuery = Type.Object({ session_id: SessionId });
const Quantity = (min: number, description: string) => Type.Integer({ minimum: min, maximum: 9999, description });

const AddItemBody = Type.Object(
  {
    price_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The price to buy.' }),
    quantity: Type.Optional(Quantity(1, 'Units to add (default 1).')),
    variation_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Required for variable products.' })),
    product_id: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Resolved from price_id when absent.' })),
    session_id: SessionId,
  },
  { additionalProperties: false },
);
// No length rule of its own: a key that is not a line's is 404 shop_cart_item_not_found (spec 4.1), up to the router's 500-character parameter limit (414 beyond).
const KeyParams = Type.Object({ key: Type.String({ description: 'The line\'s item_key.' }) });
const UpdateBody = Type.Object(
  { quantity: Quantity(0, 'New quantity; 0 removes the line.'), session_id: SessionId },
  { additionalProperties: false },
);
const SessionBody = Type.Optional(Type.Object({ session_id: SessionId }, { additionalProperties: false }));

const AddItemResponse = Type.Object(
  { item: CartLineSchema, product_id: Type.Integer(), price_id: Type.Integer(), snapshot: CartSnapshotSchema },
  { title: 'CartAddItemResult' },
);
const DirectCheckoutResponse = Type.Object(
  {
    item: CartLineSchema,
    product_id: Type.Integer(),
    price_id: Type.Integer(),
    snapshot: CartSnapshotSchema,
    redirect: Type.String({ description: 'The checkout page URL.' }),
  },
  { title: 'CartDirectCheckoutResult' },
);
const UpdateResponse = Type.Object(
  {
    item: Type.Union([CartLineSchema, Type.Null()]),
    product_id: Type.Integer(),
    price_id: Type.Integer(),
    message: Type.String(),
    snapshot: CartSnapshotSchema,
  },
  { title: 'CartUpdateItemResult' },
);
const RemoveResponse = Type.Object(
  {
    removed: Type.Boolean(),
    item_key: Type.String(),
    item: CartLineSchema,
    product_id: Type.Integer(),
    price_id: Type.Integer(),
    message: Type.String(),
    snapshot: CartSnapshotSchema,
  },
  { title: 'CartRemoveItemResult' },
);
const ClearResponse = Type.Object({ cleared: Type.Boolean(), snapshot: CartSnapshotSchema }, { title: 'CartClearResult' });
const FragmentsResponse = Type.Record(Type.String(), Type.String(), {
  title: 'CartFragments',
  description: 'DOM class name -> re-rendered HTML fragment.',
});

const tags = ['cart'];
const config = { access: 'public' as const };

/** Spec 4.1: the cart of the caller's session (guests allowed; publishable keys are turned away earlier). */
export function cartRoutes(clients: CartClients): RouteModule {
  return (app) => {
    const { cart: carts, checkout } = clients;

    app.get(
      '/cart',
      {
        config,
        schema: { operationId: 'getCart', tags, summary: 'The cart snapshot of the caller\'s session.', querystring: SessionQuery, response: { 200: CartSnapshotSchema, ...errorResponses(400, 401, 503) } },
      },
      async (request, reply) => {
        const r = await carts.getCart({ session: cartSession(request) }, request.caller);
        applySession(request, reply, r.session);
        return snapshotResource(r.snapshot);
      },
    );

    const clear = (operationId: string, path: string, itemsPath = false) =>
      app.delete(
        path,
        {
          config,
          schema: {
            operationId,
            tags,
            summary: 'Empties the cart.',
            querystring: SessionQuery,
            response: { 200: ClearResponse, ...errorResponses(...(itemsPath ? [400, 401, 404, 503] : [400, 401, 503])) },
          },
        },
        async (request, reply) => {
          // `/cart/items/` (trailing slashes are ignored) is an item route with an empty key, not a request to empty the cart.
          if (itemsPath && request.url.split('?')[0].endsWith('/')) throw notFound('shop_cart_item_not_found', 'No cart item with this key.');
          const r = await carts.clearCart({ session: cartSession(request) }, request.caller);
          applySession(request, reply, r.session);
          return { cleared: true, snapshot: snapshotResource(r.snapshot) };
        },
      );
    clear('clearCart', '/cart');
    clear('clearCartItems', '/cart/items', true);

    const add = (direct: boolean) => async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      const b = request.body as import('typebox').Static<typeof AddItemBody>;
      const r = await carts.addItem(
        {
          session: cartSession(request),
          priceId: b.price_id,
          productId: b.product_id ?? 0,
          variationId: b.variation_id ?? 0,
          quantity: b.quantity ?? 1,
          replaceCart: direct,
        },
        request.caller,
      );
      applySession(request, reply, r.session);
      const item = lineResource(r.item!);
      return { item, product_id: item.product_id, price_id: item.price_id, snapshot: snapshotResource(r.snapshot), redirect: r.snapshot?.urls?.checkout ?? '' };
    };

    app.post(
      '/cart/items',
      {
        config,
        schema: { operationId: 'addCartItem', tags, summary: 'Adds a line (same price and variation: quantities add).', body: AddItemBody, response: { 200: AddItemResponse, ...errorResponses(400, 401, 422, 503) } },
      },
      async (request, reply) => {
        const { redirect: _checkoutPage, ...out } = await add(false)(request, reply);
        return out;
      },
    );
    app.post(
      '/cart/items/direct-checkout',
      {
        config,
        schema: { operationId: 'directCheckout', tags, summary: 'Empties the cart, adds this line and answers the checkout page URL.', body: AddItemBody, response: { 200: DirectCheckoutResponse, ...errorResponses(400, 401, 422, 503) } },
      },
      add(true),
    );

    app.patch(
      '/cart/items/:key',
      {
        config,
        schema: { operationId: 'updateCartItem', tags, summary: 'Changes a line\'s quantity (0 removes it).', params: KeyParams, body: UpdateBody, response: { 200: UpdateResponse, ...errorResponses(400, 401, 404, 422, 503) } },
      },
      async (request, reply) => {
        const r = await carts.updateItem({ session: cartSession(request), itemKey: request.params.key, quantity: request.body.quantity }, request.caller);
        applySession(request, reply, r.session);
        return {
          item: r.item ? lineResource(r.item) : null,
          product_id: r.productId,
          price_id: r.priceId,
          message: r.message,
          snapshot: snapshotResource(r.snapshot),
        };
      },
    );

    app.delete(
      '/cart/items/:key',
      {
        config,
        schema: { operationId: 'removeCartItem', tags, summary: 'Removes a line.', params: KeyParams, querystring: SessionQuery, body: SessionBody, response: { 200: RemoveResponse, ...errorResponses(400, 401, 404, 503) } },
      },
      async (request, reply) => {
        const r = await carts.removeItem({ session: cartSession(request), itemKey: request.params.key }, request.caller);
        applySession(request, reply, r.session);
        const item = lineResource(r.item!);
        return {
          removed: true,
          item_key: request.params.key,
          item,
          product_id: item.product_id,
          price_id: item.price_id,
          message: r.message,
          snapshot: snapshotResource(r.snapshot),
        };
      },
    );

    app.get(
      '/cart/refresh-fragments',
      {
        config,
        schema: { operationId: 'getCartFragments', tags, summary: 'Re-rendered HTML fragments (cart or checkout mode by the referer).', querystring: SessionQuery, response: { 200: FragmentsResponse, ...errorResponses(400, 401, 503) } },
      },
      async (request, reply) => {
        const r = await checkout.getCheckoutState({ session: cartSession(request) }, request.caller);
        applySession(request, reply, r.session);
        return fragmentsResource(r.state, modeOf(request.headers.referer, r.state?.snapshot?.urls?.checkout));
      },
    );
  };
}

/** Checkout mode when the referer is the checkout page (or any /checkout path). */
function modeOf(referer: string | undefined, checkoutUrl: string | undefined): 'cart' | 'checkout' {
  if (!referer) return 'cart';
  try {
    const path = new URL(referer).pathname;
    const checkoutPath = checkoutUrl ? new URL(checkoutUrl).pathname : '/checkout/';
    return path.startsWith(checkoutPath) || /\/checkout(\/|$)/.test(path) ? 'checkout' : 'cart';
  } catch {
    return 'cart';
  }
}
