import { Anchor, Button, Group, List, Paper, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import type { JobListItem } from '../../../contract';
import { findJobs } from '../../api/jobs';
import { parseIdInput, shortId } from '../../lib/short-id';

const jobPage = (id: string) => `/jobs/${encodeURIComponent(id)}`;
const MATCHES_SHOWN = 20;

type Outcome = { end: string; matches: JobListItem[] } | { error: string } | null;

/**
 * Any job of the project by its id or its short id (the end of it, as the console shows it).
 * A whole id works against every service (Job Detail only); a short one is looked up with the
 * list's `id_suffix`, and where the service has no such filter it is tried as a whole id.
 */
export function OpenByIdForm() {
  const navigate = useNavigate();
  const [id, setId] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const open = async (event: FormEvent) => {
    event.preventDefault();
    const text = id.trim();
    const input = parseIdInput(text);
    if (input?.kind !== 'end') return void navigate(jobPage(input?.id ?? text));
    setBusy(true);
    try {
      const matches = await findJobs({ end: input.end }, MATCHES_SHOWN);
      if (matches === null) return void navigate(jobPage(text));
      if (matches.length === 1) return void navigate(jobPage(matches[0]!.id));
      setOutcome({ end: input.end, matches });
    } catch (error) {
      setOutcome({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md">
      <form onSubmit={(event) => void open(event)}>
        <Group align="flex-end">
          <TextInput
            label="Open a job by id or short id"
            placeholder="…3fa9c1d2"
            value={id}
            onChange={(event) => {
              setId(event.currentTarget.value);
              setOutcome(null);
            }}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="default" disabled={!id.trim()} loading={busy}>
            Open
          </Button>
        </Group>
      </form>
      <OpenOutcome outcome={outcome} />
    </Paper>
  );
}

function OpenOutcome({ outcome }: { outcome: Outcome }) {
  if (outcome === null) return null;
  if ('error' in outcome)
    return (
      <Text role="alert" c="red" size="sm" mt="xs">
        {outcome.error}
      </Text>
    );
  const { end, matches } = outcome;
  if (matches.length === 0)
    return (
      <Text role="alert" size="sm" mt="xs">
        No job of this project has an id ending in {end}.
      </Text>
    );
  return (
    <div role="status" data-testid="id-matches">
      <Text size="sm" mt="xs">
        {matches.length === MATCHES_SHOWN ? `${MATCHES_SHOWN} or more` : matches.length} jobs have
        an id ending in {end}: type more of it, or pick one.
      </Text>
      <List size="sm" spacing={2}>
        {matches.map((job) => (
          <List.Item key={job.id}>
            <Anchor component={Link} to={jobPage(job.id)}>
              {job.name}
            </Anchor>{' '}
            <Text span ff="monospace" size="xs" c="dimmed">
              {shortId(job.id)}
            </Text>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
