/**
 * A cron expression in words, for the shapes most schedules take ("every 5 seconds", "every day
 * at 02:30", "weekdays at 09:00"); null for anything else, and the page shows the expression
 * alone. A full describer is a library's job: these few cover the common cases cheaply.
 */

const NICKNAMES: Record<string, string> = {
  '@yearly': 'every year on 1 January at 00:00',
  '@annually': 'every year on 1 January at 00:00',
  '@monthly': 'every month on day 1 at 00:00',
  '@weekly': 'every Sunday at 00:00',
  '@daily': 'every day at 00:00',
  '@midnight': 'every day at 00:00',
  '@hourly': 'every hour at :00',
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const isNumber = (field: string) => /^\d{1,2}$/.test(field);
const pad = (field: string) => field.padStart(2, '0');

/** "*" → 1, "*\/5" → 5; null for any other field. */
function step(field: string): number | null {
  if (field === '*') return 1;
  const match = /^\*\/(\d{1,2})$/.exec(field);
  return match ? Number(match[1]) : null;
}

const every = (count: number, unit: string) =>
  count === 1 ? `every ${unit}` : `every ${count} ${unit}s`;

/** The day part of "… at 09:00", from day of month, month and day of week; null if uncommon. */
function days(dayOfMonth: string, month: string, dayOfWeek: string): string | null {
  if (month !== '*') {
    const name = MONTHS[Number(month) - 1];
    return isNumber(dayOfMonth) && name && dayOfWeek === '*'
      ? `every year on ${Number(dayOfMonth)} ${name}`
      : null;
  }
  if (dayOfMonth === '*' && dayOfWeek === '*') return 'every day';
  if (dayOfMonth === '*' && (dayOfWeek === '1-5' || dayOfWeek === 'MON-FRI')) return 'weekdays';
  if (dayOfMonth === '*' && isNumber(dayOfWeek) && Number(dayOfWeek) <= 7)
    return `every ${DAYS[Number(dayOfWeek) % 7]}`;
  if (isNumber(dayOfMonth) && dayOfWeek === '*') return `every month on day ${Number(dayOfMonth)}`;
  return null;
}

export function cronInWords(expression: string): string | null {
  const trimmed = expression.trim();
  if (trimmed.startsWith('@')) return NICKNAMES[trimmed.toLowerCase()] ?? null;
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) return null;
  // Six fields, seconds first (as croner reads them); five mean second 0.
  const [second, minute, hour, dayOfMonth, month, dayOfWeek] = (
    fields.length === 6 ? fields : ['0', ...fields]
  ) as [string, string, string, string, string, string];
  const rest = [dayOfMonth, month, dayOfWeek] as const;
  const everyDay = rest.every((field) => field === '*');
  const secondStep = step(second);
  if (secondStep !== null && minute === '*' && hour === '*' && everyDay)
    return every(secondStep, 'second');
  if (second !== '0') return null;
  const minuteStep = step(minute);
  if (minuteStep !== null && hour === '*' && everyDay) return every(minuteStep, 'minute');
  if (!isNumber(minute)) return null;
  const hourStep = step(hour);
  if (hourStep !== null && everyDay) return `${every(hourStep, 'hour')} at :${pad(minute)}`;
  const when = days(...rest);
  if (!isNumber(hour) || when === null) return null;
  return `${when} at ${pad(hour)}:${pad(minute)}`;
}
