import { Anchor, Button, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Schedule, ScheduleFiring } from '../../../contract';
import { StateBadge } from '../../components/StateBadge';
import { TimeText } from '../../components/TimeText';
import { dayjs } from '../../lib/time';

/** The newest few at first: twenty firings per schedule would bury the next schedule. */
const SHOWN_AT_FIRST = 5;

function FiringRow({ firing, now }: { firing: ScheduleFiring; now: number }) {
  return (
    <Table.Tr data-testid="firing" data-job-id={firing.job_id ?? undefined}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {/* The time itself first: firings seconds apart would all read "a few seconds ago". */}
        <TimeText iso={firing.fire_at} />
        <Text size="xs" c="dimmed">
          {dayjs(Math.min(Date.parse(firing.fire_at), now)).from(now)}
        </Text>
      </Table.Td>
      <Table.Td>
        {firing.job_id ? (
          // Underlined: in a table a link must not be told apart by colour alone.
          <Anchor
            component={Link}
            to={`/jobs/${encodeURIComponent(firing.job_id)}`}
            underline="always"
            style={{ whiteSpace: 'nowrap' }}
          >
            {firing.job_name ?? firing.job_id}
          </Anchor>
        ) : (
          <Text span c="dimmed" size="sm">
            no job
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        {firing.job_id && <StateBadge state={firing.state} size="sm" />}
        {firing.note && (
          <Text size="sm" data-testid="firing-note">
            {firing.note}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** What the last firings did: the job each submitted and its state now, or why it submitted none. */
export function RecentFirings({ schedule, now }: { schedule: Schedule; now: number }) {
  const [all, setAll] = useState(false);
  if (schedule.recent.length === 0)
    return (
      <Text size="sm" c="dimmed">
        It has not fired yet.
      </Text>
    );
  const shown = all ? schedule.recent : schedule.recent.slice(0, SHOWN_AT_FIRST);
  return (
    <>
      <Table.ScrollContainer minWidth={360}>
        <Table aria-label={`Recent firings of ${schedule.name}`} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Fired</Table.Th>
              <Table.Th>Job</Table.Th>
              <Table.Th>State or note</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((firing) => (
              <FiringRow key={firing.fire_at} firing={firing} now={now} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {schedule.recent.length > SHOWN_AT_FIRST && (
        <Button variant="subtle" size="compact-sm" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${schedule.recent.length}`}
        </Button>
      )}
    </>
  );
}
