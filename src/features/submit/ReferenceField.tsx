import { Autocomplete, type ComboboxData } from '@mantine/core';
import { Controller, type Control } from 'react-hook-form';
import type { SubmitFormValues } from './form-model';

/**
 * A required identifier with its format: a searchable pick among what the service declares (when
 * it says), then the values this browser used recently; free text always works.
 */
export function ReferenceField(props: {
  control: Control<SubmitFormValues>;
  name: 'job_definition' | 'job_queue';
  label: string;
  format: string;
  example: string;
  recent: string[];
  /** What the service declares; null when it does not say. */
  declared: string[] | null;
  /** A value taken from the list (not typed). */
  onPick?: (value: string) => void;
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
          data={choices(props.declared, props.recent)}
          limit={50}
          maxDropdownHeight={320}
          onOptionSubmit={props.onPick}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function choices(declared: string[] | null, recent: string[]): ComboboxData {
  if (!declared) return recent;
  const others = recent.filter((value) => !declared.includes(value));
  return [
    { group: 'Declared by the service', items: declared },
    ...(others.length > 0 ? [{ group: 'Used recently', items: others }] : []),
  ];
}
