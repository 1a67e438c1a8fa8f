import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  queueListSchema,
  queueSummarySchema,
  successEnvelope,
  type QueueSummary,
  queueControlOperations,
  queueOperations,
} from '../../contract';
import { requestOperation } from './client';
import { optional } from './jobs';
import { queueKeys } from './keys';

/** Extension: the project's queues with their jobs counted by state; null when not offered. */
export function listQueues(): Promise<QueueSummary[] | null> {
  return optional(
    async () =>
      (await requestOperation(queueOperations.listQueues, successEnvelope(queueListSchema))).data
        .items,
  );
}

/** Whether the service lets an operator pause a queue and change its max_running. */
export const isQueueControllable = (queue: QueueSummary) => queue.max_running_ceiling !== undefined;

const changeQueue = async (
  queue: string,
  action: keyof typeof queueControlOperations,
  body?: object,
): Promise<QueueSummary> =>
  (
    await requestOperation(queueControlOperations[action], successEnvelope(queueSummarySchema), {
      params: { queue },
      body,
    })
  ).data;

/** Pause: the queue accepts jobs and starts none until resumed. An empty reason is sent as none. */
export const pauseQueue = (queue: string, reason?: string) =>
  changeQueue(queue, 'pauseQueue', reason?.trim() ? { reason: reason.trim() } : {});
export const resumeQueue = (queue: string) => changeQueue(queue, 'resumeQueue');
/** null: back to the configured max_running. */
export const setQueueMaxRunning = (queue: string, maxRunning: number | null) =>
  changeQueue(queue, 'setQueueMaxRunning', { max_running: maxRunning });

/** The overview shows the queue as the service answered it: no second read after a change. */
function usePutQueue() {
  const queryClient = useQueryClient();
  return (changed: QueueSummary) =>
    queryClient.setQueryData<QueueSummary[] | null>(queueKeys.list(), (shown) =>
      shown?.map((queue) => (queue.queue === changed.queue ? changed : queue)),
    );
}

export function usePauseQueue() {
  const put = usePutQueue();
  return useMutation({
    mutationFn: ({ name, reason }: { name: string; reason?: string }) => pauseQueue(name, reason),
    onSuccess: put,
  });
}

export function useResumeQueue() {
  const put = usePutQueue();
  return useMutation({ mutationFn: resumeQueue, onSuccess: put });
}

export function useQueueMaxRunning() {
  const put = usePutQueue();
  return useMutation({
    mutationFn: ({ name, maxRunning }: { name: string; maxRunning: number | null }) =>
      setQueueMaxRunning(name, maxRunning),
    onSuccess: put,
  });
}
