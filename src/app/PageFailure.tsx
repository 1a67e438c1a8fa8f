import { Anchor, Text, Title } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';

/** A page that failed while rendering: a fault of the console, said in words; the shell stays. */
export default function PageFailure({ error }: { error: unknown }) {
  const navigate = useNavigate();
  const location = useLocation();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div>
      <Title order={2}>This page failed</Title>
      <Text role="alert" data-testid="page-failed" mt="xs">
        {message || 'An unexpected error.'} The rest of the console still works.{' '}
        <Anchor
          component="button"
          inherit
          underline="always"
          onClick={() =>
            void navigate(location, { replace: true, state: location.state as unknown })
          }
        >
          Try again
        </Anchor>
      </Text>
    </div>
  );
}
