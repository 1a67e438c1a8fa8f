import { Alert } from '@mantine/core';
import { isApiError } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';

/**
 * Why the last submit did not go through: the form's own check, the service's 400 (its parts
 * that name no field of the form, or a pointer to the fields it marked), or any other failure.
 */
export function SubmitProblems({
  formProblem,
  serverProblems,
  error,
}: {
  formProblem: string | undefined;
  serverProblems: string[];
  error: Error | null;
}) {
  const refused = isApiError(error) && error.status === 400;
  return (
    <>
      {formProblem && (
        <Alert color="red" title="Fix the payload">
          {formProblem}
        </Alert>
      )}
      {refused && (
        <Alert color="red" title="The service refused the job" role="alert">
          {serverProblems.length > 0 ? serverProblems.join('; ') : 'See the highlighted fields.'}
        </Alert>
      )}
      {error && !refused && <ErrorAlert error={error} title="The job was not submitted" />}
    </>
  );
}
