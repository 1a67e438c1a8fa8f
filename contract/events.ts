import { z } from 'zod';
import { jobListItemSchema } from './job';

/**
 * Extension: `GET /v1/client/events` is a stream of server-sent events, one `job` event per
 * state change of a job of the project: `id` is the change's sequence number (send it back as
 * `Last-Event-ID` to resume after it), `data` the job as a list row after the change. A comment
 * line is sent as a heartbeat when nothing happens.
 */
export const JOB_EVENT = 'job';
export const jobEventSchema = jobListItemSchema;
export type JobEvent = z.infer<typeof jobEventSchema>;
