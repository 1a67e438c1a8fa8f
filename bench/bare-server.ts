/**
 * The yardstick for Job Submit: Fastify alone, parsing the same body with the same zod schema
 * and answering 202 with a fresh id, storing nothing. Run as a process of its own (like the
 * service) by the bench; prints its URL on stdout.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { DEFAULT_LIMITS, buildSubmitJobSchema } from '../contract';

const schema = buildSubmitJobSchema(DEFAULT_LIMITS);
const app = Fastify();
app.post('/v1/client/job', async (request, reply) => {
  const parsed = schema.safeParse(request.body);
  if (!parsed.success) return reply.code(400).send({ ok: false, message: 'invalid' });
  return reply.code(202).send({ ok: true, data: { id: randomUUID() } });
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`${url}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
