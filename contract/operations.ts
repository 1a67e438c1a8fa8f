import { auditOperations } from './audit';
import { signInOperations } from './auth';
import { bulkActionOperations } from './bulk-actions';
import { definitionOperations } from './definitions';
import { eventOperations } from './events';
import { failureOperations } from './failures';
import { identityOperations } from './identity';
import { jobOperations } from './job-operations';
import { keyOperations } from './keys';
import { memberOperations } from './members';
import type { Operation } from './operation';
import { queueControlOperations, queueOperations } from './queues';
import { hostOperations } from './resources';
import type { Role } from './roles';
import { scheduleOperations } from './schedules';
import { shareOperations } from './shares';
import { trendOperations } from './trends';
import { viewOperations } from './views';
import { webhookOperations } from './webhooks';

/**
 * Every HTTP operation of the service, each feature's declarations in turn: the OpenAPI document
 * lists them in this order, the service registers a route for each and no other
 * (server/http/operation-routes.test.ts), and the role table below is read from them. A new
 * operation is one declaration in its feature's file; a new feature adds its list here.
 */
const FEATURES = [
  jobOperations,
  queueOperations,
  auditOperations,
  trendOperations,
  queueControlOperations,
  scheduleOperations,
  viewOperations,
  bulkActionOperations,
  failureOperations,
  identityOperations,
  definitionOperations,
  hostOperations,
  shareOperations,
  eventOperations,
  webhookOperations,
  keyOperations,
  memberOperations,
  signInOperations,
] as const;

export const OPERATIONS: readonly Operation[] = FEATURES.flatMap((feature) =>
  Object.values<Operation>(feature),
);

/** An operation's name in the table (its operationId), as the console names it: `cancelJob`. */
export type OperationId = KeysOf<(typeof FEATURES)[number]>;
type KeysOf<T> = T extends unknown ? keyof T : never;

const ROLE_BY_ID = new Map(OPERATIONS.map(({ id, role }) => [id, role]));

/** The role an operation needs, by its name; null for the sign-in's, which need none. */
export const roleOf = (id: OperationId): Role | null => ROLE_BY_ID.get(id) ?? null;

/**
 * The role each client operation needs, by method and documented path: reads are a viewer's;
 * submitting and cancelling (one job or a filter's) and the shared views an operator's; what
 * changes how the project runs (queues, schedules), where its data goes (webhooks, whose URLs
 * may hold tokens) and who may act (keys, members, the audit trail) an admin's.
 */
export const OPERATION_ROLES: Readonly<Record<string, Role>> = Object.fromEntries(
  OPERATIONS.flatMap(({ method, path, role }) =>
    role ? [[`${method.toUpperCase()} ${path}`, role]] : [],
  ),
);

/** The role an operation needs, by method and documented path (`/v1/client/job/{job_id}`). */
export const roleFor = (method: string, path: string): Role | undefined =>
  OPERATION_ROLES[`${method.toUpperCase()} ${path}`];
