import type { FastifyInstance } from 'fastify';
import { shareOperations, type ProjectShareRecord, type ShareAmounts } from '../../../contract';
import type { ShareFigures, Usage } from '../../jobs/fair-share';
import type { ShareSnapshot } from '../../jobs/share-ledger';
import { principalOf } from '../auth';
import { operationRoute } from '../operation-route';

/** Every project's share now. */
export type SharesReader = () => Promise<ShareSnapshot & { halfLifeSeconds: number }>;

const RESOURCE_OF = {
  cpus: 'cpus',
  memoryBytes: 'memory_bytes',
  gpus: 'gpus',
  jobs: 'jobs',
} as const;

const toAmounts = (u: Usage): ShareAmounts => ({
  cpus: u.cpus,
  memory_bytes: u.memoryBytes,
  gpus: u.gpus,
  jobs: u.jobs,
});

const toFigures = (f: ShareFigures) => ({
  weight: f.weight,
  share: f.due,
  in_use: toAmounts(f.now),
  recent: toAmounts(f.recent),
  dominant: { resource: RESOURCE_OF[f.dominant.dimension], fraction: f.dominant.fraction },
  active: f.active,
});

/** Extension: fair share by project and queue; an admin sees every project, others their own. */
export function shareRoutes(app: FastifyInstance, shares: SharesReader): void {
  operationRoute(app, shareOperations.listShares, async (request) => {
    const { project, role } = principalOf(request);
    const snapshot = await shares();
    const projects: ProjectShareRecord[] = snapshot.projects
      .filter((p) => role === 'admin' || p.project === project)
      .map((p) => ({
        project: p.project,
        ...toFigures(p),
        queues: p.queues.map((q) => ({ queue: q.ref, ...toFigures(q) })),
      }));
    return {
      ok: true,
      data: {
        half_life_seconds: snapshot.halfLifeSeconds,
        capacity: toAmounts(snapshot.capacity),
        projects,
      },
    };
  });
}
