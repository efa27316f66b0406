import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '@storefront/errors';
import { anonymousCaller } from '@storefront/grpc-client';
import { installErrorHandling } from '../src/errors/error-handler';
import { installValidation } from '../src/http/validation';
import { registerBatchRoute } from '../src/http/batch';

// The shared batch mechanism on a real Fastify instance with the gateway's
// validation and error handling; the item handlers keep a small in-memory list.
let app: FastifyInstance;
const items = new Map<number, { id: number; name: string }>();
let nextId = 1;

beforeAll(async () => {
  app = Fastify();
  installErrorHandling(app);
  installValidation(app);
  app.addHook('onRequest', async (request) => void ((request as any).caller = anonymousCaller()));
  const Item = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });
  registerBatchRoute(app, {
    url: '/things/batch',
    access: 'public',
    limit: 10,
    createSchema: Item,
    updateSchema: Type.Partial(Item),
    handlers: {
      async create(item: { name: string }) {
        const thing = { id: nextId++, name: item.name };
        items.set(thing.id, thing);
        return { ...thing };
      },
      async update(item: { id: number; name?: string }) {
        const thing = items.get(item.id);
        if (!thing) throw notFound('thing_missing', 'No such thing.');
        thing.name = item.name ?? thing.name;
        return { ...thing };
      },
      async delete(id: number) {
        if (!items.delete(id)) throw notFound('thing_missing', 'No such thing.');
        return { id, deleted: true };
      },
    },
  });
  await app.ready();
});
afterAll(() => app.close());

const send = (payload: unknown, method: 'POST' | 'PUT' | 'PATCH' = 'POST') =>
  app.inject({ method, url: '/things/batch', payload: payload as object });

describe('batch envelope', () => {
  it('runs create, update and delete with per-item results and errors', async () => {
    const res = await send({
      create: [{ name: 'a' }, { name: '' }, { name: 'b' }],
      update: [{ id: 1, name: 'A' }, { id: 99, name: 'x' }],
      delete: [2, 42],
    }, 'PUT');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.create[0]).toEqual({ id: 1, name: 'a' });
    expect(body.create[1].error).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect(body.create[2]).toEqual({ id: 2, name: 'b' });
    expect(body.update).toEqual([{ id: 1, name: 'A' }, { id: 99, error: expect.objectContaining({ code: 'thing_missing' }) }]);
    expect(body.delete).toEqual([{ id: 2, deleted: true }, { id: 42, error: expect.objectContaining({ code: 'thing_missing' }) }]);
  });

  it('refuses more items than the limit with 413', async () => {
    const res = await send({ create: Array.from({ length: 6 }, () => ({ name: 'x' })), delete: [1, 2, 3, 4, 5] }, 'PATCH');
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'rest_request_entity_too_large', data: { status: 413 } });
  });

  it('refuses envelopes of the wrong shape with 400', async () => {
    expect((await send({ create: 'nope' })).json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
    expect((await send([1, 2])).statusCode).toBe(400);
    const badUpdate = await send({ update: [{ name: 'no id' }] });
    expect(badUpdate.json().update[0].error.code).toBe('rest_missing_callback_param');
  });

  it('refuses ids that are not integers in range, per item, deleting nothing for them', async () => {
    const res = await send({ delete: ['1', true, 1.5, 0, 2_147_483_648, { id: '1' }], update: [{ id: 2_147_483_648, name: 'x' }] });
    const body = res.json();
    expect(body.delete.map((r: { error?: { code: string } }) => r.error?.code)).toEqual(Array(6).fill('rest_invalid_param'));
    expect(body.update[0].error.code).toBe('rest_invalid_param');
    // Item 1 still exists: none of those deleted it.
    expect((await send({ delete: [1] })).json().delete).toEqual([{ id: 1, deleted: true }]);
  });
});
