import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(utc);
dayjs.extend(relativeTime);

export function formatTime(iso: string, zone: 'local' | 'utc'): string {
  const time = dayjs(iso);
  return zone === 'utc'
    ? time.utc().format('YYYY-MM-DD HH:mm:ss.SSS [UTC]')
    : time.format('YYYY-MM-DD HH:mm:ss');
}

/** 0:07, 1:02:03: a live timer's reading. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}`
    : `${minutes}:${seconds}`;
}

const PERIOD_UNITS = [
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
] as const;

/** 14 days, 12 hours, 90 seconds: a period in the largest unit it is a whole number of. */
export function formatPeriod(seconds: number): string {
  const [unit, size] = PERIOD_UNITS.find(([, size]) => seconds >= size && seconds % size === 0) ?? [
    'second',
    1,
  ];
  const count = seconds / size;
  return `${count.toLocaleString('en')} ${unit}${count === 1 ? '' : 's'}`;
}

/** Finished − started, or the time so far while it runs; null before it started. */
export function durationMs(
  job: { started_at: string | null; finished_at: string | null },
  now: number,
): number | null {
  if (!job.started_at) return null;
  const end = job.finished_at ? Date.parse(job.finished_at) : now;
  return end - Date.parse(job.started_at);
}

export { dayjs };

/** 12 s ago, 4 min ago, 3 h ago, 2 d ago: "ago" in a table's narrow column. */
export function shortAgo(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

const SPAN_UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
] as const;

/** 40 ms, 2.3 s, 4.5 min, 1.2 h: a duration read at a glance, such as a percentile. */
export function formatSpan(ms: number): string {
  const found = SPAN_UNITS.find(([, size]) => ms >= size);
  if (!found) return `${Math.round(ms)} ms`;
  return `${Number((ms / found[1]).toFixed(1))} ${found[0]}`;
}

/** 64 MiB, 1.5 GiB: a memory limit as people write it. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** 10:00:01.250: a log line's time, to the millisecond. */
export function formatClock(iso: string, zone: 'local' | 'utc'): string {
  const time = dayjs(iso);
  return (zone === 'utc' ? time.utc() : time).format('HH:mm:ss.SSS');
}
