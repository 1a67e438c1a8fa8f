import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { IncomingHttpHeaders } from 'node:http';
import {
  IDEMPOTENCY_KEY_RULE,
  idempotencyKeySchema,
  jobOperations,
  type SubmitJobRequest,
} from '../../../contract';
import type { JobService } from '../../jobs/job-service';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { operationRoute } from '../operation-route';
import { parseOrThrow } from '../parse';
import { toJobRecord } from '../presenters';

interface JobRoutesOptions {
  service: JobService;
  submitSchema: z.ZodType<SubmitJobRequest>;
  /** Whether Job Submit reads an Idempotency-Key (an extension: off, the header is ignored). */
  idempotencyKeys: boolean;
}

/** Job Submit's Idempotency-Key, when one is sent; a 400 naming the header when it is not one. */
function idempotencyKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const sent = headers['idempotency-key'];
  if (sent === undefined) return undefined;
  const parsed = idempotencyKeySchema.safeParse(sent);
  if (!parsed.success) throw new HttpError(400, `Idempotency-Key: ${IDEMPOTENCY_KEY_RULE}`);
  return parsed.data;
}

/** The spec's three operations: Job Submit, Job Detail, Cancel Job. */
export function jobRoutes(
  app: FastifyInstance,
  { service, submitSchema, idempotencyKeys }: JobRoutesOptions,
): void {
  operationRoute(app, jobOperations.submitJob, async (request, reply) => {
    const key = idempotencyKeys ? idempotencyKeyOf(request.headers) : undefined;
    if (request.body === undefined) {
      throw new HttpError(400, 'body: missing; send the job submission payload as a JSON object');
    }
    const payload = parseOrThrow(submitSchema, request.body);
    const { project, actor } = principalOf(request);
    const { id, replayed } = await service.submit(project, payload, actor, key);
    // Never the env or the command: either may hold what only the job should read.
    audit(request, 'job.submit', id, {
      definition: payload.job_definition,
      queue: payload.job_queue,
      ...(replayed && { replayed: true }),
    });
    return reply.code(202).send({ ok: true, data: { id } });
  });

  operationRoute(app, jobOperations.getJob, async (request) => {
    const job = await service.detail(principalOf(request).project, request.params.job_id);
    return { ok: true, data: toJobRecord(job) };
  });

  operationRoute(app, jobOperations.cancelJob, async (request, reply) => {
    const { project, actor } = principalOf(request);
    await service.cancel(project, request.params.job_id, actor);
    audit(request, 'job.cancel', request.params.job_id);
    return reply.code(202).send({ ok: true });
  });
}
