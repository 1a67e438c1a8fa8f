import { Group } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A dialog's buttons, kept in view at the bottom of the dialog however long what is above them
 * grows: the dialog's content scrolls under them (Mantine's modal content is the scroll container).
 */
export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <Group
      justify="flex-end"
      data-testid="dialog-footer"
      style={{
        position: 'sticky',
        bottom: 0,
        zIndex: 1,
        background: 'var(--mantine-color-body)',
        borderTop: '1px solid var(--mantine-color-default-border)',
        paddingBlock: 'var(--mantine-spacing-sm)',
      }}
    >
      {children}
    </Group>
  );
}
