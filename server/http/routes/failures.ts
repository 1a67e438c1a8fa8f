import type { FastifyInstance } from 'fastify';
import { failureOperations, type FailureGroup } from '../../../contract';
import type { FailureGroupOf } from '../../jobs/failure-groups';
import type { JobReadModel } from '../../jobs/read-model';
import { principalOf } from '../auth';
import { filterFieldsOf, jobFilterOf } from '../job-filter';
import { operationRoute } from '../operation-route';

const isoOrNull = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** Extension: a filter's failures grouped by cause, each group a filter of exactly its jobs. */
export function failureRoutes(app: FastifyInstance, reads: JobReadModel): void {
  operationRoute(app, failureOperations.listFailureGroups, async (request) => {
    const { project } = principalOf(request);
    const asked = jobFilterOf(request.query);
    const { examined, more, groups } = await reads.failures({ ...asked, project });
    const toGroup = (group: FailureGroupOf): FailureGroup => {
      const newest = group.jobs[0]!;
      return {
        count: group.jobs.length,
        state: group.state as FailureGroup['state'],
        exit_code: group.exitCode,
        cause: group.cause,
        cause_from: group.causeFrom,
        newest: {
          job_id: newest.id,
          job_name: newest.name,
          ended_at: isoOrNull(newest.finishedAt),
        },
        filter: filterFieldsOf({ ...asked, ids: group.jobs.map((job) => job.id) }),
      };
    };
    return { ok: true, data: { examined, more, groups: groups.map(toGroup) } };
  });
}
