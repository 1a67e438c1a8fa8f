import { Alert, Button, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { Controller, useController, useWatch } from 'react-hook-form';
import { useNow } from '../../lib/use-now';
import {
  scheduleInstant,
  type ScheduleMode,
  type SectionEditorProps,
  type SubmitFormValues,
} from './form-model';
import { LOCAL_FORMAT, SCHEDULE_PRESETS, pickedDayTime, presetLocal } from './schedule-presets';

/** One click to a time ahead, in the date-and-time mode, so that it shows and can be adjusted. */
function SchedulePresets({ control }: Pick<SectionEditorProps, 'control'>) {
  const mode = useController({ control, name: 'scheduleMode' }).field;
  const local = useController({ control, name: 'scheduleLocal' }).field;
  return (
    <Group gap="xs" role="group" aria-label="Schedule presets">
      {SCHEDULE_PRESETS.map((preset) => (
        <Button
          key={preset.label}
          size="compact-sm"
          variant="default"
          onClick={() => {
            mode.onChange('datetime');
            // Computed at the click: the time is from now, whenever the form was opened.
            local.onChange(presetLocal(preset, Date.now()));
          }}
        >
          {preset.label}
        </Button>
      ))}
    </Group>
  );
}

export function ScheduleField({ control, register, errors }: SectionEditorProps) {
  const values = useWatch({ control }) as SubmitFormValues;
  const instant = scheduleInstant(values);
  // Ticking while the picker is open too: its earliest day and default time follow the clock.
  const now = useNow(instant !== null || values.scheduleMode === 'datetime');
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id="schedule-label">
        Schedule (schedule_at)
      </Text>
      <Controller
        control={control}
        name="scheduleMode"
        render={({ field }) => (
          <SegmentedControl
            aria-labelledby="schedule-label"
            value={field.value}
            onChange={(value) => field.onChange(value as ScheduleMode)}
            data={[
              { value: 'none', label: 'Run now' },
              { value: 'datetime', label: 'Date and time' },
              { value: 'unix', label: 'Unix seconds' },
            ]}
          />
        )}
      />
      <SchedulePresets control={control} />
      {values.scheduleMode === 'datetime' && (
        <Controller
          control={control}
          name="scheduleLocal"
          render={({ field }) => (
            <DateTimePicker
              label="Local date and time"
              withSeconds
              clearable
              // No day before today; a day picked gets a time ahead rather than its past 00:00.
              minDate={dayjs(now).format('YYYY-MM-DD')}
              defaultTimeValue={pickedDayTime(now)}
              value={field.value}
              onChange={(value) => field.onChange(value)}
              error={errors.scheduleLocal?.message}
              valueFormat={LOCAL_FORMAT}
            />
          )}
        />
      )}
      {values.scheduleMode === 'unix' && (
        <TextInput
          {...register('scheduleUnix')}
          label="Unix timestamp (seconds)"
          inputMode="decimal"
          error={errors.scheduleUnix?.message}
        />
      )}
      {instant && (
        <Text size="sm" data-testid="schedule-utc">
          Sent as <code>{instant.toISOString()}</code> (UTC)
        </Text>
      )}
      {instant && instant.getTime() < now && (
        <Alert color="yellow" role="alert" title="This time has passed" data-testid="schedule-past">
          The job runs as soon as it is submitted. Pick a later time, or Run now.
        </Alert>
      )}
    </Stack>
  );
}
