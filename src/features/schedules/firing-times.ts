import { dayjs, formatDuration } from '../../lib/time';

/** Within this long, a firing reads as a countdown ("in 0:04"); further off, "in 3 hours". */
const COUNTDOWN_MS = 60 * 60 * 1000;

/** How long until a next firing; "due now" once its time passed and the list is not read again yet. */
export function untilFiring(iso: string, now: number): string {
  const left = Date.parse(iso) - now;
  if (left <= 0) return 'due now';
  return left < COUNTDOWN_MS ? `in ${formatDuration(left)}` : dayjs(iso).from(now);
}
