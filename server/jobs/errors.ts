/** A refusal the client can act on; the HTTP layer maps the kind to a status code. */
export class JobRequestError extends Error {
  constructor(
    readonly kind: 'invalid' | 'not-found' | 'conflict' | 'unavailable' | 'unsupported',
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new JobRequestError('invalid', message);
export const notFound = (id: string) =>
  new JobRequestError('not-found', `job_id: no job "${id}" in this project`);
export const notFoundAttempt = (id: string, attempt: number) =>
  new JobRequestError(
    'not-found',
    `attempt: job "${id}" has no earlier attempt ${attempt} with output kept (the last attempt's output is at /logs)`,
  );
export const notFoundSchedule = (name: string) =>
  new JobRequestError('not-found', `name: no schedule "${name}" in this project`);
export const notFoundQueue = (ref: string) =>
  new JobRequestError('not-found', `queue: no queue "${ref}" in this project`);
export const notFoundDefinition = (ref: string) =>
  new JobRequestError('not-found', `job_definition: no definition "${ref}" in this project`);
export const conflict = (message: string) => new JobRequestError('conflict', message);
/** Something the request needs is away for a while (the engine): worth a retry. */
export const unavailable = (message: string) => new JobRequestError('unavailable', message);
