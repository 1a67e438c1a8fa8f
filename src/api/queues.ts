import { queueListSchema, successEnvelope, type QueueSummary } from '../../contract';
import { apiRequest } from './client';
import { optional } from './jobs';

/** Extension: the project's queues with their jobs counted by state; null when not offered. */
export function listQueues(): Promise<QueueSummary[] | null> {
  return optional(
    async () =>
      (await apiRequest('GET', '/v1/client/queues', successEnvelope(queueListSchema))).data.items,
  );
}
