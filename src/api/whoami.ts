import { successEnvelope, whoAmISchema, type WhoAmI } from '../../contract';
import { apiRequest } from './client';
import { optional } from './jobs';

/** Extension: the key's project and the service's version; null when not offered. */
export function whoAmI(): Promise<WhoAmI | null> {
  return optional(
    async () => (await apiRequest('GET', '/v1/client/whoami', successEnvelope(whoAmISchema))).data,
  );
}
