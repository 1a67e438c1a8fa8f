import { SLOT_STATES } from '../../contract';
import { hostsForRead, requestOf, type HostCapacity, type RequestFallback } from './capacity';
import type { Job } from './model';
import { NO_RESOURCES, plus, type Host, type Resources } from './placement';
import type { JobStore } from './ports';

/** A host with what Jobdeck's jobs hold of it: every project's summed, the caller's listed. */
export interface HostView {
  host: Host;
  used: Resources;
  jobs: { job: Job; resources: Resources }[];
  otherJobs: number;
}

export interface HostsView {
  /** False where the engine reports no hosts: slots alone limit jobs. */
  placement: boolean;
  items: HostView[];
}

/**
 * The engine's hosts (503 while it is away) by name, each with the jobs holding a slot that were
 * placed on it. Another project's jobs are counted in what is used, never named.
 */
export async function readHosts(
  parts: {
    store: Pick<JobStore, 'jobsInStates'>;
    capacity: HostCapacity;
    fallback: RequestFallback;
  },
  project: string,
): Promise<HostsView> {
  const engine = await hostsForRead(parts.capacity);
  if (!engine) return { placement: false, items: [] };
  const placed = (await parts.store.jobsInStates(SLOT_STATES)).filter((j) => j.host !== null);
  const items = [...engine.hosts]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((host) => {
      const view: HostView = { host, used: NO_RESOURCES, jobs: [], otherJobs: 0 };
      for (const job of placed.filter((j) => j.host === host.id)) {
        const resources = requestOf(job, parts.fallback);
        view.used = plus(view.used, resources);
        if (job.project === project) view.jobs.push({ job, resources });
        else view.otherJobs += 1;
      }
      return view;
    });
  return { placement: true, items };
}
