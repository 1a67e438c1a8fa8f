import { z } from 'zod';
import {
  auditOperations,
  hostOperations,
  bulkActionOperations,
  definitionOperations,
  eventOperations,
  identityOperations,
  jobOperations,
  keyOperations,
  memberOperations,
  queueOperations,
  scheduleOperations,
  shareOperations,
  trendOperations,
  viewOperations,
  webhookOperations,
} from '../../contract';
import { apiRequest, isApiError, streamHeaders } from './client';
import type { Capabilities } from './capabilities';

const EXTENSION_PATHS = {
  queues: queueOperations.listQueues.path,
  definitions: definitionOperations.listDefinitions.path,
  identity: identityOperations.whoAmI.path,
  jobList: jobOperations.listJobs.path,
  events: eventOperations.streamEvents.path,
  logs: jobOperations.getJobLogs.path,
  execution: jobOperations.getJobExecution.path,
  transitions: jobOperations.getJobTransitions.path,
  attempts: jobOperations.getJobAttempts.path,
  dependencies: jobOperations.getJobDependencies.path,
  arrays: jobOperations.getJobArray.path,
  schedules: scheduleOperations.listSchedules.path,
  views: viewOperations.listViews.path,
  bulk: bulkActionOperations.listBulkActions.path,
  resubmit: jobOperations.resubmitJob.path,
  webhooks: webhookOperations.listWebhooks.path,
  trends: trendOperations.queueTrends.path,
  audit: auditOperations.listAuditEvents.path,
  keys: keyOperations.listKeys.path,
  members: memberOperations.listMembers.path,
  hosts: hostOperations.listHosts.path,
  shares: shareOperations.listShares.path,
} as const;

const openApiSchema = z.object({ paths: z.record(z.string(), z.unknown()) });
const listOperationSchema = z.object({
  get: z.object({ parameters: z.array(z.object({ name: z.string() })).optional() }),
});

/** True unless the service answered that the path does not exist. */
async function answers(path: string): Promise<boolean> {
  try {
    await apiRequest('GET', path, z.unknown());
    return true;
  } catch (error) {
    return !(isApiError(error) && (error.status === 404 || error.status === 405));
  }
}

/** The event stream answers with headers and then stays open: read the status, then hang up. */
async function streams(path: string): Promise<boolean> {
  const abort = new AbortController();
  try {
    const response = await fetch(path, { signal: abort.signal, headers: streamHeaders(path) });
    return response.status !== 404 && response.status !== 405;
  } catch {
    return false;
  } finally {
    abort.abort();
  }
}

/**
 * Reads the OpenAPI document when the service publishes one; otherwise probes the list
 * endpoints (a 404 or 405 means absent). A probe cannot tell a missing per-job endpoint from a
 * missing job, so those are assumed to come with the job list (and each read still takes its
 * own 404 as "not offered"); a service that lists nothing is treated as the spec's three only.
 */
export async function detectCapabilities(): Promise<Capabilities> {
  const document = await apiRequest('GET', '/v1/openapi.json', openApiSchema).catch(() => null);
  if (document) {
    const has = (path: string) => path in document.paths;
    const listParameters = listOperationSchema.safeParse(document.paths[EXTENSION_PATHS.jobList])
      .data?.get.parameters;
    const listTakes = (name: string) => listParameters?.some((p) => p.name === name) ?? false;
    return {
      source: 'openapi',
      queues: has(EXTENSION_PATHS.queues),
      definitions: has(EXTENSION_PATHS.definitions),
      identity: has(EXTENSION_PATHS.identity),
      jobList: has(EXTENSION_PATHS.jobList),
      events: has(EXTENSION_PATHS.events),
      logs: has(EXTENSION_PATHS.logs),
      execution: has(EXTENSION_PATHS.execution),
      transitions: has(EXTENSION_PATHS.transitions),
      attempts: has(EXTENSION_PATHS.attempts),
      dependencies: has(EXTENSION_PATHS.dependencies),
      arrays: has(EXTENSION_PATHS.arrays),
      schedules: has(EXTENSION_PATHS.schedules),
      views: has(EXTENSION_PATHS.views),
      bulk: has(EXTENSION_PATHS.bulk),
      resubmit: has(EXTENSION_PATHS.resubmit),
      webhooks: has(EXTENSION_PATHS.webhooks),
      trends: has(EXTENSION_PATHS.trends),
      audit: has(EXTENSION_PATHS.audit),
      keys: has(EXTENSION_PATHS.keys),
      members: has(EXTENSION_PATHS.members),
      hosts: has(EXTENSION_PATHS.hosts),
      shares: has(EXTENSION_PATHS.shares),
      labels: listTakes('label'),
      listSort: listTakes('sort'),
      endedFilter: listTakes('ended_after'),
    };
  }
  const [queues, jobList, events] = await Promise.all([
    answers(EXTENSION_PATHS.queues),
    answers(`${EXTENSION_PATHS.jobList}?limit=1`),
    streams(EXTENSION_PATHS.events),
  ]);
  return {
    source: 'probe',
    queues,
    definitions: false,
    identity: false,
    jobList,
    events,
    logs: jobList,
    execution: jobList,
    transitions: jobList,
    attempts: jobList,
    dependencies: jobList,
    arrays: jobList,
    schedules: false,
    labels: false,
    listSort: false,
    endedFilter: false,
    views: false,
    bulk: false,
    resubmit: false,
    webhooks: false,
    trends: false,
    audit: false,
    keys: false,
    members: false,
    hosts: false,
    shares: false,
  };
}
