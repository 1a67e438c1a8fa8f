import type { z } from 'zod';
import { retryStrategySchema, submitJobSchema } from '../../contract';

/**
 * Job Submit's body as the console sends it: the contract's, plus the retry strategy (extension,
 * `retry`). The contract's schema gains that field with the service's side of retries; extending
 * it again here then changes nothing.
 */
export const submitRequestSchema = submitJobSchema.extend({
  retry: retryStrategySchema.optional(),
});
export type SubmitRequest = z.infer<typeof submitRequestSchema>;
