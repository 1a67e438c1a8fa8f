import { Progress, Stack, Text } from '@mantine/core';
import type { ProjectShareRecord, QuotaFiguresRecord, ShareAmounts } from '../../../contract';
import { quotaFraction, quotaWords } from '../../lib/quota-words';
import { dueWords, holdsWords } from '../../lib/share-words';

/** A queue's share figures and its project's (a queue's quota, else its project's, is shown). */
export interface QueueShareFigures {
  queue: ProjectShareRecord['queues'][number];
  project: ProjectShareRecord;
}

/** A figure in words and a bar of `fraction` (0 to 1 and past), orange when `over`. */
function FigureLine(props: {
  testId: string;
  words: string;
  label: string;
  fraction: number;
  over: boolean;
  color: string;
}) {
  return (
    <Stack gap={2}>
      <Text size="sm" data-testid={props.testId}>
        {props.words}
      </Text>
      <Progress
        size="sm"
        value={Math.min(100, props.fraction * 100)}
        color={props.over ? 'orange' : props.color}
        aria-label={props.label}
      />
    </Stack>
  );
}

/** What it holds of its quota (orange: at or past it, so borrowing). */
function QuotaLine({
  who,
  quota,
  inUse,
}: {
  who: string;
  quota: QuotaFiguresRecord;
  inUse: ShareAmounts;
}) {
  const fraction = quotaFraction(quota, inUse);
  const words = `${who} ${quotaWords(quota, inUse)}`;
  return (
    <FigureLine
      testId="queue-quota"
      words={words}
      label={words}
      fraction={fraction}
      over={fraction + 1e-9 >= 1}
      color="teal"
    />
  );
}

/**
 * The queue's fair share on its card: what it holds against what it is due, and its quota (or
 * its project's) with what is borrowed and lent (docs/guides/fair-share.md, quotas.md).
 */
export function QueueShare({ figures }: { figures: QueueShareFigures }) {
  const { queue, project } = figures;
  // A queue with no work is due nothing now (its project's share goes to its other queues).
  const words = queue.active
    ? `Share: ${holdsWords(queue.dominant)}; ${dueWords(queue)}`
    : `Share: no work now (weight ${queue.weight})`;
  const fraction = queue.dominant.fraction;
  return (
    <Stack gap={4}>
      <FigureLine
        testId="queue-share"
        words={words}
        label={`${queue.queue} ${words}`}
        fraction={fraction}
        over={queue.active && fraction + 1e-9 >= queue.share}
        color="blue"
      />
      {queue.quota ? (
        <QuotaLine who="queue" quota={queue.quota} inUse={queue.in_use} />
      ) : (
        project.quota && (
          <QuotaLine
            who={`project ${project.project}`}
            quota={project.quota}
            inUse={project.in_use}
          />
        )
      )}
    </Stack>
  );
}
