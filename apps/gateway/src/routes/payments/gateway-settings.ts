import { Type, type Static } from 'typebox';
import type { PaymentsClients } from '../../clients';
import type { TypedApp } from '../../context';
import { errorResponses } from '../../http/responses';
import { PaymentGatewaySettingsSchema } from '../../resources/payment';

const SettingsContext = Type.Union([Type.Literal('edit'), Type.Literal('view')], {
  default: 'edit',
  description: 'Scope under which the request is made.',
});

const ConfigObject = Type.Object(
  {},
  { additionalProperties: true, description: 'Keyed by gateway id, then field; OPTIONS has the generated schema.' },
);

const UpdateBody = Type.Object({ config: ConfigObject, context: SettingsContext }, { additionalProperties: false });
const VerifyBody = Type.Object(
  {
    method: Type.String({ minLength: 1, maxLength: 60, description: 'Gateway id.' }),
    config: Type.Object({}, { additionalProperties: true, description: 'The gateway\'s settings/credentials to verify.' }),
    context: SettingsContext,
  },
  { additionalProperties: false },
);

const VerifyResult = Type.Object({ verified: Type.Boolean(), message: Type.String() }, { title: 'PaymentGatewayVerification' });

const tags = ['payments'];
const URL = '/settings/payment-gateways';

/** `settings/payment-gateways` and `settings/verify-payment-gateways` (spec 4.16), manage_options. */
export function gatewaySettingsRoutes(app: TypedApp, clients: PaymentsClients): void {
  const config = { access: 'admin' as const };

  app.get(
    URL,
    {
      config,
      schema: {
        operationId: 'getPaymentGatewaySettings',
        tags,
        summary: 'Settings of every registered gateway (password fields masked).',
        response: { 200: PaymentGatewaySettingsSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const { settingsJson } = await clients.paymentGateway.getSettings({}, request.caller);
      return JSON.parse(settingsJson) as object;
    },
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: URL,
      config,
      schema: {
        operationId: method === 'PUT' ? 'replacePaymentGatewaySettings' : 'updatePaymentGatewaySettings',
        tags,
        summary: 'Merges fields into the named gateways\' settings, validated and sanitized per field type (PUT and PATCH alike).',
        description: 'A gateway with `verify_config` verifies its settings first: 422 `shop_payment_gateway_verification_failed`, nothing saved.',
        body: UpdateBody,
        response: { 200: PaymentGatewaySettingsSchema, ...errorResponses(400, 401, 403, 422) },
      },
      handler: async (request) => {
        const body = request.body as Static<typeof UpdateBody>;
        const { settingsJson } = await clients.paymentGateway.updateSettings(
          // PUT and PATCH are one operation in the spec (the host platform's EDITABLE): both merge.
          { configJson: JSON.stringify(body.config), replace: false },
          request.caller,
        );
        return JSON.parse(settingsJson) as object;
      },
    });

    app.route({
      method,
      url: '/settings/verify-payment-gateways',
      config,
      schema: {
        operationId: method === 'PUT' ? 'verifyPaymentGatewaySettings' : 'verifyPaymentGatewaySettingsPatch',
        tags,
        summary: 'Validates and verifies a gateway\'s settings without storing them.',
        body: VerifyBody,
        response: { 200: VerifyResult, ...errorResponses(400, 401, 403, 422) },
      },
      handler: async (request) => {
        const body = request.body as Static<typeof VerifyBody>;
        return clients.paymentGateway.verifySettings({ method: body.method, configJson: JSON.stringify(body.config) }, request.caller);
      },
    });
  }

  // Explicit, so the route catalog leaves this URL alone: the schema comes from the registered gateways.
  app.route({
    method: 'OPTIONS',
    url: URL,
    config: { access: 'public' },
    handler: async (request) => {
      const { schemaJson } = await clients.paymentGateway.getSettingsSchema({}, request.caller);
      const schema = JSON.parse(schemaJson) as Record<string, unknown>;
      const args = {
        config: { ...schema, required: true, description: 'Object keyed by gateway id then field.' },
        context: { type: 'string', enum: ['edit', 'view'], default: 'edit', required: false },
      };
      return {
        namespace: 'shop/v1',
        methods: ['GET', 'PUT', 'PATCH'],
        endpoints: [
          { methods: ['GET'], args: {} },
          { methods: ['PUT', 'PATCH'], args },
        ],
        schema,
      };
    },
  });
}
