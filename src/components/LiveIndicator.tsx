import { Badge, Tooltip } from '@mantine/core';
import { POLL_WITHOUT_STREAM_MS, type StreamStatus } from '../api/events';

const LABELS: Record<StreamStatus, { text: string; color: string; why: string }> = {
  live: { text: 'Live', color: 'green', why: 'Changes arrive from the service as they happen.' },
  connecting: {
    text: 'Connecting…',
    color: 'gray',
    why: 'Opening the event stream; refreshing on a timer meanwhile.',
  },
  down: {
    text: `Refreshing every ${POLL_WITHOUT_STREAM_MS / 1000} s`,
    color: 'orange',
    why: 'The event stream is down; it is tried again now and then.',
  },
  off: {
    text: `Refreshing every ${POLL_WITHOUT_STREAM_MS / 1000} s`,
    color: 'gray',
    why: 'This service offers no event stream.',
  },
};

/** Whether what the page shows is pushed by the service or polled, and why. */
export function LiveIndicator({ status }: { status: StreamStatus }) {
  const label = LABELS[status];
  return (
    <Tooltip label={label.why} withArrow>
      <Badge
        variant="filled"
        color={label.color}
        tabIndex={0}
        data-testid="live-status"
        data-status={status}
      >
        {label.text}
      </Badge>
    </Tooltip>
  );
}
