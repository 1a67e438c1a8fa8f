import { ActionIcon } from '@mantine/core';

/** A square icon button of an editor row (move, remove), always with an accessible label. */
export function RowButton({
  label,
  glyph,
  onClick,
  disabled = false,
}: {
  label: string;
  glyph: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {glyph}
    </ActionIcon>
  );
}
