import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpError } from './errors';
import { ZOD_ONLY } from './parse';
import { enforceQuerySchemas, type Query } from './query-rule';

let app: FastifyInstance;
afterEach(() => app.close());

async function appWith(register: (app: FastifyInstance) => void | Promise<void>) {
  app = Fastify(ZOD_ONLY);
  app.setErrorHandler((error: HttpError, _request, reply) =>
    reply.code(error.statusCode).send({ ok: false, message: error.message }),
  );
  enforceQuerySchemas(app);
  await register(app);
  return app;
}

const get = async (url: string, method: 'GET' | 'HEAD' = 'GET') => {
  const response = await app.inject({ method, url });
  return { status: response.statusCode, body: method === 'GET' ? response.json() : undefined };
};

describe('the query rule', () => {
  it('gives a route that declares no query none, in nested scopes too', async () => {
    await appWith(async (root) => {
      root.get('/plain', async () => ({ ok: true }));
      await root.register(async (scope) => {
        scope.get('/nested', async () => ({ ok: true }));
      });
    });
    for (const path of ['/plain', '/nested']) {
      expect(await get(path)).toEqual({ status: 200, body: { ok: true } });
      expect(await get(`${path}?colour=red&size=2`)).toEqual({
        status: 400,
        body: {
          ok: false,
          message:
            'colour: is not a parameter of this endpoint; size: is not a parameter of this endpoint',
        },
      });
      expect((await get(`${path}?colour=red`, 'HEAD')).status).toBe(400);
    }
  });

  it('hands the handler what the declared schema made of the query', async () => {
    const schema = z.strictObject({
      limit: z.coerce.number().int().default(50),
      tag: z.array(z.string()).optional(),
    });
    await appWith((root) => {
      root.get<Query<typeof schema>>('/list', { config: { query: schema } }, async (request) => ({
        limit: request.query.limit,
        tag: request.query.tag ?? null,
      }));
    });
    expect(await get('/list?limit=7')).toEqual({ status: 200, body: { limit: 7, tag: null } });
    expect((await get('/list?tag=a&tag=b')).body).toEqual({ limit: 50, tag: ['a', 'b'] });
    expect(await get('/list?limit=5&limit=6')).toEqual({
      status: 400,
      body: { ok: false, message: 'limit: must be given once' },
    });
  });
});
