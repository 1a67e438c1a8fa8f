import { Select, type SelectProps } from '@mantine/core';
import { ROLES, type Role } from '../../contract';

/** What each role may do, as contract/roles.ts says it: each includes the one before. */
const ROLE_WORDS: Record<Role, string> = {
  viewer: 'viewer: reads jobs, logs and queues',
  operator: 'operator: also submits and cancels',
  admin: 'admin: also queues, schedules, webhooks, keys and members',
};

const CHOICES = ROLES.map((role) => ({ value: role, label: ROLE_WORDS[role] }));

/** Picks a role; the options say what each one may do. */
export function RoleSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, 'value' | 'onChange' | 'data'> & {
  value: Role;
  onChange: (role: Role) => void;
}) {
  return (
    <Select
      {...props}
      data={CHOICES}
      value={value}
      onChange={(role) => role && onChange(role as Role)}
      allowDeselect={false}
    />
  );
}
