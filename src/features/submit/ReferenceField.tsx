import { Autocomplete } from '@mantine/core';
import { Controller, type Control } from 'react-hook-form';
import type { SubmitFormValues } from './form-model';

/** A required identifier with its format and the values this browser used recently. */
export function ReferenceField(props: {
  control: Control<SubmitFormValues>;
  name: 'job_definition' | 'job_queue';
  label: string;
  format: string;
  example: string;
  recent: string[];
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <Autocomplete
          {...field}
          label={props.label}
          description={props.format}
          placeholder={props.example}
          withAsterisk
          data={props.recent}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
