import { Button, Drawer, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { JobFilters } from './JobFilters';
import { countFilters, type TableView, type ViewChange } from './url-filters';

/**
 * The filters in line on a wide screen; on a phone, behind a "Filters" button in a drawer, so
 * that the first screen shows jobs rather than five fields.
 */
export function FilterBar(props: {
  view: TableView;
  queues: string[];
  /** Whether the service filters by label. */
  labels: boolean;
  /** Whether the service filters by when jobs ended. */
  ended: boolean;
  onChange: (change: ViewChange) => void;
}) {
  const theme = useMantineTheme();
  // Read at once, not after a first render: the filters would mount in line, then move.
  const phone = useMediaQuery(`(max-width: ${theme.breakpoints.sm})`, undefined, {
    getInitialValueInEffect: false,
  });
  const [opened, drawer] = useDisclosure();
  if (!phone) return <JobFilters {...props} />;
  const active = countFilters(props.view);
  return (
    <>
      <Button variant="default" onClick={drawer.open}>
        {active > 0 ? `Filters (${active})` : 'Filters'}
      </Button>
      <Drawer opened={opened} onClose={drawer.close} title="Filters" position="bottom" size="auto">
        <JobFilters {...props} />
      </Drawer>
    </>
  );
}
