import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { HostRecord, ResourcesRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { hostsQuery } from '../../api/hosts';
import { ErrorAlert } from '../../components/ErrorAlert';
import { StateBadge } from '../../components/StateBadge';
import { formatBytes } from '../../lib/time';
import { SharesSection } from './SharesSection';

const STATE_COLOURS: Record<HostRecord['state'], string> = {
  ready: 'green',
  drained: 'yellow',
  lost: 'red',
};

const DIMENSIONS: {
  key: keyof ResourcesRecord;
  label: string;
  amount: (n: number) => string;
}[] = [
  { key: 'cpus', label: 'CPUs', amount: (n) => String(Math.round(n * 100) / 100) },
  { key: 'memory_bytes', label: 'Memory', amount: formatBytes },
  { key: 'gpus', label: 'GPUs', amount: String },
];

/** One dimension's use as a bar: what jobs ask for of what the host has. */
function UseBar({ host, dimension }: { host: HostRecord; dimension: (typeof DIMENSIONS)[number] }) {
  const { key, label, amount } = dimension;
  const used = host.used[key];
  const capacity = host.capacity[key];
  const percent = capacity > 0 ? Math.min(100, (used / capacity) * 100) : 0;
  const text = `${label}: ${amount(used)} of ${amount(capacity)}`;
  return (
    <Stack gap={2}>
      <Text size="sm">{text}</Text>
      <Progress
        value={percent}
        color={percent >= 90 ? 'orange' : 'blue'}
        aria-label={`${host.name} ${text}`}
      />
    </Stack>
  );
}

function HostCard({ host }: { host: HostRecord }) {
  // A dimension the host has none of (GPUs, mostly) is left out, unless jobs ask for it.
  const shown = DIMENSIONS.filter((d) => host.capacity[d.key] > 0 || host.used[d.key] > 0);
  return (
    <Card withBorder data-testid="host" aria-label={`Host ${host.name}`}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600} ff="monospace">
            {host.name}
          </Text>
          <Badge color={STATE_COLOURS[host.state]} variant="filled">
            {host.state}
          </Badge>
        </Group>
        {host.state !== 'ready' && (
          <Text size="sm" c="dimmed">
            Takes no new work; its jobs count until they end.
          </Text>
        )}
        {shown.map((dimension) => (
          <UseBar key={dimension.key} host={host} dimension={dimension} />
        ))}
        {host.jobs.length === 0 && host.other_jobs === 0 ? (
          <Text size="sm" c="dimmed">
            No job here.
          </Text>
        ) : (
          <Stack gap={4} data-testid="host-jobs">
            {host.jobs.map((job) => (
              <Group key={job.id} gap="xs" wrap="nowrap">
                <StateBadge state={job.state} size="sm" />
                <Anchor component={Link} to={`/jobs/${encodeURIComponent(job.id)}`} size="sm">
                  {job.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {job.resources.cpus} CPU · {formatBytes(job.resources.memory_bytes)}
                  {job.resources.gpus > 0 ? ` · ${job.resources.gpus} GPU` : ''}
                </Text>
              </Group>
            ))}
            {host.other_jobs > 0 && (
              <Text size="sm" c="dimmed">
                and {host.other_jobs} {host.other_jobs === 1 ? 'job' : 'jobs'} of other projects
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

/** The engine's hosts: a bar per host and dimension, the project's jobs on each. */
export default function HostsPage() {
  const capabilities = useCapabilities();
  const hosts = useQuery({ ...hostsQuery, enabled: capabilities.data?.hosts === true });
  let body;
  if (capabilities.data && !capabilities.data.hosts) {
    body = <Text c="dimmed">This service does not report its hosts.</Text>;
  } else if (hosts.isError) {
    body = <ErrorAlert error={hosts.error} title="The hosts could not be read" />;
  } else if (!hosts.data) {
    body = <Loader aria-label="Loading the hosts" />;
  } else if (!hosts.data.placement) {
    body = (
      <Alert color="gray" title="No hosts reported">
        The container engine reports no hosts: jobs start as slots allow, whatever they ask for.
      </Alert>
    );
  } else {
    body = (
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {hosts.data.items.map((host) => (
          <HostCard key={host.id} host={host} />
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Stack>
      <Title order={2}>Hosts</Title>
      <Text c="dimmed" size="sm">
        What each host has for jobs and what the jobs holding a slot there ask for, every
        project&apos;s; a job starts only where all it asks for fits.
      </Text>
      {body}
      <SharesSection enabled={capabilities.data?.shares === true} />
    </Stack>
  );
}
