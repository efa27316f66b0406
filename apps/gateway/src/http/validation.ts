import type { FastifyInstance, FastifySchema } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';

const common: Options = { allErrors: true, useDefaults: true, removeAdditional: true, strict: false };

// Query strings and path params arrive as text: coerce "5" -> 5, "true" -> true, "a" -> ["a"].
const textAjv = addFormats.default(new Ajv({ ...common, coerceTypes: 'array' }));
// JSON bodies already carry types: a string where a number belongs is an error, not a guess.
const bodyAjv = addFormats.default(new Ajv({ ...common, coerceTypes: false }));

/** Compiles a body-part schema with the strict instance (batch items reuse it). */
export function compileBodySchema(schema: object) {
  return bodyAjv.compile(schema);
}

/**
 * Request validation from the same JSON Schemas that produce the OpenAPI
 * document. List-typed query params also accept comma-separated values and
 * `name[]=` keys, and boolean ones 1 and 0, as the host platform does.
 */
export function installValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? bodyAjv.compile(schema) : textAjv.compile(schema),
  );

  // Bodies are JSON only: anything else is 415. An empty JSON body means "no fields".
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = Object.assign(new Error('Invalid JSON body passed.'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
      done(err, undefined);
    }
  });

  app.addHook('preValidation', (request, _reply, done) => {
    // No body at all reads as "no fields" (then required ones are reported missing), like an empty JSON body.
    const routeSchema = request.routeOptions.schema as FastifySchema | undefined;
    if (routeSchema?.body && (request.body === undefined || request.body === null)) request.body = {};
    const schema = routeSchema?.querystring as
      | { properties?: Record<string, { type?: string }> }
      | undefined;
    if (!schema?.properties || !request.query || typeof request.query !== 'object') return done();
    const query = request.query as Record<string, unknown>;
    for (const key of Object.keys(query)) {
      if (key.endsWith('[]')) {
        const name = key.slice(0, -2);
        query[name] = ([] as unknown[]).concat(query[name] ?? [], query[key] as unknown);
        delete query[key];
      }
    }
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (prop.type === 'array' && typeof query[name] === 'string') {
        query[name] = (query[name] as string).split(',').map((v) => v.trim()).filter((v) => v !== '');
      }
      // The host platform reads 1 and 0 as booleans too (`?render=0`, `?force=1`), and any letter case (`FALSE`).
      if (prop.type === 'boolean' && typeof query[name] === 'string') {
        const text = (query[name] as string).toLowerCase();
        if (text === '1' || text === 'true') query[name] = 'true';
        else if (text === '0' || text === 'false') query[name] = 'false';
      }
    }
    done();
  });
}
