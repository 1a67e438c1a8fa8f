import dayjs from 'dayjs';

/** The picker's value format, local time: what the schedule field holds. */
export const LOCAL_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The next 02:00 local time after `now`: tonight's, or tomorrow's once it has passed. */
function nextTwoAm(now: dayjs.Dayjs) {
  const today = now.startOf('day').hour(2);
  return today.isAfter(now) ? today : today.add(1, 'day');
}

/** One-click schedules, each a time computed from the moment the reader clicks. */
export const SCHEDULE_PRESETS = [
  { label: 'In 10 min', from: (now: dayjs.Dayjs) => now.add(10, 'minute') },
  { label: 'In 1 hour', from: (now: dayjs.Dayjs) => now.add(1, 'hour') },
  { label: 'Tonight 02:00', from: nextTwoAm },
] as const;
export type SchedulePreset = (typeof SCHEDULE_PRESETS)[number];

/** The preset's local time at `nowMs`, in LOCAL_FORMAT. */
export const presetLocal = (preset: SchedulePreset, nowMs: number) =>
  preset.from(dayjs(nowMs).millisecond(0)).format(LOCAL_FORMAT);

/**
 * The time of day a picked day gets (HH:mm:ss): 10 minutes from now, to the minute, or the day's
 * last minute when that is already tomorrow. Without it the picker gives the day's 00:00, past
 * for today: the job would run at once, unasked.
 */
export function pickedDayTime(nowMs: number): string {
  const now = dayjs(nowMs);
  const ahead = now.add(10, 'minute').second(0);
  return (ahead.isSame(now, 'day') ? ahead : now.endOf('day')).format('HH:mm:00');
}
