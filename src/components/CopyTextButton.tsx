import { Button, CopyButton, type ButtonProps } from '@mantine/core';

/** Copies `value` to the clipboard; says "Copied" for a moment after. */
export function CopyTextButton({
  value,
  label,
  size = 'xs',
  variant = 'default',
}: {
  value: string;
  label: string;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
}) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size={size} variant={variant} onClick={copy}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}
