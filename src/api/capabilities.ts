import { queryOptions, useQuery } from '@tanstack/react-query';
import { serviceKeys } from './keys';

/** What the service offers beyond the spec's three operations. */
export interface Capabilities {
  /** Where the answer came from: the OpenAPI document, or probes of the list endpoints. */
  source: 'openapi' | 'probe';
  queues: boolean;
  /** Only from the OpenAPI document: a picker is not worth a probe. */
  definitions: boolean;
  /** Whom the key acts for (`/v1/client/whoami`); only from the OpenAPI document too. */
  identity: boolean;
  jobList: boolean;
  events: boolean;
  logs: boolean;
  execution: boolean;
  transitions: boolean;
  /** Retry strategies: a job's attempts and each earlier attempt's output. */
  attempts: boolean;
  /** Dependencies between jobs: what a job waits for and what waits for it. */
  dependencies: boolean;
  /** Array jobs: a parent's children, a child's place in its array, and `array` on submit. */
  arrays: boolean;
  /** Recurring schedules, paused and resumed; only from the OpenAPI document, like definitions. */
  schedules: boolean;
  /** Labels on submit and the list's label filter; only from the OpenAPI document. */
  labels: boolean;
  /** The list sorts every matching job (`sort`); only from the OpenAPI document. */
  listSort: boolean;
  /** The list filters by when jobs ended (`ended_after`); only from the OpenAPI document. */
  endedFilter: boolean;
  /** Views of the jobs table shared by the project; only from the OpenAPI document. */
  views: boolean;
  /** Cancel every job a filter matches, in the service; only from the OpenAPI document. */
  bulk: boolean;
  /** A finished job submitted again by the service, its secrets kept there; from the OpenAPI document. */
  resubmit: boolean;
  /** Webhooks and their delivery log; only from the OpenAPI document. */
  webhooks: boolean;
  /** Jobs ended per hour and day and their waiting and run times; from the OpenAPI document. */
  trends: boolean;
  /** The project's audit trail (its admins only); from the OpenAPI document. */
  audit: boolean;
  /** The project's API keys, managed by its admins; from the OpenAPI document. */
  keys: boolean;
  /** Who may sign in to the project, with which role; from the OpenAPI document. */
  members: boolean;
  /** The engine's hosts, their capacity, use and jobs; from the OpenAPI document. */
  hosts: boolean;
  /** Each project's and queue's fair share; from the OpenAPI document. */
  shares: boolean;
}

/** Detected once per page load and kept: a service does not grow endpoints while it is open. */
export const capabilitiesQuery = queryOptions({
  queryKey: serviceKeys.capabilities(),
  // Imported when first read: the shell asks on every page, and the detection's zod and contract
  // schemas would otherwise be part of the first page load's script.
  queryFn: async () => (await import('./detect-capabilities')).detectCapabilities(),
  staleTime: Infinity,
  gcTime: Infinity,
  retry: 1,
});

export const useCapabilities = () => useQuery(capabilitiesQuery);
