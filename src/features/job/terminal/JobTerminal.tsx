import { Alert, Box, Button, Group, Text } from '@mantine/core';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef, useState } from 'react';
import type { JobState } from '../../../../contract';
import { sessionCredentials } from '../../../api/session-state';
import { cspNonce } from '../../../lib/csp-nonce';
import {
  connectExec,
  endWords,
  execProtocols,
  execSocketUrl,
  projectCookie,
  type TerminalEnd,
} from './exec-socket';
import { withStyleNonce } from './style-nonce';

export interface JobTerminalProps {
  jobId: string;
  /** The job's state as last read: what a refusal is put down to. */
  jobState: JobState;
  onClose(): void;
}

/**
 * A shell in a running job's container, in xterm.js (loaded with this file only, when a terminal
 * is opened). Sized to its box, and sized again with it; over once the shell or the job ends.
 */
export default function JobTerminal({ jobId, jobState, onClose }: JobTerminalProps) {
  const host = useRef<HTMLDivElement>(null);
  const [connected, setConnected] = useState(false);
  const [end, setEnd] = useState<TerminalEnd | null>(null);

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const terminal = new Terminal({ cursorBlink: true, fontSize: 14, scrollback: 5000 });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    withStyleNonce(cspNonce(), () => terminal.open(box));
    fit.fit();
    const session = sessionCredentials();
    if (session?.project) document.cookie = projectCookie(session.project);
    const socket = new WebSocket(
      execSocketUrl(window.location, jobId, { cols: terminal.cols, rows: terminal.rows }),
      execProtocols(session?.csrf ?? null),
    );
    const connection = connectExec(socket, {
      onOpen: () => {
        setConnected(true);
        terminal.focus();
      },
      onOutput: (bytes) => terminal.write(bytes),
      onEnd: (ended) => {
        terminal.options.disableStdin = true;
        terminal.options.cursorBlink = false;
        setEnd(ended);
      },
    });
    const typed = terminal.onData((data) => connection.send(data));
    const resized = terminal.onResize((size) => connection.resize(size));
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(box);
    return () => {
      observer.disconnect();
      typed.dispose();
      resized.dispose();
      connection.close();
      terminal.dispose();
    };
  }, [jobId]);

  let status = 'Connecting…';
  if (end) status = 'Closed';
  else if (connected) status = 'Connected: keys go to the shell (Ctrl-D or exit ends it)';
  return (
    <Box>
      <Group justify="space-between" mb="xs">
        <Text size="sm" c="dimmed" data-testid="terminal-status">
          {status}
        </Text>
        <Button variant="default" size="compact-sm" onClick={onClose}>
          {end ? 'Close' : 'Close the shell'}
        </Button>
      </Group>
      {end && (
        <Alert
          color={end.kind === 'exited' ? 'gray' : 'yellow'}
          mb="xs"
          data-testid="terminal-end"
          role="status"
        >
          {endWords(end, jobState)}
        </Alert>
      )}
      <Box
        ref={host}
        role="region"
        aria-label="Terminal"
        data-testid="job-terminal"
        h={360}
        p={4}
        bg="#000"
        style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
      />
    </Box>
  );
}
