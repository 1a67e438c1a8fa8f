import type { JobListItem } from '../../../contract';
import type { TableViewLink } from '../../api/views';
import { shortId, type IdInput } from '../../lib/short-id';

/** One choice of the palette: where it goes, under which heading. */
export interface PaletteResult {
  key: string;
  group: 'Jobs' | 'Queues' | 'Views';
  label: string;
  detail?: string;
  to: string;
}

/** What the palette has to choose from for the text typed. */
export interface PaletteSources {
  text: string;
  input: IdInput;
  /** Jobs the service found by the short id or the name; null while unknown or unavailable. */
  jobs: readonly JobListItem[] | null;
  queues: readonly string[];
  views: readonly (TableViewLink & { scope: 'project' | 'browser' })[];
}

const MAX_PER_GROUP = 8;
const jobPage = (id: string) => `/jobs/${encodeURIComponent(id)}`;
const contains = (name: string, text: string) => name.toLowerCase().includes(text.toLowerCase());

/**
 * The choices, jobs first: a whole id opens its job without a read (any service has Job Detail);
 * a short id lists every job whose id ends with it, so an ambiguous one shows its matches.
 * Queues and views match anywhere in their name; an empty text lists them all.
 */
export function paletteResults(sources: PaletteSources): PaletteResult[] {
  const text = sources.text.trim();
  const jobs: PaletteResult[] =
    sources.input?.kind === 'whole'
      ? [
          {
            key: `job:${sources.input.id}`,
            group: 'Jobs',
            label: shortId(sources.input.id),
            detail: 'job',
            to: jobPage(sources.input.id),
          },
        ]
      : (sources.jobs ?? []).map((job) => ({
          key: `job:${job.id}`,
          group: 'Jobs',
          label: job.name,
          detail: `${shortId(job.id)} · ${job.state}`,
          to: jobPage(job.id),
        }));
  const queues: PaletteResult[] = sources.queues
    .filter((queue) => contains(queue, text))
    .map((queue) => ({
      key: `queue:${queue}`,
      group: 'Queues',
      label: queue,
      detail: 'jobs of the queue',
      to: `/jobs?${new URLSearchParams({ queue })}`,
    }));
  const views: PaletteResult[] = sources.views
    .filter((view) => contains(view.name, text))
    .map((view) => ({
      key: `view:${view.scope}:${view.name}`,
      group: 'Views',
      label: view.name,
      detail: view.scope === 'project' ? "the project's view" : 'saved in this browser',
      to: `/jobs?${view.search}`,
    }));
  return [jobs, queues, views].flatMap((group) => group.slice(0, MAX_PER_GROUP));
}
