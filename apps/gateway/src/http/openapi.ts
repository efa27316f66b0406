import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * OpenAPI 3.1 generated from the very schemas that validate requests, served
 * at `/shop/v1/openapi.json`, with an interactive page at `/docs`.
 */
export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Storefront commerce REST API',
        version: 'shop/v1',
        description: 'Cart, checkout, orders, catalog, customers and more. Errors are `{code, message, data: {status}}`.',
      },
      components: {
        securitySchemes: {
          cookieNonce: { type: 'apiKey', in: 'header', name: 'X-Platform-Nonce', description: 'With the shop_session cookie.' },
          applicationPassword: { type: 'http', scheme: 'basic' },
        },
      },
    },
    hideUntagged: false,
    transform: ({ schema, url, route }) => {
      const hidden = url.startsWith('/docs') || route.method === 'OPTIONS';
      return { schema: { ...(schema ?? {}), hide: hidden }, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/shop/v1/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
}
