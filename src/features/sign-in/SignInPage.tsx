import {
  Alert,
  Button,
  Center,
  Divider,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { Session } from '../../../contract';
import { isApiError } from '../../api/client';
import { needsSignIn, useSession, useSignIn } from '../../api/session';
import { ErrorAlert } from '../../components/ErrorAlert';
import { safeReturnTo } from './return-to';

function PasswordForm({ returnTo }: { returnTo: string }) {
  const signIn = useSignIn();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { email: email.trim(), password },
      { onSuccess: () => void navigate(returnTo, { replace: true }) },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Sign in with e-mail and password">
      <Stack>
        <TextInput
          label="E-mail"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
          required
          autoFocus
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          required
        />
        {signIn.isError &&
          // The service's own words for a refusal (not recognised, too many attempts).
          (isApiError(signIn.error) && signIn.error.kind === 'http' ? (
            <Alert color="red" title="Not signed in" role="alert">
              {signIn.error.message}
            </Alert>
          ) : (
            <ErrorAlert error={signIn.error} title="Not signed in" />
          ))}
        <Button type="submit" loading={signIn.isPending}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}

function SignInMethods({ session, returnTo }: { session: Session; returnTo: string }) {
  const { password, oidc } = session.methods;
  if (!password && !oidc)
    return (
      <Alert color="yellow" title="No way to sign in is configured">
        Ask whoever runs this Jobdeck to configure local users or an identity provider.
      </Alert>
    );
  return (
    <Stack>
      {oidc && (
        // A full page navigation: the identity provider's page, then back to `returnTo`.
        <Button
          component="a"
          href={`/v1/auth/oidc/start?return_to=${encodeURIComponent(returnTo)}`}
          variant={password ? 'default' : 'filled'}
        >
          Sign in with {oidc}
        </Button>
      )}
      {oidc && password && <Divider label="or" labelPosition="center" />}
      {password && <PasswordForm returnTo={returnTo} />}
    </Stack>
  );
}

/**
 * Sign-in: e-mail and password, the identity provider, or both, as the service offers; then
 * back where the user was going (`return_to`). The provider's failures come back as `error`.
 */
export default function SignInPage() {
  const [params] = useSearchParams();
  const session = useSession();
  const returnTo = safeReturnTo(params.get('return_to'));
  const error = params.get('error');
  if (session.isPending)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  // Nobody signs in here (local mode, an older service), or someone already has.
  if (session.isSuccess && !needsSignIn(session.data)) return <Navigate to={returnTo} replace />;
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="xl" w={380} maw="100%" component="main" id="main" tabIndex={-1}>
        <Stack>
          <Title order={1} size="h2">
            Sign in to Jobdeck
          </Title>
          {error && (
            <Alert color="red" title="Not signed in" role="alert">
              {error}
            </Alert>
          )}
          {session.isError ? (
            <ErrorAlert error={session.error} title="The service cannot say how to sign in" />
          ) : (
            <SignInMethods session={session.data!} returnTo={returnTo} />
          )}
          <Text size="xs" c="dimmed">
            Each project&apos;s admins decide who may sign in, and with which role.
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
