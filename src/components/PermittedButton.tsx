import { Button, Tooltip, type ButtonProps } from '@mantine/core';
import type { MouseEvent, ReactNode } from 'react';
import type { Permission } from '../api/permissions';

/**
 * A button for an operation the role may not allow: refused, it stays in sight and focusable
 * (aria-disabled, not disabled, so a tooltip on hover or focus can say which role it needs) and
 * does nothing; while the role is being read it is plainly disabled.
 */
export function PermittedButton({
  permission,
  onClick,
  type = 'button',
  ...props
}: ButtonProps & {
  permission: Permission;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  type?: 'button' | 'submit';
  children: ReactNode;
  'aria-label'?: string;
}) {
  if (permission.allowed) return <Button type={type} onClick={onClick} {...props} />;
  if (permission.reason === null) return <Button type={type} disabled {...props} />;
  return (
    <Tooltip label={permission.reason} events={{ hover: true, focus: true, touch: true }}>
      <Button
        type={type}
        {...props}
        data-disabled
        aria-disabled
        aria-description={permission.reason}
        loading={false}
        onClick={(event) => event.preventDefault()}
      />
    </Tooltip>
  );
}
