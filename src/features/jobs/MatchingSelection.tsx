import { Button, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import type { BulkFilter, JobList } from '../../../contract';
import { filterFields, type JobFilter } from '../../api/jobs';
import { useCan } from '../../api/permissions';
import { PermittedButton } from '../../components/PermittedButton';
import { CancelMatchingDialog } from './CancelMatchingDialog';

const total = (list: JobList) => `${list.total.toLocaleString('en')}${list.total_exact ? '' : '+'}`;

/** Offered once the whole page is selected and more jobs match than it shows. */
export function SelectAllMatching({ list, onSelect }: { list: JobList; onSelect: () => void }) {
  return (
    <Button variant="subtle" size="compact-sm" onClick={onSelect}>
      Select all {total(list)} matching jobs
    </Button>
  );
}

/**
 * Every job the filters match is selected, not only the page: "Cancel all matching…" asks the
 * service what it would do (CancelMatchingDialog), then has it done.
 */
export function MatchingSelected({
  list,
  filter,
  onClear,
}: {
  list: JobList;
  filter: JobFilter;
  onClear: () => void;
}) {
  const [opened, dialog] = useDisclosure();
  // The filter as it is when the dialog opens: a sliding "last 24 h" must not move under it.
  const [fixed, setFixed] = useState<BulkFilter>({});
  const permission = useCan('startBulkAction');
  return (
    <>
      <Text size="sm" data-testid="selection-count">
        All {total(list)} matching jobs selected
      </Text>
      <Button variant="subtle" size="compact-sm" onClick={onClear}>
        Clear selection
      </Button>
      <PermittedButton
        permission={permission}
        color="red"
        variant="light"
        onClick={() => {
          setFixed(filterFields(filter));
          dialog.open();
        }}
      >
        Cancel all matching…
      </PermittedButton>
      <CancelMatchingDialog
        filter={fixed}
        opened={opened}
        onClose={dialog.close}
        onFinished={onClear}
      />
    </>
  );
}
