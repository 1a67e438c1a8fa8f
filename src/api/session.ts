import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { Session, SignInRequest } from '../../contract';
import { readApiKey } from '../lib/api-key';
import { isApiError } from './api-error';
import { serviceKeys, sessionKeys } from './keys';
import { chooseProject, rememberSession } from './session-state';

// The request code (with zod and the contract's schemas) is imported when first used: the shell
// reads the session on every page, and the first page load must not carry the schemas.
const requests = () => import('./session-requests');

/** Whether anyone signs in here, who has, and their projects; re-read now and then. */
export const sessionQuery = queryOptions({
  queryKey: sessionKeys.session(),
  queryFn: async () => {
    const session = await (await requests()).readSession();
    rememberSession(session);
    return session;
  },
  staleTime: 60_000,
  retry: 1,
});

export const useSession = () => useQuery(sessionQuery);

/** Nobody has signed in where someone must, and no key typed in Settings stands in. */
export const needsSignIn = (session: Session | null | undefined): boolean =>
  session?.mode === 'sign-in' && session.user === null && !readApiKey();

/**
 * A 401 from the API may mean the session ended (expired, signed out elsewhere): read it again,
 * so the shell sends the user to sign in. With a key typed in Settings, the key was refused.
 */
export function onApiError(queryClient: QueryClient, error: unknown): void {
  if (isApiError(error) && error.status === 401 && !readApiKey())
    void queryClient.invalidateQueries({ queryKey: sessionKeys.session() });
}

/**
 * Signs in with e-mail and password; what the cache held was read without the session (or as
 * someone else), so it goes, and the new session is kept.
 */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: SignInRequest) => (await requests()).signIn(request),
    onSuccess: (session) => {
      queryClient.removeQueries();
      rememberSession(session);
      queryClient.setQueryData(sessionKeys.session(), session);
    },
  });
}

/**
 * Signs out here or on every device, then loads the sign-in page afresh: nothing read as the
 * user (cache, CSRF token, the event stream) outlives the page.
 */
export function useSignOut() {
  return useMutation({
    mutationFn: async (everywhere: boolean) => (await requests()).signOut(everywhere),
    onSuccess: () => window.location.assign('/sign-in'),
  });
}

/** What holds for the browser or the service, whichever project it works in. */
const projectFree = [sessionKeys.session(), serviceKeys.capabilities()].map((key) =>
  JSON.stringify(key),
);

/**
 * Works in another project from now on: every cached answer of the old project is dropped and
 * the queries on screen read again (the event stream starts over by itself).
 */
export function switchProject(queryClient: QueryClient, project: string): Promise<void> {
  chooseProject(project);
  return queryClient.resetQueries({
    predicate: (query) => !projectFree.includes(JSON.stringify(query.queryKey)),
  });
}
