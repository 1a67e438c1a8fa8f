import { Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { FollowedLogs, LogLine } from '../../../api/logs';
import { useSettings } from '../../../lib/settings';
import { LogLines } from './LogLines';
import { LogToolbar } from './LogToolbar';
import { keptMessage } from './kept-message';
import { logFileText, matchingLines } from './log-search';

function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * The output with the reader's controls: follow, timestamps, wrap, search, download. Once the job
 * ended, the download is all the service kept, also the lines past the page's cap.
 */
export function LogReader({
  logs,
  fileName,
  keptLines,
}: {
  logs: FollowedLogs;
  fileName: string;
  keptLines: () => Promise<LogLine[]>;
}) {
  const { timeZone } = useSettings();
  const [follow, setFollow] = useState(true);
  const [showTimes, setShowTimes] = useState(false);
  const [wrap, setWrap] = useState(false);
  const [term, setTerm] = useState('');
  const [matchIndex, setMatchIndex] = useState<number | null>(null);
  const matches = useMemo(() => matchingLines(logs.lines, term), [logs.lines, term]);
  const message = keptMessage(logs);

  const save = async () => {
    const lines = logs.complete && logs.capped ? await keptLines() : logs.lines;
    download(fileName, logFileText(lines, showTimes));
  };

  const step = (direction: 1 | -1) => {
    if (matches.length === 0) return;
    const from = matchIndex ?? (direction === 1 ? -1 : 0);
    setMatchIndex((from + direction + matches.length) % matches.length);
    setFollow(false); // a reader looking at a match keeps it in view
  };

  return (
    <Stack gap="xs">
      <LogToolbar
        live={!logs.complete}
        follow={follow}
        onFollow={setFollow}
        showTimes={showTimes}
        onShowTimes={setShowTimes}
        timesKnown={logs.timed}
        wrap={wrap}
        onWrap={setWrap}
        term={term}
        onTerm={(next) => {
          setTerm(next);
          setMatchIndex(null);
        }}
        matchCount={matches.length}
        matchIndex={matchIndex}
        onStep={step}
        onDownload={() => void save()}
      />
      {message && (
        <Text size="xs" c="dimmed" data-testid="log-kept">
          {message}
        </Text>
      )}
      {logs.lines.length === 0 ? (
        <Text c="dimmed" data-testid="job-logs-empty">
          (no output yet)
        </Text>
      ) : (
        <LogLines
          lines={logs.lines}
          term={term}
          activeLine={matchIndex === null ? null : (matches[matchIndex] ?? null)}
          timeZone={showTimes && logs.timed ? timeZone : null}
          wrap={wrap}
          follow={follow}
          onFollowChange={setFollow}
        />
      )}
      <Text size="xs" c="dimmed" data-testid="log-line-count">
        {logs.lines.length} {logs.lines.length === 1 ? 'line' : 'lines'}
      </Text>
    </Stack>
  );
}
