import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  schedulesAnswerSchema,
  scheduleSchema,
  successEnvelope,
  type Schedule,
  scheduleOperations,
} from '../../contract';
import { requestOperation } from './client';
import { listRefetchInterval, type StreamStatus } from './events';
import { optional } from './jobs';
import { scheduleKeys } from './keys';

/** Extension: the project's recurring schedules with their firings; null when not offered. */
export function listSchedules(): Promise<Schedule[] | null> {
  return optional(
    async () =>
      (
        await requestOperation(
          scheduleOperations.listSchedules,
          successEnvelope(schedulesAnswerSchema),
        )
      ).data.items,
  );
}

/** Pause: the schedule fires no more until resumed. An empty reason is sent as none. */
export async function pauseSchedule(name: string, reason?: string): Promise<Schedule> {
  const body = reason?.trim() ? { reason: reason.trim() } : {};
  return (
    await requestOperation(scheduleOperations.pauseSchedule, successEnvelope(scheduleSchema), {
      params: { name },
      body,
    })
  ).data;
}

export async function resumeSchedule(name: string): Promise<Schedule> {
  return (
    await requestOperation(scheduleOperations.resumeSchedule, successEnvelope(scheduleSchema), {
      params: { name },
    })
  ).data;
}

/** A firing is recorded a moment after its time: read then, not on the dot. */
const FIRING_SETTLE_MS = 1000;
/** However often a schedule fires, the page reads the list at most once per this long for it. */
export const MIN_SCHEDULE_REFRESH_MS = 5000;
/**
 * A firing days away is not waited for: a timer past 2^31 - 1 ms fires at once, and a read a
 * minute costs nothing.
 */
export const MAX_SCHEDULE_REFRESH_MS = 60_000;

/**
 * When to read the list again: as the lists do (polled only while the event stream is not live,
 * the stream bringing the firings' jobs meanwhile), and just after the earliest next firing of
 * an active schedule (a minute at most), since a firing that submits no job (skipped) sends no
 * event. False: never.
 */
export function scheduleRefetchDelay(
  schedules: Schedule[] | null | undefined,
  stream: StreamStatus,
  now: number,
): number | false {
  const poll = listRefetchInterval(stream);
  const firings = (schedules ?? [])
    .filter((schedule) => !schedule.paused)
    .flatMap((schedule) => schedule.next_firings.slice(0, 1).map((iso) => Date.parse(iso)));
  if (firings.length === 0) return poll;
  const untilFiring = Math.min(
    MAX_SCHEDULE_REFRESH_MS,
    Math.max(MIN_SCHEDULE_REFRESH_MS, Math.min(...firings) - now + FIRING_SETTLE_MS),
  );
  return poll === false ? untilFiring : Math.min(poll, untilFiring);
}

/** The project's schedules (extension), kept current the way the queue counts are. */
export function scheduleListQuery(stream: StreamStatus) {
  return queryOptions({
    queryKey: scheduleKeys.list(),
    queryFn: listSchedules,
    refetchInterval: (query) => scheduleRefetchDelay(query.state.data, stream, Date.now()),
    retry: false,
  });
}

/** The list shows the schedule as the service answered it: no second read after a change. */
function usePutSchedule() {
  const queryClient = useQueryClient();
  return (changed: Schedule) =>
    queryClient.setQueryData<Schedule[] | null>(scheduleKeys.list(), (shown) =>
      shown?.map((schedule) => (schedule.name === changed.name ? changed : schedule)),
    );
}

export function usePauseSchedule() {
  const put = usePutSchedule();
  return useMutation({
    mutationFn: ({ name, reason }: { name: string; reason?: string }) =>
      pauseSchedule(name, reason),
    onSuccess: put,
  });
}

export function useResumeSchedule() {
  const put = usePutSchedule();
  return useMutation({ mutationFn: resumeSchedule, onSuccess: put });
}
