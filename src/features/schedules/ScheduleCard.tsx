import { Badge, Card, Code, Grid, Group, Stack, Text, Title } from '@mantine/core';
import type { Schedule } from '../../../contract';
import { cronInWords } from '../../lib/cron-words';
import { NextFirings } from './NextFirings';
import { LabelBadges } from '../../components/LabelBadges';
import { SchedulePauseControl } from './SchedulePauseControl';
import { RecentFirings } from './RecentFirings';
import { ScheduleState } from './ScheduleState';

const OVERLAP: Record<Schedule['overlap'], string> = {
  skip: 'skips a firing while its last job runs',
  allow: 'fires even while its last job runs',
  cancel_previous: 'cancels a job still running when it fires again',
};

const MISSED: Record<Schedule['missed'], string> = {
  run_once: 'runs once for firings missed while the service was down',
  skip: 'skips firings missed while the service was down',
};

/** When it fires, in words when they are cheap to get right, and the expression itself. */
function When({ schedule }: { schedule: Schedule }) {
  const words = cronInWords(schedule.cron);
  return (
    <Text size="sm" data-testid="schedule-when">
      {words && <>{words[0]!.toUpperCase() + words.slice(1)} </>}
      <Code>{schedule.cron}</Code> ({schedule.timezone})
    </Text>
  );
}

/** One schedule: when it fires and what, its state and policies, next and recent firings. */
export function ScheduleCard({ schedule, now }: { schedule: Schedule; now: number }) {
  return (
    <Card
      withBorder
      padding="md"
      component="section"
      aria-label={`Schedule ${schedule.name}`}
      data-testid="schedule-card"
      data-schedule={schedule.name}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Group gap="xs">
              <Title order={3} size="h4">
                {schedule.name}
              </Title>
              <ScheduleState schedule={schedule} />
            </Group>
            <When schedule={schedule} />
            <Text size="sm">
              Submits <Code>{schedule.job_definition}</Code> to <Code>{schedule.job_queue}</Code>
            </Text>
            <LabelBadges labels={schedule.labels} />
            <Group gap={6}>
              <Badge variant="default">overlap: {schedule.overlap.replace('_', ' ')}</Badge>
              <Badge variant="default">missed: {schedule.missed.replace('_', ' ')}</Badge>
            </Group>
            <Text size="xs" c="dimmed">
              It {OVERLAP[schedule.overlap]}; it {MISSED[schedule.missed]}.
            </Text>
          </Stack>
          <SchedulePauseControl schedule={schedule} />
        </Group>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <Title order={4} size="h5">
              Next firings
            </Title>
            <NextFirings schedule={schedule} now={now} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <Title order={4} size="h5">
              Recent firings
            </Title>
            <RecentFirings schedule={schedule} now={now} />
          </Grid.Col>
        </Grid>
      </Stack>
    </Card>
  );
}
