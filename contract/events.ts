import { z } from 'zod';
import { defineOperations, errors, failure } from './operation';
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

export const eventOperations = defineOperations({
  streamEvents: {
    id: 'streamEvents',
    method: 'get',
    path: '/v1/client/events',
    role: 'viewer',
    summary: "Server-sent events of the project's state changes (extension)",
    description: `One \`${JOB_EVENT}\` event per state change: \`id\` is an opaque token for the change's position (valid for this project only), \`data\` a JobEvent (the job as a list row after the change). Resume with the \`Last-Event-ID\` header (or \`since\`; the header wins). The stream opens with \`retry:\` and, when it starts from now, a lone \`id:\` line with the position to resume from; a comment line is a heartbeat. A few streams per API key at once; more are a 429.`,
    query: eventsQuerySchema,
    headers: z.object({ 'last-event-id': lastEventIdSchema.optional() }),
    // Nothing JSON refers to the event's data, so its schema is a component of its own.
    components: { JobEvent: jobEventSchema },
    answers: {
      200: {
        description:
          "An endless text/event-stream; each event's data is a JobEvent (#/components/schemas/JobEvent)",
        content: {
          'text/event-stream': {
            schema: z.string().meta({
              description: `Frames of \`id: <seq>\\nevent: ${JOB_EVENT}\\ndata: <JobEvent as JSON>\\n\\n\``,
              example: `id: 42\nevent: ${JOB_EVENT}\ndata: {"id":"…","state":"running",…}\n\n`,
            }),
          },
        },
      },
      ...errors(400, 401),
      429: failure('Rate limit, or too many event streams open for this API key'),
    },
  },
});
