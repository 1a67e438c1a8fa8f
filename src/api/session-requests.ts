import {
  acceptedBodySchema,
  sessionSchema,
  successEnvelope,
  type Session,
  type SignInRequest,
} from '../../contract';
import { apiRequest, isApiError } from './client';

const sessionEnvelope = successEnvelope(sessionSchema);

/** The browser's session; null from a service that has no sign-in (it answers 404). */
export async function readSession(): Promise<Session | null> {
  try {
    return (await apiRequest('GET', '/v1/auth/session', sessionEnvelope)).data;
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

export async function signIn(request: SignInRequest): Promise<Session> {
  return (await apiRequest('POST', '/v1/auth/sign-in', sessionEnvelope, request)).data;
}

export async function signOut(everywhere: boolean): Promise<void> {
  await apiRequest('POST', '/v1/auth/sign-out', acceptedBodySchema, { everywhere });
}
