import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OperationId, Role } from '../../contract';
import { useCapabilities } from './capabilities';
import { identityQuery } from './identity';
import { serviceKeys } from './keys';

/** Whether the key or member may do an operation here; `reason` says why not, for a tooltip. */
export interface Permission {
  allowed: boolean;
  /** Null when allowed, or while the role is not known yet. */
  reason: string | null;
}

/**
 * The contract's roles of its operations, imported when first needed: the table is made of zod
 * schemas, and the shell (which asks for its navigation) must not carry zod.
 */
const roleTableQuery = queryOptions({
  queryKey: serviceKeys.roleTable(),
  queryFn: async () => {
    const [{ roleAllows }, { roleOf }] = await Promise.all([
      import('../../contract/roles'),
      import('../../contract/operations'),
    ]);
    return { roleAllows, roleOf };
  },
  staleTime: Infinity,
  gcTime: Infinity,
});

const ALLOWED: Permission = { allowed: true, reason: null };
const UNKNOWN: Permission = { allowed: false, reason: null };

export const needsRoleText = (role: Role) => `Needs the ${role} role`;

/**
 * What the current key or member may do, by the operation's name in the contract's table
 * (`cancelJob`), from whoami's role and the role the table gives it: the one
 * place the console decides. Unknown while the role is read (nothing offered meanwhile); allowed
 * where the service says nothing of roles (no whoami, or an older one): the service decides.
 */
export function useCan(operation: OperationId): Permission {
  const capabilities = useCapabilities();
  const identity = useQuery({ ...identityQuery, enabled: capabilities.data?.identity === true });
  const table = useQuery(roleTableQuery);
  if (capabilities.isError || capabilities.data?.identity === false) return ALLOWED;
  if (identity.isError || identity.data === null) return ALLOWED;
  if (!identity.data || !table.data) return UNKNOWN;
  const needed = table.data.roleOf(operation);
  if (!needed || table.data.roleAllows(identity.data.role, needed)) return ALLOWED;
  return { allowed: false, reason: needsRoleText(needed) };
}
