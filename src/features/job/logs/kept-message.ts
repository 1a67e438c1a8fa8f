import { MAX_LOG_LINES, type FollowedLogs } from '../../../api/logs';
import { formatBytes } from '../../../lib/time';

const count = (n: number) => n.toLocaleString('en-US');

/** What of the output is shown and kept, in words; null when it is all there. */
export function keptMessage(logs: FollowedLogs): string | null {
  const parts: string[] = [];
  if (logs.kept) {
    const { lines, totalLines, bytes, totalBytes } = logs.kept;
    parts.push(
      `The service kept the last ${count(lines)} of ${count(totalLines)} lines (${formatBytes(bytes)} of ${formatBytes(totalBytes)}).`,
    );
  } else if (logs.truncated && !logs.capped) {
    parts.push(
      logs.complete
        ? 'Only the end of the output was kept.'
        : 'Earlier output is left out while the job runs; once it ends, all that was kept is shown.',
    );
  }
  if (logs.capped) {
    parts.push(
      logs.complete
        ? `The page shows the newest ${count(MAX_LOG_LINES)} lines; Download has all that was kept.`
        : `The page holds the newest ${count(MAX_LOG_LINES)} lines.`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : null;
}
