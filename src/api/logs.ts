import { queryOptions } from '@tanstack/react-query';
import { isFinalState, type JobRecord } from '../../contract';
import { getJobLogs, type JobLogsPage, type LogLine } from './jobs';
import { jobKeys } from './keys';

/** What the console holds of a job's output, grown by each read while the job runs. */
export interface FollowedLogs {
  lines: LogLine[];
  /** The service kept only the end, or the console dropped the oldest lines past its cap. */
  truncated: boolean;
  /** Where the next read starts; null when the service gives no cursor (it re-sends all). */
  cursor: string | null;
  /** The service gives each line its stream and time. */
  timed: boolean;
}

/** Lines held in the page at most: a job printing for hours must not take the tab down. */
export const MAX_LOG_LINES = 100_000;

/** A service that sends only text: its lines, without time or stream. */
const linesOfText = (text: string): LogLine[] =>
  (text.endsWith('\n') ? text.slice(0, -1) : text)
    .split('\n')
    .filter((line, index, all) => line !== '' || all.length > 1)
    .map((line) => ({ stream: 'stdout', at: null, text: line }));

export function mergeLogs(shown: FollowedLogs | undefined, page: JobLogsPage): FollowedLogs {
  if (!page.lines) {
    return { lines: linesOfText(page.text), truncated: page.truncated, cursor: null, timed: false };
  }
  const appended = shown?.cursor ? [...shown.lines, ...page.lines] : page.lines;
  const over = appended.length - MAX_LOG_LINES;
  return {
    lines: over > 0 ? appended.slice(over) : appended,
    truncated: page.truncated || over > 0 || Boolean(shown?.cursor && shown.truncated),
    cursor: page.next_since ?? shown?.cursor ?? null,
    timed: true,
  };
}

/** Output exists once a container was started; a job that never ran has none. */
export const mayHaveLogs = (job: JobRecord) =>
  job.state === 'running' || job.state === 'cancelling' || isFinalState(job.state);

/**
 * The job's output, read while it runs every `pollMs` from where the last read stopped, and
 * once more when it ends (the caller invalidates on that change); null when not offered.
 */
export function jobLogsQuery(job: JobRecord, pollMs: number) {
  const running = !isFinalState(job.state);
  return queryOptions({
    queryKey: jobKeys.logs(job.id),
    queryFn: async ({ client, queryKey }) => {
      const shown = client.getQueryData<FollowedLogs | null>(queryKey) ?? undefined;
      const page = await getJobLogs(job.id, shown?.cursor ?? undefined);
      return page === null ? null : mergeLogs(shown, page);
    },
    enabled: mayHaveLogs(job),
    refetchInterval: running ? pollMs : false,
    staleTime: running ? 0 : Infinity,
    // Comparing a hundred thousand lines on each read to keep references is the cost to avoid.
    structuralSharing: false,
    retry: false,
  });
}
