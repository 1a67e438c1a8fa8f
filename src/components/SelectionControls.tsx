import { Checkbox, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useCan } from '../api/permissions';
import type { CancelTarget } from '../lib/bulk-cancel-plan';
import { BulkCancelDialog } from './BulkCancelDialog';
import { PermittedButton } from './PermittedButton';

/** What a selectable table's rows and header share: the ids selected, and how to change them. */
export interface Selection {
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/** A row's checkbox: switches the row's job in or out of the selection. */
export function SelectRowCheckbox({
  id,
  name,
  selected,
  onChange,
}: Selection & { id: string; name: string }) {
  return (
    <Checkbox
      aria-label={`Select ${name}`}
      checked={selected.has(id)}
      onChange={(event) => {
        const next = new Set(selected);
        if (event.currentTarget.checked) next.add(id);
        else next.delete(id);
        onChange(next);
      }}
    />
  );
}

/** A table's header checkbox: checked when every row shown is selected, indeterminate for some. */
export function SelectAllCheckbox({
  label,
  ids,
  selected,
  onChange,
}: Selection & { label: string; ids: readonly string[] }) {
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  const some = ids.some((id) => selected.has(id));
  return (
    <Checkbox
      aria-label={label}
      checked={all}
      indeterminate={some && !all}
      onChange={(event) => onChange(new Set(event.currentTarget.checked ? ids : []))}
    />
  );
}

/**
 * How many jobs are selected, and "Cancel selected…": the plan first, then each job's answer
 * (BulkCancelDialog); `onDone` once the answers were read.
 */
export function CancelSelected({ jobs, onDone }: { jobs: CancelTarget[]; onDone: () => void }) {
  const [opened, dialog] = useDisclosure();
  const permission = useCan('cancelJob');
  return (
    <>
      <Text size="sm" c="dimmed" data-testid="selection-count">
        {jobs.length} selected
      </Text>
      <PermittedButton
        permission={permission}
        color="red"
        variant="light"
        disabled={jobs.length === 0}
        onClick={dialog.open}
      >
        Cancel selected…
      </PermittedButton>
      <BulkCancelDialog jobs={jobs} opened={opened} onClose={dialog.close} onDone={onDone} />
    </>
  );
}
