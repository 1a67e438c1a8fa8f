import type { FastifyInstance } from 'fastify';
import {
  shareOperations,
  type ProjectShareRecord,
  type QuotaFiguresRecord,
  type ShareAmounts,
  type SharePointRecord,
} from '../../../contract';
import type { ShareFigures, Usage } from '../../jobs/fair-share';
import type { Amounts, QuotaFigures } from '../../jobs/quotas';
import type { ShareHistory, SharePoint, Spread } from '../../jobs/share-history';
import type { ShareSnapshot } from '../../jobs/share-ledger';
import { principalOf } from '../auth';
import { operationRoute } from '../operation-route';

/** Every project's share now, and its last day. */
export type SharesReader = () => Promise<
  ShareSnapshot & { halfLifeSeconds: number; lastDay: ShareHistory }
>;

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

const toPartialAmounts = (a: Amounts) => ({
  ...(a.cpus !== undefined && { cpus: a.cpus }),
  ...(a.memoryBytes !== undefined && { memory_bytes: a.memoryBytes }),
  ...(a.gpus !== undefined && { gpus: a.gpus }),
  ...(a.jobs !== undefined && { jobs: a.jobs }),
});

/** Where a quota is set: it, and what is borrowed and lent now. */
const toQuota = (f: QuotaFigures | undefined): { quota?: QuotaFiguresRecord } =>
  f?.quota
    ? {
        quota: {
          nominal: toPartialAmounts(f.quota.nominal),
          borrowing_limit: toPartialAmounts(f.quota.borrowingLimit),
          lending_limit: toPartialAmounts(f.quota.lendingLimit),
          borrowed: toAmounts(f.borrowed),
          lent: toAmounts(f.lent),
        },
      }
    : {};

/** The dimensions a quota sets, of each of a spread's levels. */
const quotaSpread = (spread: Spread<Usage>, quota: Amounts) => {
  const set = (u: Usage) =>
    toPartialAmounts(Object.fromEntries(Object.keys(quota).map((d) => [d, u[d as keyof Usage]])));
  return { average: set(spread.average), peak: set(spread.peak) };
};

const toPoints = (
  points: readonly SharePoint[] | undefined,
  quota: QuotaFigures | undefined,
): { last_day?: SharePointRecord[] } =>
  points
    ? {
        last_day: points.map((p) => ({
          start: new Date(p.start).toISOString(),
          in_use: { average: toAmounts(p.used.average), peak: toAmounts(p.used.peak) },
          dominant: p.dominant,
          ...(p.borrowed &&
            quota?.quota && { borrowed: quotaSpread(p.borrowed, quota.quota.nominal) }),
          ...(p.lent && quota?.quota && { lent: quotaSpread(p.lent, quota.quota.nominal) }),
        })),
      }
    : {};

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
      .map((p) => {
        const quota = snapshot.quotas?.projects.get(p.project);
        return {
          project: p.project,
          ...toFigures(p),
          ...toQuota(quota),
          ...toPoints(snapshot.lastDay.projects.get(p.project), quota),
          queues: p.queues.map((q) => {
            const queueQuota = snapshot.quotas?.queues.get(q.ref);
            return {
              queue: q.ref,
              ...toFigures(q),
              ...toQuota(queueQuota),
              ...toPoints(snapshot.lastDay.queues.get(q.ref), queueQuota),
            };
          }),
        };
      });
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
