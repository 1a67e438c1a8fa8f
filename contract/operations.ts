import { jobOperations } from './job-operations';
import type { Operation } from './operation';

/**
 * Every HTTP operation of the service, each feature's declarations in turn: the OpenAPI document
 * lists them in this order, the service registers a route for each and no other, and the role
 * table below is read from them. A new operation is a row in its feature's declarations.
 */
export const OPERATIONS: readonly Operation[] = [jobOperations].flatMap((feature) =>
  Object.values(feature),
);
