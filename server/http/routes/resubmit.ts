import type { FastifyInstance } from 'fastify';
import { jobOperations, resubmitJobSchema } from '../../../contract';
import type { JobService } from '../../jobs/job-service';
import { audit } from '../audit';
import { principalOf } from '../auth';
import { operationRoute } from '../operation-route';
import { parseBodyOrThrow } from '../parse';

/** Extension: a finished job submitted again, its secrets kept in the service. */
export function resubmitRoutes(app: FastifyInstance, service: JobService): void {
  operationRoute(app, jobOperations.resubmitJob, async (request, reply) => {
    const changes = parseBodyOrThrow(resubmitJobSchema, request.body);
    const { project, actor } = principalOf(request);
    const source = request.params.job_id;
    const { id, keptSecrets } = await service.resubmit(project, source, changes, actor);
    // Names only: the values stay sealed in the store.
    audit(request, 'job.resubmit', id, { resubmitted_from: source, kept_secrets: keptSecrets });
    return reply
      .code(202)
      .send({ ok: true, data: { id, resubmitted_from: source, kept_secrets: keptSecrets } });
  });
}
