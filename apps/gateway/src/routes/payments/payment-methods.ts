import type { FastifyReply } from 'fastify';
import { Type, type Static } from 'typebox';
import type { PaymentsClients } from '../../clients';
import type { TypedApp } from '../../context';
import { idempotencyKeyOf } from '../../http/idempotency-key';
import { setWholeListHeaders } from '../../http/pagination';
import { errorResponses } from '../../http/responses';
import { MAX_ID } from '../../http/schemas';
import { SavedTokenSchema, savedTokenResource } from '../../resources/payment';

const AddBody = Type.Object(
  {
    payment_method: Type.String({ minLength: 1, maxLength: 60, description: 'Gateway id.' }),
    payment_payload: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'test_card: {card_number, exp_month, exp_year, cvc} or {payment_method_id}.' }),
    ),
    fields: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Gateway fields.' })),
  },
  { additionalProperties: false },
);

const SetupBody = Type.Object(
  {
    payment_method: Type.String({ minLength: 1, maxLength: 60, description: 'Gateway id (only the card gateway).' }),
    return_url: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const TokenParams = Type.Object({ token_id: Type.String({ maxLength: 40, description: 'Saved token id.' }) });
const MeTokenParams = Type.Object({ id: Type.String({ maxLength: 40, description: 'Saved token id.' }) });

const AddResult = Type.Object(
  { result: Type.String({ description: 'success' }), message: Type.String(), token: SavedTokenSchema },
  { title: 'PaymentMethodResult' },
);
const SetupResult = Type.Object(
  { client_secret: Type.String(), intent_id: Type.String(), mode: Type.String({ description: 'setup' }) },
  { title: 'SetupIntent' },
);
const Deleted = Type.Object({ deleted: Type.Boolean(), token_id: Type.Integer() }, { title: 'PaymentMethodDeleted' });
const Defaulted = Type.Object({ default: Type.Boolean(), token_id: Type.Integer() }, { title: 'PaymentMethodDefault' });

const tags = ['payments'];

/** Path ids that are not token ids (not digits, or beyond the id column's range) read as "no such token" (404), never as a 400. */
function tokenIdOf(raw: string): number {
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  return id <= MAX_ID ? id : 0;
}

/** `payment-methods/*` (spec 4.12) and `me/payment-methods/*` (spec 4.9). */
export function paymentMethodRoutes(app: TypedApp, clients: PaymentsClients): void {
  const pm = { access: 'payment_methods' as const };
  const me = { access: 'logged_in' as const };
  const methods = clients.paymentMethod;

  app.post(
    '/payment-methods',
    {
      config: pm,
      schema: {
        operationId: 'addPaymentMethod',
        tags,
        summary: 'Saves a payment method through its gateway (Idempotency-Key honoured).',
        body: AddBody,
        response: { 200: AddResult, ...errorResponses(400, 401, 404, 422, 429) },
      },
    },
    async (request, reply: FastifyReply) => {
      const body = request.body as Static<typeof AddBody>;
      const res = await methods.addPaymentMethod(
        {
          paymentMethod: body.payment_method,
          paymentPayloadJson: JSON.stringify(body.payment_payload ?? {}),
          fieldsJson: JSON.stringify(body.fields ?? {}),
          idempotencyKey: idempotencyKeyOf(request),
          clientIp: request.caller.clientIp ?? '',
        },
        request.caller,
      );
      if (res.replayed) reply.header('Idempotent-Replayed', 'true');
      return { result: res.result, message: res.message, token: savedTokenResource(res.token, request) };
    },
  );

  app.post(
    '/payment-methods/setup-intent',
    {
      config: pm,
      schema: {
        operationId: 'createSetupIntent',
        tags,
        summary: 'A setup intent of the card gateway, to confirm client-side and save as a payment method.',
        body: SetupBody,
        response: { 200: SetupResult, ...errorResponses(400, 401, 422) },
      },
    },
    async (request) => {
      const body = request.body as Static<typeof SetupBody>;
      const res = await methods.createSetupIntent(
        { paymentMethod: body.payment_method, returnUrl: body.return_url ?? '' },
        request.caller,
      );
      return { client_secret: res.clientSecret, intent_id: res.intentId, mode: res.mode };
    },
  );

  app.delete(
    '/payment-methods/:token_id',
    {
      config: pm,
      schema: {
        operationId: 'deletePaymentMethod',
        tags,
        summary: 'Deletes one of the caller\'s saved payment methods.',
        params: TokenParams,
        response: { 200: Deleted, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tokenId = tokenIdOf((request.params as Static<typeof TokenParams>).token_id);
      return tokenIdResult(await methods.deletePaymentMethod({ tokenId }, request.caller));
    },
  );

  app.post(
    '/payment-methods/:token_id/default',
    {
      config: pm,
      schema: {
        operationId: 'setDefaultPaymentMethod',
        tags,
        summary: 'Makes one of the caller\'s saved payment methods the default.',
        params: TokenParams,
        response: { 200: Defaulted, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tokenId = tokenIdOf((request.params as Static<typeof TokenParams>).token_id);
      const res = await methods.setDefaultPaymentMethod({ tokenId }, request.caller);
      return { default: res.default, token_id: res.tokenId };
    },
  );

  app.get(
    '/me/payment-methods',
    {
      config: { ...me, itemSchema: SavedTokenSchema },
      schema: {
        operationId: 'listMyPaymentMethods',
        tags,
        summary: 'The caller\'s saved payment tokens.',
        response: { 200: Type.Array(SavedTokenSchema), ...errorResponses(401) },
      },
    },
    async (request, reply) => {
      const { tokens } = await methods.listPaymentMethods({}, request.caller);
      setWholeListHeaders(request, reply, tokens.length);
      return tokens.map((t) => savedTokenResource(t, request));
    },
  );

  app.delete(
    '/me/payment-methods/:id',
    {
      config: me,
      schema: {
        operationId: 'deleteMyPaymentMethod',
        tags,
        summary: 'Deletes one of the caller\'s saved payment methods (delegated to its gateway).',
        params: MeTokenParams,
        response: { 200: Deleted, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tokenId = tokenIdOf((request.params as Static<typeof MeTokenParams>).id);
      return tokenIdResult(await methods.deletePaymentMethod({ tokenId }, request.caller));
    },
  );

  app.post(
    '/me/payment-methods/:id/default',
    {
      config: me,
      schema: {
        operationId: 'setMyDefaultPaymentMethod',
        tags,
        summary: 'Makes one of the caller\'s saved payment methods the default (delegated to its gateway).',
        params: MeTokenParams,
        response: { 200: Defaulted, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const tokenId = tokenIdOf((request.params as Static<typeof MeTokenParams>).id);
      const res = await methods.setDefaultPaymentMethod({ tokenId }, request.caller);
      return { default: res.default, token_id: res.tokenId };
    },
  );
}

function tokenIdResult(res: { deleted: boolean; tokenId: number }) {
  return { deleted: res.deleted, token_id: res.tokenId };
}
