import { Alert, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Permission } from '../api/permissions';

/** A page, or a part of one, for the roles that may use it; the others are told which it needs. */
export function RoleGate({
  permission,
  children,
}: {
  permission: Permission;
  children: ReactNode;
}) {
  if (permission.allowed) return children;
  if (permission.reason === null) return <Loader aria-label="Loading" />;
  return (
    <Alert color="gray" title={permission.reason}>
      Your role in this project does not include this. An admin of the project can change it.
    </Alert>
  );
}
