import { ActionIcon, Button, Group, Switch, Text, TextInput } from '@mantine/core';

export interface LogToolbarProps {
  /** Output can still come: the job has not ended. Following an ended job means nothing. */
  live: boolean;
  follow: boolean;
  onFollow: (follow: boolean) => void;
  showTimes: boolean;
  onShowTimes: (show: boolean) => void;
  /** The service gives no times: the switch is there but off. */
  timesKnown: boolean;
  wrap: boolean;
  onWrap: (wrap: boolean) => void;
  term: string;
  onTerm: (term: string) => void;
  matchCount: number;
  /** 0-based position among the matches, or null before the first jump. */
  matchIndex: number | null;
  onStep: (step: 1 | -1) => void;
  onDownload: () => void;
}

export function LogToolbar(props: LogToolbarProps) {
  const position =
    props.matchCount === 0 ? 'no match' : `${(props.matchIndex ?? -1) + 1} of ${props.matchCount}`;
  return (
    <Group gap="md" wrap="wrap">
      {props.live && (
        <Switch
          label="Follow"
          checked={props.follow}
          onChange={(event) => props.onFollow(event.currentTarget.checked)}
        />
      )}
      <Switch
        label="Timestamps"
        checked={props.showTimes && props.timesKnown}
        disabled={!props.timesKnown}
        onChange={(event) => props.onShowTimes(event.currentTarget.checked)}
      />
      <Switch
        label="Wrap lines"
        checked={props.wrap}
        onChange={(event) => props.onWrap(event.currentTarget.checked)}
      />
      <Group gap={4}>
        <TextInput
          size="xs"
          aria-label="Search the output"
          placeholder="Search"
          value={props.term}
          onChange={(event) => props.onTerm(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') props.onStep(event.shiftKey ? -1 : 1);
          }}
        />
        {props.term && (
          <>
            <Text size="xs" c="dimmed" data-testid="log-search-position" miw={64}>
              {position}
            </Text>
            <ActionIcon
              variant="default"
              aria-label="Previous match"
              disabled={props.matchCount === 0}
              onClick={() => props.onStep(-1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label="Next match"
              disabled={props.matchCount === 0}
              onClick={() => props.onStep(1)}
            >
              ↓
            </ActionIcon>
          </>
        )}
      </Group>
      <Button size="xs" variant="default" onClick={props.onDownload}>
        Download
      </Button>
    </Group>
  );
}
