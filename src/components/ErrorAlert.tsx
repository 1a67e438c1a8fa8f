import { Alert, Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { isApiError } from '../api/client';

/** The server's message as a sentence, so text can follow it. */
const sentence = (message: string) => (/[.!?]$/.test(message) ? message : `${message}.`);

/** What went wrong with a call, in terms the user can act on. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  if (isApiError(error) && error.kind === 'network') {
    return (
      <Alert color="orange" title={title ?? 'The service cannot be reached'} role="alert">
        Check that Jobdeck is running and your network is up; the console keeps retrying.
      </Alert>
    );
  }
  if (isApiError(error) && error.status === 401) {
    return (
      <Alert color="red" title="The service refused the API key" role="alert">
        {sentence(error.message)} Set a valid key in{' '}
        <Anchor component={Link} to="/settings" inherit>
          Settings
        </Anchor>
        .
      </Alert>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title={title ?? 'Request failed'} role="alert">
      {message}
    </Alert>
  );
}
