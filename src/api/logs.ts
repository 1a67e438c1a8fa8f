import { queryOptions } from '@tanstack/react-query';
import {
  isFinalState,
  type JobLogs,
  type JobRecord,
  type LogLine as ServiceLogLine,
} from '../../contract';
import { getJobLogs } from './jobs';
import { jobKeys } from './keys';

/** A line as the console shows it: output stored before lines were kept has no time. */
export type LogLine = Omit<ServiceLogLine, 'at'> & { at: string | null };

/** What the service kept of an ended job's output that it had to cut, of what the job printed. */
export interface KeptOutput {
  lines: number;
  totalLines: number;
  bytes: number;
  totalBytes: number;
}

/** What the console holds of a job's output, grown by each read while the job runs. */
export interface FollowedLogs {
  lines: LogLine[];
  /** The service kept only the end, or the console dropped the oldest lines past its cap. */
  truncated: boolean;
  /** How much the service kept, when it cut an ended job's output. */
  kept: KeptOutput | null;
  /** The console dropped its oldest lines past MAX_LOG_LINES. */
  capped: boolean;
  /** Where the next read starts (the service's next_since). */
  cursor: string | null;
  /** The service said nothing more will come: the job ended and every line kept is here. */
  complete: boolean;
  /** The lines carry their stream and time. */
  timed: boolean;
}

/** Lines held in the page at most: a job printing for hours must not take the tab down. */
export const MAX_LOG_LINES = 100_000;

/** Output stored as text only (jobs that ended before lines were kept): its lines, untimed. */
const linesOfText = (text: string): LogLine[] =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => ({ stream: 'stdout', at: null, text: line }));

function keptOf(page: JobLogs): KeptOutput | null {
  const { kept_lines, total_lines, kept_bytes, total_bytes } = page;
  if (kept_lines === undefined || total_lines === undefined) return null;
  if (kept_bytes === undefined || total_bytes === undefined) return null;
  return { lines: kept_lines, totalLines: total_lines, bytes: kept_bytes, totalBytes: total_bytes };
}

/** `page` added to what is shown; at most `maxLines` held, the newest. */
export function mergeLogs(
  shown: FollowedLogs | undefined,
  page: JobLogs,
  maxLines = MAX_LOG_LINES,
): FollowedLogs {
  const complete = page.next_since === null;
  const kept = keptOf(page) ?? shown?.kept ?? null;
  if (page.lines.length === 0 && page.text !== '' && !shown?.cursor) {
    return {
      lines: linesOfText(page.text),
      truncated: page.truncated,
      kept,
      capped: false,
      cursor: null,
      complete,
      timed: false,
    };
  }
  const appended = shown?.cursor ? [...shown.lines, ...page.lines] : page.lines;
  const over = appended.length - maxLines;
  const capped = over > 0 || Boolean(shown?.cursor && shown.capped);
  return {
    lines: over > 0 ? appended.slice(over) : appended,
    truncated: page.truncated || capped || Boolean(shown?.cursor && shown.truncated),
    kept,
    capped,
    cursor: page.next_since ?? shown?.cursor ?? null,
    complete,
    timed: true,
  };
}

/** All the service kept of an ended job's output, past the page's cap: for a download. */
export async function keptLogLines(id: string): Promise<LogLine[]> {
  const page = await getJobLogs(id);
  return page === null ? [] : mergeLogs(undefined, page, Infinity).lines;
}

/** Output exists once a container was started; a job that never ran has none. */
export const mayHaveLogs = (job: JobRecord) =>
  job.state === 'running' || job.state === 'cancelling' || isFinalState(job.state);

/**
 * The job's output, read while it runs every `pollMs` from where the last read stopped, and
 * once more when it ends (the caller invalidates on that change), until the service says it is
 * complete; null when not offered. A job that is retried prints anew in each attempt: its output
 * is followed per `attempt` (the one it is on), so that the next one does not append to the last.
 */
export function jobLogsQuery(job: JobRecord, pollMs: number, attempt: number | null = null) {
  const running = !isFinalState(job.state);
  return queryOptions({
    queryKey: jobKeys.followedLogs(job.id, attempt),
    queryFn: async ({ client, queryKey }) => {
      const shown = client.getQueryData<FollowedLogs | null>(queryKey) ?? undefined;
      if (shown?.complete) return shown;
      const page = await getJobLogs(job.id, shown?.cursor ?? undefined);
      if (page === null) return null;
      if (page.next_since === null && shown?.cursor && shown.truncated) {
        // The job ended, and what was left out while it ran is kept: read all of it once.
        const whole = await getJobLogs(job.id);
        return whole === null ? null : mergeLogs(undefined, whole);
      }
      return mergeLogs(shown, page);
    },
    enabled: mayHaveLogs(job),
    refetchInterval: running ? pollMs : false,
    staleTime: running ? 0 : Infinity,
    // Comparing a hundred thousand lines on each read to keep references is the cost to avoid.
    structuralSharing: false,
    retry: false,
  });
}
