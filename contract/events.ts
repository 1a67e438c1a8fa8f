import { z } from 'zod';
import { POSITION_TOKEN } from './identifiers';
import { jobListItemSchema } from './job';

/**
 * Extension: `GET /v1/client/events` is a stream of server-sent events, one `job` event per
 * state change of a job of the project: `id` is the change's opaque position (send it back as
 * `Last-Event-ID`, or as `?since=` where a client cannot set headers, to resume after it),
 * `data` the job as a list row after the change. The stream opens with `retry:` and, when it
 * starts from now, an `id:` line alone (no event) giving the position to resume from; a comment
 * line is sent as a heartbeat when nothing happens.
 */
export const JOB_EVENT = 'job';
/**
 * Sent instead of a replay too long to be worth it (a resume from far back, or from an id the
 * service never gave): the client re-reads what it shows, and the stream goes on from now.
 */
export const RESET_EVENT = 'reset';
/** The most changes a resume replays; further back, a reset. */
export const MAX_REPLAY_CHANGES = 2000;
export const jobEventSchema = jobListItemSchema;
export type JobEvent = z.infer<typeof jobEventSchema>;

export const EVENT_ID_MESSAGE = 'must be the id of an earlier event';

/** The numeric ids of 0.1: a console open across the upgrade resumes with a reset, not a 400. */
export const RELEASE_0_1_EVENT_ID = /^\d{1,15}$/;

/** The Last-Event-ID header: an event id, or one of 0.1's. */
export const lastEventIdSchema = z
  .string()
  .regex(new RegExp(`${POSITION_TOKEN.source}|${RELEASE_0_1_EVENT_ID.source}`), EVENT_ID_MESSAGE)
  .meta({ description: 'Resume after this event' });

export const eventsQuerySchema = z.strictObject({
  /** Resume after this event id; Last-Event-ID wins when both are sent. */
  since: z.string().regex(POSITION_TOKEN, EVENT_ID_MESSAGE).optional(),
});
