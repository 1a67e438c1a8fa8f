import type { BulkFilter, JobState, TrendRange } from '../../contract';
import type { AuditFilter } from './audit';
import type { JobFilter } from './jobs';

/**
 * Query keys live here and only here, each level built from the one above it (Prefect's
 * factories): invalidating `jobKeys.lists()` reaches every page of every filter, `detail(id)`
 * the job and everything read about it.
 */
export const jobKeys = {
  all: ['jobs'] as const,
  lists: () => [...jobKeys.all, 'list'] as const,
  list: (filter: JobFilter, cursor: string | undefined) =>
    [...jobKeys.lists(), { filter, cursor: cursor ?? null }] as const,
  /** Jobs found by a short id or a name prefix (the command palette). */
  search: (by: { end: string } | { name: string }) => [...jobKeys.all, 'search', by] as const,
  details: () => [...jobKeys.all, 'detail'] as const,
  detail: (id: string) => [...jobKeys.details(), id] as const,
  logs: (id: string) => [...jobKeys.detail(id), 'logs'] as const,
  /** The output followed on the page: of the attempt the job is on, null without retries. */
  followedLogs: (id: string, attempt: number | null) => [...jobKeys.logs(id), attempt] as const,
  /** The history changes with the job: one entry per version of the record. */
  transitions: (id: string, version: string | null) =>
    [...jobKeys.detail(id), 'transitions', version] as const,
  execution: (id: string, state: string) => [...jobKeys.detail(id), 'execution', state] as const,
  /** Its attempts change with the job: read again when the record changes. */
  attempts: (id: string, version: string | null) =>
    [...jobKeys.detail(id), 'attempts', version] as const,
  /** What it waits for and what waits for it: every version of the record's answer. */
  dependenciesOf: (id: string) => [...jobKeys.detail(id), 'dependencies'] as const,
  /** Read again when the record changes, as its attempts are. */
  dependencies: (id: string, version: string | null) =>
    [...jobKeys.dependenciesOf(id), version] as const,
  /** An ended attempt's output: kept as it was when the attempt ended. */
  attemptLogs: (id: string, attempt: number) =>
    [...jobKeys.detail(id), 'attempt-logs', attempt] as const,
  /** What it ran, read once to submit it again. */
  resubmitSource: (id: string) => [...jobKeys.detail(id), 'resubmit-source'] as const,
  /**
   * Arrays' children are lists like the jobs': a cancel of any job may change one (its parent's),
   * so they sit beside the lists, where a change reaches them all, not under each parent.
   */
  arrays: () => [...jobKeys.all, 'array'] as const,
  array: (id: string) => [...jobKeys.arrays(), id] as const,
  /** The children in these states (all when empty), each page loaded after the first. */
  arrayChildren: (id: string, states: readonly JobState[]) =>
    [...jobKeys.array(id), { states }] as const,
};

export const queueKeys = {
  all: ['queues'] as const,
  list: () => [...queueKeys.all, 'list'] as const,
};

export const trendKeys = {
  all: ['trends'] as const,
  queue: (queue: string, range: TrendRange) => [...trendKeys.all, queue, range] as const,
};

export const viewKeys = {
  all: ['views'] as const,
  list: () => [...viewKeys.all, 'list'] as const,
};

export const bulkKeys = {
  all: ['bulk-actions'] as const,
  list: () => [...bulkKeys.all, 'list'] as const,
  plan: (filter: BulkFilter) => [...bulkKeys.all, 'plan', filter] as const,
  action: (id: string) => [...bulkKeys.all, 'action', id] as const,
};

/** Under the jobs' key: a refresh after a bulk action reads the groups again too. */
export const failureKeys = {
  groups: (filter: BulkFilter) => [...jobKeys.all, 'failures', filter] as const,
};

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

export const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilter) => [...auditKeys.all, 'list', filter] as const,
};

export const hostKeys = {
  all: ['hosts'] as const,
  list: () => [...hostKeys.all, 'list'] as const,
  shares: () => [...hostKeys.all, 'shares'] as const,
};

export const scheduleKeys = {
  all: ['schedules'] as const,
  list: () => [...scheduleKeys.all, 'list'] as const,
};

/** What the configuration declares: it changes only when the service restarts. */
export const catalogKeys = {
  definitions: () => ['catalog', 'definitions'] as const,
  sizing: (definition: string) => ['catalog', 'sizing', definition] as const,
};

export const serviceKeys = {
  capabilities: () => ['service', 'capabilities'] as const,
  identity: () => ['service', 'identity'] as const,
  /** Which role each operation needs: the contract's table, loaded once (not with the shell). */
  roleTable: () => ['service', 'role-table'] as const,
};

/** The browser's session: outside every project, so a switch of project keeps it. */
export const sessionKeys = {
  session: () => ['session'] as const,
};

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: () => [...apiKeyKeys.all, 'list'] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  list: () => [...memberKeys.all, 'list'] as const,
};
