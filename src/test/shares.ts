import type {
  ProjectShareRecord,
  QuotaFiguresRecord,
  ShareAmounts,
  ShareList,
} from '../../contract';

export const GIB = 1024 ** 3;

/** Nothing held, borrowed or lent. */
export const ZERO: ShareAmounts = { cpus: 0, memory_bytes: 0, gpus: 0, jobs: 0 };

type QueueShareRecord = ProjectShareRecord['queues'][number];

/** What every level of the shares carries: an idle level of weight 1, no quota, no last day. */
const figures = {
  weight: 1,
  share: 0.5,
  in_use: ZERO,
  recent: ZERO,
  dominant: { resource: 'cpus', fraction: 0 },
  active: true,
} as const;

/** A project `demo`'s share, with no queue, unless `fields` say otherwise. */
export const projectShare = (fields: Partial<ProjectShareRecord> = {}): ProjectShareRecord => ({
  project: 'demo',
  ...figures,
  queues: [],
  ...fields,
});

/** The share of the queue `demo::default` in its project's, unless `fields` say otherwise. */
export const queueShare = (fields: Partial<QueueShareRecord> = {}): QueueShareRecord => ({
  queue: 'demo::default',
  ...figures,
  ...fields,
});

/** A quota of `nominal` with no limits, nothing borrowed nor lent, unless `fields` say otherwise. */
export const quotaFigures = (
  nominal: QuotaFiguresRecord['nominal'],
  fields: Partial<QuotaFiguresRecord> = {},
): QuotaFiguresRecord => ({
  nominal,
  borrowing_limit: {},
  lending_limit: {},
  borrowed: ZERO,
  lent: ZERO,
  ...fields,
});

/** The shares as the service lists them: these projects on one host of 8 CPUs and 16 GiB. */
export const sharesFixture = (projects: ProjectShareRecord[]): ShareList => ({
  half_life_seconds: 3600,
  capacity: { cpus: 8, memory_bytes: 16 * GIB, gpus: 0, jobs: 16 },
  projects,
});
