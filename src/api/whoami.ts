import { successEnvelope, whoAmISchema, type WhoAmI, identityOperations } from '../../contract';
import { requestOperation } from './client';
import { optional } from './jobs';

/** Extension: the key's project and the service's version; null when not offered. */
export function whoAmI(): Promise<WhoAmI | null> {
  return optional(
    async () =>
      (await requestOperation(identityOperations.whoAmI, successEnvelope(whoAmISchema))).data,
  );
}
