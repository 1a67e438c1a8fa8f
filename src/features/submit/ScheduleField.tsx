import { SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { Controller, useWatch } from 'react-hook-form';
import { useNow } from '../../lib/use-now';
import {
  scheduleInstant,
  type ScheduleMode,
  type SectionEditorProps,
  type SubmitFormValues,
} from './form-model';

export function ScheduleField({ control, register, errors }: SectionEditorProps) {
  const values = useWatch({ control }) as SubmitFormValues;
  const instant = scheduleInstant(values);
  const now = useNow(instant !== null);
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
      {values.scheduleMode === 'datetime' && (
        <Controller
          control={control}
          name="scheduleLocal"
          render={({ field }) => (
            <DateTimePicker
              label="Local date and time"
              withSeconds
              clearable
              value={field.value}
              onChange={(value) => field.onChange(value)}
              error={errors.scheduleLocal?.message}
              valueFormat="YYYY-MM-DD HH:mm:ss"
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
          {instant.getTime() < now && ' — in the past, so it runs now'}
        </Text>
      )}
    </Stack>
  );
}
