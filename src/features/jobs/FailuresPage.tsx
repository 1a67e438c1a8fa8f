import { Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { FailureGroup } from '../../../contract';
import { failureGroupsQuery } from '../../api/failures';
import { filterFields } from '../../api/jobs';
import { useCan } from '../../api/permissions';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PermittedButton } from '../../components/PermittedButton';
import { StateBadge } from '../../components/StateBadge';
import { filterText, jobs } from './bulk-text';
import { filterOfView, viewFromSearch } from './url-filters';
import { causeText, groupJobsPath } from './failure-group-text';
import { RetryGroupDialog } from './RetryGroupDialog';

function GroupRow({ group, onRetry }: { group: FailureGroup; onRetry: () => void }) {
  const permission = useCan('startBulkAction');
  const text = causeText(group);
  return (
    <Card withBorder data-testid="failure-group" aria-label={`${jobs(group.count)} · ${text}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} miw={0}>
          <Group gap="xs" wrap="nowrap">
            <StateBadge state={group.state} size="sm" />
            <Anchor component={Link} to={groupJobsPath(group)} fw={600}>
              {jobs(group.count)}
            </Anchor>
          </Group>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {text}
          </Text>
          <Text size="xs" c="dimmed">
            Newest:{' '}
            <Anchor component={Link} to={`/jobs/${encodeURIComponent(group.newest.job_id)}`}>
              {group.newest.job_name}
            </Anchor>
          </Text>
        </Stack>
        <PermittedButton
          permission={permission}
          variant="default"
          size="sm"
          aria-label={`Retry all: ${jobs(group.count)} · ${text}`}
          onClick={onRetry}
        >
          Retry all
        </PermittedButton>
      </Group>
    </Card>
  );
}

/**
 * The newest failed, timed-out and error jobs of the jobs table's filters (its URL's), grouped by
 * state, exit code and cause: each group links to its jobs and can be submitted again at once.
 */
export default function FailuresPage() {
  const [search] = useSearchParams();
  const searchText = search.toString();
  // Fixed per URL: a sliding window computed at each render would ask again without end.
  const filter = useMemo(
    () => filterFields(filterOfView(viewFromSearch(new URLSearchParams(searchText)))),
    [searchText],
  );
  const failures = useQuery(failureGroupsQuery(filter));
  const [retrying, setRetrying] = useState<FailureGroup | null>(null);
  let body;
  if (failures.isError) {
    body = <ErrorAlert error={failures.error} title="The failures could not be read" />;
  } else if (!failures.data) {
    body = <Loader aria-label="Loading the failures" />;
  } else if (failures.data.groups.length === 0) {
    body = <Text c="dimmed">No failed, timed-out or error job matches these filters.</Text>;
  } else {
    body = (
      <Stack gap="sm">
        <Text size="sm" data-testid="failures-examined">
          {jobs(failures.data.examined)} grouped
          {failures.data.more && ', the newest of more: narrow the filters to see older ones'}.
        </Text>
        {failures.data.groups.map((group) => (
          <GroupRow key={group.newest.job_id} group={group} onRetry={() => setRetrying(group)} />
        ))}
      </Stack>
    );
  }
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={2}>Failures</Title>
        <Button component={Link} to={`/jobs?${searchText}`} variant="default">
          Back to the jobs
        </Button>
      </Group>
      <Text c="dimmed" size="sm" data-testid="failures-filter">
        Filters (the jobs table&apos;s): {filterText(filter)}
      </Text>
      {body}
      <RetryGroupDialog group={retrying} onClose={() => setRetrying(null)} />
    </Stack>
  );
}
