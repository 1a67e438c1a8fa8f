import {
  Autocomplete,
  Button,
  Group,
  MultiSelect,
  Select,
  TagsInput,
  TextInput,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { JOB_STATES, LABEL_LIMITS, parseLabelSelector, type JobState } from '../../../contract';
import { dayjs } from '../../lib/time';
import {
  CREATED_PRESETS,
  countFilters,
  type CreatedChoice,
  type EndedChoice,
  type TableView,
  type ViewChange,
} from './url-filters';

const CREATED_OPTIONS = [
  { value: 'any', label: 'Any time' },
  ...Object.entries(CREATED_PRESETS).map(([value, preset]) => ({ value, label: preset.label })),
  { value: 'custom', label: 'Custom range' },
];

const ENDED_OPTIONS = [
  { value: 'any', label: 'Any time, or not' },
  ...Object.entries(CREATED_PRESETS).map(([value, preset]) => ({ value, label: preset.label })),
];

/** A text filter applied when the typing pauses: one list request per word, not per key. */
function useDebouncedText(value: string, apply: (next: string) => void) {
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  const [applied, setApplied] = useState(value);
  // The URL changed under us (Back, a link, Clear filters): show what it says. Not when it shows
  // what was applied from here: what was typed since stays, and so does the text while the URL
  // is on its way.
  if (value !== shown) {
    setShown(value);
    setApplied(value);
    if (value !== applied) setText(value);
  }
  const debounced = useDebouncedCallback((next: string) => {
    setApplied(next);
    apply(next);
  }, 400);
  return [text, (next: string) => (setText(next), debounced(next))] as const;
}

/**
 * What a MultiSelect pick changed (it answers with its whole value, built on what it shows),
 * applied to the view the change builds on: a second pick before the URL shows the first keeps
 * both.
 */
function toggledStates(shown: readonly JobState[], picked: readonly JobState[]): ViewChange {
  const added = picked.filter((state) => !shown.includes(state));
  const removed = shown.filter((state) => !picked.includes(state));
  return (base) => ({
    states: [
      ...base.states.filter((state) => !removed.includes(state)),
      ...added.filter((state) => !base.states.includes(state)),
    ],
  });
}

/** Labels typed as `key=value` or `key`; one the service would refuse is held back, and said why. */
function LabelFilter({
  view,
  onChange,
}: {
  view: TableView;
  onChange: (change: ViewChange) => void;
}) {
  const [refused, setRefused] = useState<string | null>(null);
  const change = (typed: string[]) => {
    const bad = typed.find((text) => parseLabelSelector(text) === undefined);
    setRefused(bad ?? null);
    onChange({ labels: typed.filter((text) => parseLabelSelector(text) !== undefined) });
  };
  return (
    <TagsInput
      label="Labels"
      placeholder={view.labels.length ? undefined : 'team=data or team'}
      value={view.labels}
      onChange={change}
      maxTags={LABEL_LIMITS.filtersMax}
      clearable
      error={refused && `"${refused}" is not key=value or key`}
      w={240}
    />
  );
}

export function JobFilters({
  view,
  queues,
  labels,
  ended,
  onChange,
}: {
  view: TableView;
  queues: string[];
  labels: boolean;
  ended: boolean;
  onChange: (change: ViewChange) => void;
}) {
  const [name, setName] = useDebouncedText(view.name, (next) => onChange({ name: next }));
  const [queue, setQueue] = useDebouncedText(view.queue, (next) => onChange({ queue: next }));
  const asDate = (iso: string) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : null);
  const fromDate = (value: string | null) => (value ? dayjs(value).toISOString() : '');
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <MultiSelect
        label="State"
        placeholder={view.states.length ? undefined : 'any state'}
        data={[...JOB_STATES]}
        value={view.states}
        onChange={(picked) => onChange(toggledStates(view.states, picked as JobState[]))}
        clearable
        w={260}
      />
      <Autocomplete
        label="Queue"
        placeholder="any queue"
        data={queues}
        value={queue}
        onChange={setQueue}
        w={200}
      />
      <TextInput
        label="Name starts with"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        w={180}
      />
      <Select
        label="Created"
        data={CREATED_OPTIONS}
        value={view.created}
        allowDeselect={false}
        onChange={(value) => onChange({ created: (value ?? 'any') as CreatedChoice })}
        w={160}
      />
      {view.created === 'custom' && (
        <>
          <DateTimePicker
            label="Created after"
            clearable
            withSeconds
            value={asDate(view.after)}
            onChange={(value) => onChange({ after: fromDate(value) })}
            w={200}
          />
          <DateTimePicker
            label="Created before"
            clearable
            withSeconds
            value={asDate(view.before)}
            onChange={(value) => onChange({ before: fromDate(value) })}
            w={200}
          />
        </>
      )}
      {ended && (
        <Select
          label="Ended"
          data={ENDED_OPTIONS}
          value={view.ended}
          allowDeselect={false}
          onChange={(value) => onChange({ ended: (value ?? 'any') as EndedChoice })}
          w={160}
        />
      )}
      {labels && <LabelFilter view={view} onChange={onChange} />}
      {countFilters(view) > 0 && (
        <Button
          variant="subtle"
          onClick={() =>
            onChange({
              states: [],
              queue: '',
              name: '',
              created: 'any',
              ended: 'any',
              after: '',
              before: '',
              labels: [],
              ids: [],
            })
          }
        >
          Clear filters
        </Button>
      )}
    </Group>
  );
}
