import { RuntimeError } from '../../jobs/ports';
import { detailOf, statusOf, unavailability } from '../engine-api/errors';

/**
 * Engine errors become either "the engine is away" (retry later, blame no job) or a sentence a
 * user can act on, for the job's system_note.
 */
export function translate(
  error: unknown,
  action: string,
  context: { socketPath: string; image?: string },
): Error {
  const away = unavailability(error, context.socketPath);
  if (away) return away;
  if (action === 'create' && statusOf(error) === 404) {
    return new RuntimeError(
      `image ${context.image} is not on the container engine; build or load it there (docker image ls lists what is present)`,
    );
  }
  if (statusOf(error) === 404) {
    return new RuntimeError(`the container vanished (removed outside Jobdeck?) during ${action}`);
  }
  return new RuntimeError(
    `the container engine refused to ${action} the container: ${detailOf(error)}`,
  );
}
