import { z } from 'zod';
import { acceptedBodySchema } from './envelope';
import {
  jobExecutionSchema,
  jobListQuerySchema,
  jobListSchema,
  jobLogsQuerySchema,
  jobLogsSchema,
  jobRecordSchema,
  jobTransitionsSchema,
  submitJobResultSchema,
} from './job';
import { execQuerySchema } from './exec';
import { arrayAnswerSchema, arrayChildrenQuerySchema } from './arrays';
import { dependenciesAnswerSchema } from './dependencies';
import { defineOperations, errors, failure, json, jsonBody, ok } from './operation';
import { attemptLogsPathSchema, attemptsAnswerSchema } from './retry';
import { resubmitJobResultSchema, resubmitJobSchema } from './resubmit';
import { idempotencyKeySchema, submitJobSchema } from './submit';

const params = z.object({ job_id: z.string() });
/** A GET of one job, or of something of one job: the job must be in the key's project. */
const read = { method: 'get', role: 'viewer', params } as const;
const readErrors = errors(401, 404, 429);

/**
 * A job and what belongs to it: the spec's three operations and the reads of one job. Their
 * schemas live in files that import each other (job, submit, retry, dependencies, arrays), so
 * the operations are declared here, above all of them.
 */
export const jobOperations = defineOperations({
  submitJob: {
    id: 'submitJob',
    method: 'post',
    path: '/v1/client/job',
    role: 'operator',
    summary: 'Job Submit',
    headers: z.object({ 'idempotency-key': idempotencyKeySchema.optional() }),
    body: jsonBody(submitJobSchema.meta({ id: 'JobSubmission' })),
    answers: {
      202: ok(
        submitJobResultSchema,
        'Accepted; with an Idempotency-Key already used for the same request, the job it made',
      ),
      ...errors(400, 401, 429),
      409: failure('The Idempotency-Key was used for a different request within its window'),
      413: failure('Body over the size limit'),
    },
  },
  resubmitJob: {
    id: 'resubmitJob',
    method: 'post',
    path: '/v1/client/job/{job_id}/resubmit',
    role: 'operator',
    summary: 'Submit a finished job again, its sensitive values kept in the service (extension)',
    description:
      'A new job from what the job ran: definition, queue, command as run, environment, labels and an array’s size. Its sensitive values are copied sealed from the job in the service: they are never sent back or asked for. The body, optional, changes what it names; drop_env leaves variables out.',
    params,
    body: jsonBody(resubmitJobSchema.meta({ id: 'JobResubmission' }), false),
    answers: {
      202: ok(resubmitJobResultSchema, 'Accepted: the new job'),
      ...errors(400, 401, 404, 429),
      409: failure(
        'The job has not finished, or a sensitive value of it can no longer be opened (its key is gone): the message names the variable',
      ),
    },
  },
  getJob: {
    ...read,
    id: 'getJob',
    path: '/v1/client/job/{job_id}',
    summary: 'Job Detail',
    answers: { 200: ok(jobRecordSchema.meta({ id: 'JobRecord' }), 'The job'), ...readErrors },
  },
  cancelJob: {
    id: 'cancelJob',
    method: 'post',
    path: '/v1/client/job/{job_id}/cancel',
    role: 'operator',
    summary: 'Cancel Job',
    description:
      'Waiting jobs are cancelled at once; starting and running jobs become cancelling until the container stops. Cancelling or cancelled jobs answer 202 again; completed, failed, timeout and error jobs answer 409.',
    params,
    answers: {
      202: json(acceptedBodySchema, 'Cancellation accepted'),
      ...readErrors,
      409: failure('The job already ended'),
    },
  },
  listJobs: {
    id: 'listJobs',
    method: 'get',
    path: '/v1/client/jobs',
    role: 'viewer',
    summary: 'Job list (extension), newest first',
    query: jobListQuerySchema,
    answers: { 200: ok(jobListSchema, 'A page of jobs'), ...errors(400, 401, 429) },
  },
  getJobTransitions: {
    ...read,
    id: 'getJobTransitions',
    path: '/v1/client/job/{job_id}/transitions',
    summary: 'State history (extension)',
    answers: { 200: ok(jobTransitionsSchema, 'Transitions, oldest first'), ...readErrors },
  },
  getJobLogs: {
    ...read,
    id: 'getJobLogs',
    path: '/v1/client/job/{job_id}/logs',
    summary: 'Container output line by line, live while the job runs (extension)',
    query: jobLogsQuerySchema,
    answers: {
      200: ok(
        jobLogsSchema,
        'Output after `since`: while the job runs, its last log_tail_bytes from the engine; once it ended, all that was kept (the newest job_output.max_bytes_per_job), with kept_lines and total_lines when some was cut. Follow a job by sending next_since back as `since` until it is null.',
      ),
      ...errors(400, 401, 404, 429),
    },
  },
  execInJob: {
    id: 'execInJob',
    method: 'get',
    path: '/v1/client/job/{job_id}/exec',
    role: 'operator',
    params,
    summary: 'Run a command in a running job, over a WebSocket (extension)',
    description:
      'A WebSocket upgrade (Connection: Upgrade, Upgrade: websocket), where the project enables it (`projects.<project>.exec: true`) and the engine can (local docker). Binary frames from the client are the command’s stdin; text frames are {"type":"resize","cols":N,"rows":N} or {"type":"eof"}. Binary frames from the service are its output, the first byte naming the stream (1 stdout, 2 stderr); then one text frame, {"type":"exit","exit_code":N} or {"type":"closed","message":"…"} (the job ended), and the close. A console session proves itself with its csrf_token as a second subprotocol, jobdeck.csrf.<token>, beside jobdeck.exec. Each session is in the audit trail (job.exec, with the command; never what is typed). docs/guides/exec.md',
    query: execQuerySchema,
    answers: {
      101: {
        description: 'Switching Protocols: the session runs until the command or the job ends',
      },
      ...errors(400, 401, 404, 429),
      403: failure('The role is below operator, or the project does not enable exec'),
      409: failure('The job is not running'),
      426: failure('Not a WebSocket upgrade'),
      501: failure('The engine cannot run a command in a job (only the local docker engine can)'),
    },
  },
  getJobAttempts: {
    ...read,
    id: 'getJobAttempts',
    path: '/v1/client/job/{job_id}/attempts',
    summary: 'Attempts of a job with a retry strategy (extension)',
    answers: {
      200: ok(
        attemptsAnswerSchema.meta({ id: 'JobAttempts' }),
        'The attempt it is on, its strategy, when a waiting job tries again, and each attempt that ended (exit code, reason, node, times)',
      ),
      ...readErrors,
    },
  },
  getJobDependencies: {
    ...read,
    id: 'getJobDependencies',
    path: '/v1/client/job/{job_id}/dependencies',
    summary: 'What a job waits for and what waits for it (extension)',
    answers: {
      200: ok(
        dependenciesAnswerSchema.meta({ id: 'JobDependencies' }),
        'The jobs named in its depends_on with their states and whether each dependency is met, waiting or can no longer be met; and the jobs whose depends_on names it',
      ),
      ...readErrors,
    },
  },
  getJobArray: {
    ...read,
    id: 'getJobArray',
    path: '/v1/client/job/{job_id}/array',
    summary: "An array job's children, or a child's place in its array (extension)",
    query: arrayChildrenQuerySchema,
    answers: {
      200: ok(
        arrayAnswerSchema.meta({ id: 'JobArray' }),
        'For a parent: its size, its children counted by state and a page of them by index (filtered by `state`); for a child: its parent and index; for any other job: nulls',
      ),
      ...errors(400, 401, 404, 429),
    },
  },
  getJobAttemptLogs: {
    ...read,
    id: 'getJobAttemptLogs',
    path: '/v1/client/job/{job_id}/attempts/{attempt}/logs',
    summary: "An earlier attempt's output (extension)",
    params: attemptLogsPathSchema,
    answers: {
      200: ok(jobLogsSchema, 'The newest 64 KiB of its output, kept when another attempt followed'),
      ...errors(400, 401, 429),
      404: failure('No such job, or no earlier attempt of that number'),
    },
  },
  getJobExecution: {
    ...read,
    id: 'getJobExecution',
    path: '/v1/client/job/{job_id}/execution',
    summary: 'What ran and where (extension)',
    answers: {
      200: ok(
        jobExecutionSchema.meta({ id: 'JobExecution' }),
        'The resolved command, image, environment names (sensitive values never shown), limits, exit code, times and place',
      ),
      ...readErrors,
    },
  },
});
