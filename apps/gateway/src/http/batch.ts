import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, invalidParams, toErrorBody } from '@storefront/errors';
import { Type, type TSchema } from 'typebox';
import { documented, ErrorObject } from './responses';
import type { Access } from '../auth/access';
import { MAX_ID } from './schemas';
import { compileBodySchema } from './validation';
import { validationError } from '../errors/validation-errors';
import { noRoute } from '../errors/error-handler';

export interface BatchHandlers<C, U> {
  create(item: C, request: FastifyRequest): Promise<unknown>;
  update(item: U & { id: number }, request: FastifyRequest): Promise<unknown>;
  delete(id: number, request: FastifyRequest): Promise<unknown>;
}

export interface BatchRoute<C, U> {
  url: string;
  access: Access;
  /** `shop/rest_batch_items_limit`: items over it (create + update + delete) -> 413. */
  limit: number;
  createSchema: object;
  updateSchema: object;
  handlers: BatchHandlers<C, U>;
  /** OpenAPI: owning service tag, item schema and names (`batchTaxRates`, component `TaxRateBatch`). */
  doc?: { tag: string; itemSchema: TSchema; noun: string; plural: string; /** What a delete answers, when not the item. */ deleteSchema?: TSchema };
}

/** `{create, update, delete}` result of a batch: each entry the item or `{id, error}`. */
function batchResponse(itemSchema: TSchema, noun: string, deleteSchema: TSchema = itemSchema) {
  const ItemError = Type.Object(
    { id: Type.Optional(Type.Unknown()), error: ErrorObject },
    { title: 'BatchItemError', description: 'An item that failed: its id (when it had one) and the error object.' },
  );
  const Results = Type.Array(Type.Union([itemSchema, ItemError]));
  const Deleted = Type.Array(Type.Union([deleteSchema, ItemError]));
  return Type.Object(
    { create: Type.Optional(Results), update: Type.Optional(Results), delete: Type.Optional(Deleted) },
    { title: `${noun}Batch` },
  );
}

const Envelope = Type.Object({
  create: Type.Optional(Type.Array(Type.Unknown())),
  update: Type.Optional(Type.Array(Type.Unknown())),
  delete: Type.Optional(Type.Array(Type.Unknown())),
});

/**
 * The shared batch envelope (spec 4.3): `create` items, `update` items with
 * `id`, `delete` ids. Each item is validated and run on its own; the response
 * echoes each array with the item's result or `{id, error}`. Items run one
 * after another so their effects apply in the order given.
 */
export function registerBatchRoute<C, U>(app: FastifyInstance, route: BatchRoute<C, U>): void {
  // Without this, GET or DELETE `<collection>/batch` would reach `<collection>/:id` and be refused as a bad id:
  // a method the batch route does not have is the unknown route it is (404 rest_no_route).
  app.route({
    method: ['GET', 'DELETE'],
    url: route.url,
    config: { access: 'public', noRoute: true },
    handler: async () => {
      throw noRoute();
    },
  });
  const validateCreate = compileBodySchema(route.createSchema);
  const validateUpdate = compileBodySchema(withRequiredId(route.updateSchema));
  app.route({
    method: ['POST', 'PUT', 'PATCH'],
    url: route.url,
    config: { access: route.access },
    schema: {
      ...(route.doc
        ? documented(route.doc.tag)(`batch${route.doc.plural}`, `Create, update and delete ${words(route.doc.plural)} in one request`, {
            200: batchResponse(route.doc.itemSchema, route.doc.noun, route.doc.deleteSchema),
          })
        : {}),
      body: Envelope,
    },
    handler: async (request) => {
      const body = request.body as { create?: unknown[]; update?: unknown[]; delete?: unknown[] };
      const total = (body.create?.length ?? 0) + (body.update?.length ?? 0) + (body.delete?.length ?? 0);
      if (total > route.limit) {
        throw new DomainError(
          'rest_request_entity_too_large',
          413,
          `Unable to accept more than ${route.limit} items for this request.`,
        );
      }
      const result: Record<string, unknown[]> = {};
      if (body.create) {
        result.create = await runEach(body.create, (item) => {
          if (!validateCreate(item)) throw validationError(validateCreate.errors ?? [], 'create');
          return route.handlers.create(item as C, request);
        });
      }
      if (body.update) {
        result.update = await runEach(body.update, (item) => {
          if (!validateUpdate(item)) throw validationError(validateUpdate.errors ?? [], 'update');
          return route.handlers.update(item as U & { id: number }, request);
        });
      }
      if (body.delete) {
        result.delete = await runEach(body.delete, (raw) => {
          const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : raw;
          // As everywhere: a string or a boolean where an id belongs is refused, not read as a number.
          if (typeof id !== 'number' || !Number.isInteger(id) || id < 1 || id > MAX_ID) {
            throw invalidParams({ id: `id must be an integer from 1 to ${MAX_ID}.` });
          }
          return route.handlers.delete(id, request);
        });
      }
      return result;
    },
  });
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

async function runEach(items: unknown[], run: (item: unknown) => Promise<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const item of items) {
    try {
      out.push(await run(item));
    } catch (err) {
      if (!DomainError.is(err)) throw err;
      const id = typeof item === 'object' && item !== null ? (item as { id?: unknown }).id : item;
      out.push({ ...(id !== undefined ? { id } : {}), error: toErrorBody(err) });
    }
  }
  return out;
}

/** The update item schema plus a required integer `id` (merged, so removeAdditional keeps `id`). */
function withRequiredId(schema: object): object {
  const s = schema as { properties?: Record<string, unknown>; required?: string[] };
  return {
    ...s,
    properties: { ...s.properties, id: { type: 'integer', minimum: 1, maximum: MAX_ID } },
    required: [...new Set([...(s.required ?? []), 'id'])],
  };
}
