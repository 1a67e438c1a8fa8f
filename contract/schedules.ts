import { z } from 'zod';
import { defineOperations, errors, failure, jsonBody, ok } from './operation';
import { pauseRequestSchema } from './pause';
import { jobStateSchema } from './states';

/**
 * Extension: recurring schedules. A project's configuration declares them (a cron expression in
 * a time zone, the definition and queue each firing submits to); the API lists them with their
 * next firings and recent runs, and pauses or resumes one.
 */

/** What a firing does while the job of the previous one has not finished. */
export const SCHEDULE_OVERLAPS = ['skip', 'allow', 'cancel_previous'] as const;
export type ScheduleOverlap = (typeof SCHEDULE_OVERLAPS)[number];

/** What becomes of a firing whose time passed while no instance ran (`missed_after_seconds` late). */
export const SCHEDULE_MISSED = ['run_once', 'skip'] as const;
export type ScheduleMissed = (typeof SCHEDULE_MISSED)[number];

export const SCHEDULE_LIMITS = { recentShown: 20, nextShown: 5 } as const;

const isoTime = z.string().meta({ description: 'RFC 3339, UTC, milliseconds' });

/** One firing of a schedule: the job it submitted, or why it submitted none. */
export const scheduleFiringSchema = z.object({
  fire_at: isoTime,
  job_id: z.string().nullable(),
  job_name: z.string().nullable(),
  state: jobStateSchema.nullable().meta({ description: "The job's state now" }),
  note: z
    .string()
    .nullable()
    .meta({ description: 'Why no job was submitted, or what it did first' }),
});
export type ScheduleFiring = z.infer<typeof scheduleFiringSchema>;

export const scheduleSchema = z.object({
  name: z.string(),
  job_definition: z.string(),
  job_queue: z.string(),
  cron: z.string(),
  timezone: z.string(),
  overlap: z.enum(SCHEDULE_OVERLAPS),
  missed: z.enum(SCHEDULE_MISSED),
  paused: z.boolean(),
  paused_reason: z.string().nullable(),
  labels: z
    .record(z.string(), z.string())
    .optional()
    .meta({ description: "The labels of each firing's job ({} when none)" }),
  next_firings: z.array(isoTime).meta({
    description: `The next ${SCHEDULE_LIMITS.nextShown} times it fires (none while paused)`,
  }),
  recent: z
    .array(scheduleFiringSchema)
    .meta({ description: `The last ${SCHEDULE_LIMITS.recentShown} firings, newest first` }),
});
export type Schedule = z.infer<typeof scheduleSchema>;

export const schedulesAnswerSchema = z.object({ items: z.array(scheduleSchema) });
export type SchedulesAnswer = z.infer<typeof schedulesAnswerSchema>;

const scheduleAction = {
  method: 'post',
  role: 'admin',
  params: z.object({ name: z.string() }),
  answers: {
    200: ok(scheduleSchema.meta({ id: 'Schedule' }), 'The schedule as it is now'),
    ...errors(400, 401, 429),
    404: failure('No such schedule in this API key’s project'),
  },
} as const;

export const scheduleOperations = defineOperations({
  listSchedules: {
    id: 'listSchedules',
    method: 'get',
    path: '/v1/client/schedules',
    role: 'viewer',
    summary:
      "The project's recurring schedules with their next firings and recent runs (extension)",
    answers: { 200: ok(schedulesAnswerSchema, 'Schedules by name'), ...errors(401, 429) },
  },
  pauseSchedule: {
    ...scheduleAction,
    id: 'pauseSchedule',
    path: '/v1/client/schedules/{name}/pause',
    summary: 'Pause a schedule: it fires no more until resumed (extension)',
    body: jsonBody(pauseRequestSchema, false),
  },
  resumeSchedule: {
    ...scheduleAction,
    id: 'resumeSchedule',
    path: '/v1/client/schedules/{name}/resume',
    summary: 'Resume a paused schedule from its next firing on (extension)',
  },
});
