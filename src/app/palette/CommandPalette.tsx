import { Group, Loader, Modal, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { capabilitiesQuery } from '../../api/capabilities';
import { findJobs } from '../../api/jobs';
import { jobKeys } from '../../api/keys';
import { queueNamesQuery } from '../../api/queries';
import { sharedViewsQuery, useBrowserViews } from '../../api/views';
import { parseIdInput } from '../../lib/short-id';
import { paletteResults, type PaletteResult } from './palette-results';
import classes from './CommandPalette.module.css';

const JOBS_SHOWN = 8;
const GROUPS = ['Jobs', 'Queues', 'Views'] as const;

/** The jobs the text finds: by the end of an id, else by the start of a name. */
function useFoundJobs(text: string, enabled: boolean) {
  const input = parseIdInput(text);
  const by =
    input?.kind === 'end' ? { end: input.end } : input === null && text ? { name: text } : null;
  const found = useQuery({
    queryKey: jobKeys.search(by ?? { name: '' }),
    queryFn: () => findJobs(by!, JOBS_SHOWN),
    enabled: enabled && by !== null,
    staleTime: 5_000,
    retry: false,
  });
  return {
    input,
    jobs: by ? (found.data ?? null) : null,
    loading: by !== null && found.isFetching,
  };
}

/**
 * Ctrl-K / Cmd-K: a job by short id or name, a queue, or a saved view, chosen with the keyboard
 * alone (arrows, Enter, Escape) or the pointer. Loaded on first use: none of it is in the first
 * page load.
 */
export default function CommandPalette({
  opened,
  onClose,
}: {
  opened: boolean;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [typed] = useDebouncedValue(text.trim(), 200);
  const capabilities = useQuery(capabilitiesQuery).data;
  const { input, jobs, loading } = useFoundJobs(typed, opened && capabilities?.jobList === true);
  const queues = useQuery({ ...queueNamesQuery, enabled: opened && capabilities?.queues === true });
  const shared = useQuery({ ...sharedViewsQuery, enabled: opened && capabilities?.views === true });
  const browserViews = useBrowserViews().views;
  const results = paletteResults({
    text: typed,
    input,
    jobs,
    queues: queues.data ?? [],
    views: [
      ...(shared.data ?? []).map((view) => ({ ...view, scope: 'project' as const })),
      ...browserViews.map((view) => ({ ...view, scope: 'browser' as const })),
    ],
  });
  const listId = useId();
  const optionId = (index: number) => `${listId}-option-${index}`;
  const current = Math.min(active, results.length - 1);

  const close = () => {
    setText('');
    setActive(0);
    onClose();
  };
  const go = (result: PaletteResult | undefined) => {
    if (!result) return;
    close();
    void navigate(result.to);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      Home: 0,
      End: results.length - 1,
    };
    if (event.key === 'Enter') {
      event.preventDefault();
      go(results[current]);
    } else if (event.key in moves && results.length > 0) {
      event.preventDefault();
      setActive((moves[event.key]! + results.length) % results.length);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Go to" size="lg" yOffset="10vh">
      <TextInput
        data-autofocus
        role="combobox"
        aria-label="Job id, short id or name, queue, or view"
        aria-expanded={results.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={results.length > 0 ? optionId(current) : undefined}
        placeholder="…3fa9c1d2, a job's name, a queue, a view"
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        rightSection={loading ? <Loader size="xs" aria-label="Searching" /> : null}
      />
      <div id={listId} role="listbox" aria-label="Results" className={classes.list}>
        {GROUPS.map((group) => {
          const shown = results.filter((result) => result.group === group);
          if (shown.length === 0) return null;
          return (
            <div key={group} role="group" aria-label={group}>
              <Text size="xs" fw={700} c="dimmed" mt="sm" aria-hidden>
                {group}
              </Text>
              {shown.map((result) => {
                const index = results.indexOf(result);
                return (
                  <UnstyledButton
                    key={result.key}
                    id={optionId(index)}
                    role="option"
                    aria-selected={index === current}
                    tabIndex={-1}
                    className={classes.option}
                    onMouseEnter={() => setActive(index)}
                    onClick={() => go(result)}
                  >
                    <Group justify="space-between" wrap="nowrap" gap="xs">
                      <Text size="sm" truncate>
                        {result.label}
                      </Text>
                      {result.detail && (
                        <Text size="xs" c="dimmed" ff="monospace" truncate>
                          {result.detail}
                        </Text>
                      )}
                    </Group>
                  </UnstyledButton>
                );
              })}
            </div>
          );
        })}
      </div>
      <Text size="sm" c="dimmed" mt="sm" role="status">
        {typed && !loading && results.length === 0
          ? 'No job, queue or view matches.'
          : `${results.length} results · ↑ ↓ to choose, Enter to open, Esc to close`}
      </Text>
    </Modal>
  );
}
