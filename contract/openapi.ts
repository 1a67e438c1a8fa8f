import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { acceptedBodySchema, errorBodySchema, successEnvelope } from './envelope';
import {
  jobListQuerySchema,
  jobListSchema,
  jobLogsSchema,
  jobRecordSchema,
  jobTransitionsSchema,
  submitJobResultSchema,
} from './job';
import { submitJobSchema } from './submit';

/** The OpenAPI 3.1 document, generated from the same schemas the console and service use. */
export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
  });
  // zod's own metadata names the components; no prototype patching needed.
  const error = errorBodySchema.meta({ id: 'Error' });
  const record = jobRecordSchema.meta({ id: 'JobRecord' });
  const payload = submitJobSchema.meta({ id: 'JobSubmission' });
  const jobId = z.object({ job_id: z.string() });
  const json = (schema: z.ZodType, description: string) => ({
    description,
    content: { 'application/json': { schema } },
  });
  const errors = {
    400: json(error, 'Bad body or reference; the message names the field and the reason'),
    401: json(error, 'Missing, unknown or revoked API key'),
    404: json(error, 'No such job in this API key’s project'),
    429: json(error, 'Rate limit; see Retry-After'),
  };
  const security = [{ [bearer.name]: [] }];
  /** A GET of one job (or of something of one job) with the envelope around `data`. */
  const readJob = (
    operationId: string,
    path: string,
    summary: string,
    data: z.ZodType,
    description: string,
  ) =>
    registry.registerPath({
      method: 'get',
      path,
      operationId,
      summary,
      security,
      request: { params: jobId },
      responses: {
        200: json(successEnvelope(data), description),
        401: errors[401],
        404: errors[404],
        429: errors[429],
      },
    });

  registry.registerPath({
    method: 'post',
    path: '/v1/client/job',
    operationId: 'submitJob',
    summary: 'Job Submit',
    security,
    request: { body: { content: { 'application/json': { schema: payload } } } },
    responses: {
      202: json(successEnvelope(submitJobResultSchema), 'Accepted'),
      400: errors[400],
      401: errors[401],
      413: json(error, 'Body over the size limit'),
      429: errors[429],
    },
  });
  readJob('getJob', '/v1/client/job/{job_id}', 'Job Detail', record, 'The job');
  registry.registerPath({
    method: 'post',
    path: '/v1/client/job/{job_id}/cancel',
    operationId: 'cancelJob',
    summary: 'Cancel Job',
    description:
      'Waiting jobs are cancelled at once; starting and running jobs become cancelling until the container stops. Cancelling or cancelled jobs answer 202 again; completed, failed, timeout and error jobs answer 409.',
    security,
    request: { params: jobId },
    responses: {
      202: json(acceptedBodySchema, 'Cancellation accepted'),
      401: errors[401],
      404: errors[404],
      409: json(error, 'The job already ended'),
      429: errors[429],
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/client/jobs',
    operationId: 'listJobs',
    summary: 'Job list (extension), newest first',
    security,
    request: { query: jobListQuerySchema },
    responses: {
      200: json(successEnvelope(jobListSchema), 'A page of jobs'),
      400: errors[400],
      401: errors[401],
    },
  });
  readJob(
    'getJobTransitions',
    '/v1/client/job/{job_id}/transitions',
    'State history (extension)',
    jobTransitionsSchema,
    'Transitions, oldest first',
  );
  readJob(
    'getJobLogs',
    '/v1/client/job/{job_id}/logs',
    'Container output, the last bytes kept (extension)',
    jobLogsSchema,
    'Logs',
  );

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Jobdeck job client API',
      version: '1',
      description: 'Submit, inspect and cancel containerized jobs.',
      license: { name: 'UNLICENSED' },
    },
    // Where `jobdeck start` listens by default; a client of another service sets its own base URL.
    servers: [
      { url: 'http://127.0.0.1:8080', description: 'A local Jobdeck with the default port' },
    ],
  });
}
