import {
  acceptedBodySchema,
  sessionSchema,
  successEnvelope,
  type Session,
  type SignInRequest,
  signInOperations,
} from '../../contract';
import { isApiError, requestOperation } from './client';

const sessionEnvelope = successEnvelope(sessionSchema);

/** The browser's session; null from a service that has no sign-in (it answers 404). */
export async function readSession(): Promise<Session | null> {
  try {
    return (await requestOperation(signInOperations.getSession, sessionEnvelope)).data;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function signIn(request: SignInRequest): Promise<Session> {
  return (await requestOperation(signInOperations.signIn, sessionEnvelope, { body: request })).data;
}

export async function signOut(everywhere: boolean): Promise<void> {
  await requestOperation(signInOperations.signOut, acceptedBodySchema, { body: { everywhere } });
}
