import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { formatIssues, jobListQuerySchema, type buildSubmitJobSchema } from '../../../contract';
import type { JobService } from '../../jobs/job-service';
import { principalOf } from '../auth';
import { HttpError } from '../errors';
import { toJobListItem, toJobRecord, toTransition } from '../presenters';

interface JobRoutesOptions {
  service: JobService;
  submitSchema: ReturnType<typeof buildSubmitJobSchema>;
}

interface JobParams {
  job_id: string;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(400, formatIssues(parsed.error.issues));
  return parsed.data;
}

/** The spec's three operations, then the read-only extensions the console can use when present. */
export function jobRoutes(app: FastifyInstance, { service, submitSchema }: JobRoutesOptions): void {
  app.post('/v1/client/job', async (request, reply) => {
    if (request.body === undefined) {
      throw new HttpError(400, 'body: missing; send the job submission payload as a JSON object');
    }
    const payload = parseOrThrow(submitSchema, request.body);
    const id = await service.submit(principalOf(request).project, payload);
    return reply.code(202).send({ ok: true, data: { id } });
  });

  app.get<{ Params: JobParams }>('/v1/client/job/:job_id', async (request) => {
    const job = await service.detail(principalOf(request).project, request.params.job_id);
    return { ok: true, data: toJobRecord(job) };
  });

  app.post<{ Params: JobParams }>('/v1/client/job/:job_id/cancel', async (request, reply) => {
    await service.cancel(principalOf(request).project, request.params.job_id);
    return reply.code(202).send({ ok: true });
  });

  app.get('/v1/client/jobs', async (request) => {
    const query = parseOrThrow(jobListQuerySchema, request.query);
    const beforeSeq = query.cursor === undefined ? undefined : Number.parseInt(query.cursor, 10);
    if (beforeSeq !== undefined && !Number.isSafeInteger(beforeSeq)) {
      throw new HttpError(400, 'cursor: must be a next_cursor value from an earlier page');
    }
    const jobs = await service.list({
      project: principalOf(request).project,
      states: query.state,
      queue: query.queue,
      namePrefix: query.name,
      createdAfter: query.created_after === undefined ? undefined : Date.parse(query.created_after),
      createdBefore:
        query.created_before === undefined ? undefined : Date.parse(query.created_before),
      limit: query.limit,
      beforeSeq,
    });
    const last = jobs.at(-1);
    return {
      ok: true,
      data: {
        items: jobs.map(toJobListItem),
        next_cursor: jobs.length === query.limit && last ? String(last.seq) : null,
      },
    };
  });

  app.get<{ Params: JobParams }>('/v1/client/job/:job_id/transitions', async (request) => {
    const items = await service.transitions(principalOf(request).project, request.params.job_id);
    return { ok: true, data: { items: items.map(toTransition) } };
  });

  app.get<{ Params: JobParams }>('/v1/client/job/:job_id/logs', async (request) => {
    const logs = await service.logs(principalOf(request).project, request.params.job_id);
    return { ok: true, data: logs };
  });
}
