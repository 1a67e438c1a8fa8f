import { createHash } from 'node:crypto';
import { definitionRefOf, queueRefOf, withDefaults } from '../../contract';
import {
  Catalog,
  type DefinitionResources,
  type DefinitionSettings,
  type QueueSettings,
  type ScheduleSettings,
} from '../jobs/catalog';
import type { Amounts, Quota, QuotaSettings } from '../jobs/quotas';
import type { JobdeckConfig } from './schema';

type DefinitionConfig = JobdeckConfig['projects'][string]['definitions'][string][string];

/**
 * A definition's requests: its `resources`, else its memory limit and no CPU or GPU. Memory is
 * not shared, so a job that declares none still asks for what it may use; CPU is shared by time,
 * so jobs that never said what they need keep running side by side as before requests existed
 * (a 1-CPU limit asked as a request would run two default jobs at once on a 2-core machine). A
 * submission may ask up to `max`, else the request (CPU: up to its limit).
 */
function definitionResources(
  d: DefinitionConfig,
  defaults: JobdeckConfig['job_defaults'],
): DefinitionResources {
  const limits = { cpus: d.cpus ?? defaults.cpus, memoryBytes: d.memory ?? defaults.memory };
  const declared = d.resources ?? {};
  const request = {
    cpus: declared.cpus ?? 0,
    memoryBytes: declared.memory ?? limits.memoryBytes,
    gpus: declared.gpus ?? 0,
  };
  const max = {
    cpus: declared.max?.cpus ?? declared.cpus ?? limits.cpus,
    memoryBytes: declared.max?.memory ?? request.memoryBytes,
    gpus: declared.max?.gpus ?? request.gpus,
  };
  return { request, max, limits, declared: d.resources !== undefined };
}

type QuotaConfig = NonNullable<JobdeckConfig['projects'][string]['quota']>;
type QuotaAmountsConfig = NonNullable<QuotaConfig['borrowing_limit']>;

/** Only the dimensions set: one left out is not limited. */
const amountsOf = (a: QuotaAmountsConfig | undefined): Amounts => ({
  ...(a?.cpus !== undefined && { cpus: a.cpus }),
  ...(a?.memory !== undefined && { memoryBytes: a.memory }),
  ...(a?.gpus !== undefined && { gpus: a.gpus }),
  ...(a?.jobs !== undefined && { jobs: a.jobs }),
});

const quotaOf = (q: QuotaConfig): Quota => ({
  nominal: amountsOf(q),
  borrowingLimit: amountsOf(q.borrowing_limit),
  lendingLimit: amountsOf(q.lending_limit),
  ...(q.reclaim === 'preempt' && { reclaim: 'preempt' as const }),
});

/** Every project's and queue's quota that is set. */
function quotasOf(config: JobdeckConfig): QuotaSettings {
  const projects = new Map<string, Quota>();
  const queues = new Map<string, Quota>();
  for (const [project, settings] of Object.entries(config.projects)) {
    if (settings.quota) projects.set(project, quotaOf(settings.quota));
    for (const [name, queue] of Object.entries(settings.queues)) {
      if (queue.quota) queues.set(queueRefOf({ project, name }), quotaOf(queue.quota));
    }
  }
  return { projects, queues };
}

/** The domain's view of the configuration file. */
export function catalogFromConfig(config: JobdeckConfig): Catalog {
  const queues: QueueSettings[] = [];
  const definitions: DefinitionSettings[] = [];
  const schedules: ScheduleSettings[] = [];
  for (const [project, settings] of Object.entries(config.projects)) {
    for (const [name, queue] of Object.entries(settings.queues)) {
      queues.push({
        ref: queueRefOf({ project, name }),
        project,
        maxRunning: queue.max_running,
        maxRunningCeiling:
          queue.max_running_ceiling ?? Math.max(queue.max_running, config.max_running),
        priority: queue.priority,
        pausedAtStart: queue.paused,
        placement: queue.placement,
        weight: queue.weight,
        // undefined: not set here, so the next level's; null: forever, set here.
        keepFinishedMs:
          queue.keep_finished_jobs !== undefined
            ? queue.keep_finished_jobs
            : settings.keep_finished_jobs !== undefined
              ? settings.keep_finished_jobs
              : config.retention.keep_finished_jobs,
      });
    }
    for (const [name, schedule] of Object.entries(settings.schedules)) {
      schedules.push({
        ref: queueRefOf({ project, name }),
        project,
        name,
        definition: schedule.job_definition,
        queue: schedule.job_queue,
        cron: schedule.cron,
        timezone: schedule.timezone,
        overlap: schedule.overlap,
        missed: schedule.missed,
        missedAfterMs: schedule.missed_after_seconds * 1000,
        parameters: schedule.container_cmd_parameter,
        labels: schedule.labels,
        pausedAtStart: schedule.paused,
      });
    }
    for (const [name, versions] of Object.entries(settings.definitions)) {
      for (const [version, d] of Object.entries(versions)) {
        const content = {
          image: d.image,
          command: d.command,
          parameters: d.parameters,
          env: d.env,
          timeoutSeconds: d.timeout_seconds,
          stopGraceSeconds: d.stop_grace_seconds,
          cpus: d.cpus ?? null,
          memoryBytes: d.memory ?? null,
          network: d.network,
          // Options added after 0.1 count only when declared, so a definition used before they
          // existed keeps its fingerprint (and stays valid) across the upgrade.
          ...(d.user !== undefined && { user: d.user }),
          ...(d.read_only_root !== undefined && { readOnlyRootfs: d.read_only_root }),
          ...(d.placement !== undefined && { placement: d.placement }),
          ...(d.retry !== undefined && { retry: d.retry }),
          ...(d.resources !== undefined && { resources: d.resources }),
        };
        definitions.push({
          ref: definitionRefOf({ project, name, version }),
          project,
          name,
          version,
          image: content.image,
          command: content.command,
          parameters: content.parameters,
          env: content.env,
          timeoutSeconds: content.timeoutSeconds,
          stopGraceSeconds: content.stopGraceSeconds,
          cpus: content.cpus,
          memoryBytes: content.memoryBytes,
          resources: definitionResources(d, config.job_defaults),
          network: content.network,
          runOptions: {
            user: d.user ?? null,
            readOnlyRootfs: d.read_only_root ?? false,
            placement: d.placement ?? [],
          },
          retry: d.retry ? withDefaults(d.retry) : null,
          fingerprint: createHash('sha256').update(JSON.stringify(content)).digest('hex'),
        });
      }
    }
  }
  return new Catalog(queues, definitions, config.max_running, schedules, {
    halfLifeMs: config.fair_share.half_life_seconds * 1000,
    projectWeights: new Map(Object.entries(config.projects).map(([code, p]) => [code, p.weight])),
    quotas: quotasOf(config),
  });
}
