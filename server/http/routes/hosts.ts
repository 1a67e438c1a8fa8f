import type { FastifyInstance } from 'fastify';
import { hostOperations, type HostRecord } from '../../../contract';
import type { HostView, HostsView } from '../../jobs/hosts-view';
import { operationRoute } from '../operation-route';
import { principalOf } from '../auth';
import { toResources } from '../presenters';

/** Reads the engine's hosts with what jobs hold of each, for the caller's project. */
export type HostsReader = (project: string) => Promise<HostsView>;

const toHost = ({ host, used, jobs, otherJobs }: HostView): HostRecord => ({
  id: host.id,
  name: host.name,
  state: host.state,
  capacity: toResources(host),
  used: toResources(used),
  jobs: jobs.map(({ job, resources }) => ({
    id: job.id,
    name: job.name,
    queue: job.queue,
    state: job.state,
    resources: toResources(resources),
  })),
  other_jobs: otherJobs,
});

/** Extension: the engine's hosts, their capacity and use, and the project's jobs on each. */
export function hostRoutes(app: FastifyInstance, hosts: HostsReader): void {
  operationRoute(app, hostOperations.listHosts, async (request) => {
    const view = await hosts(principalOf(request).project);
    return { ok: true, data: { placement: view.placement, items: view.items.map(toHost) } };
  });
}
