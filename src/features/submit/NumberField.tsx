import { NumberInput } from '@mantine/core';
import { Controller, type Control } from 'react-hook-form';
import type { SubmitFormValues } from './form-model';

/** The form's numbers, each kept as typed (text). */
type NumberName =
  | 'retry.attempts'
  | 'retry.initialSeconds'
  | 'retry.factor'
  | 'retry.maxSeconds'
  | 'retry.jitter'
  | 'arraySize';

/** A number typed as text (empty: left out), never clamped: a value out of range is named instead. */
export function NumberField(props: {
  control: Control<SubmitFormValues>;
  name: NumberName;
  label: string;
  description: string;
  min: number;
  max: number;
  step?: number;
  allowDecimal?: boolean;
  error: string | undefined;
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field }) => (
        <NumberInput
          name={field.name}
          ref={field.ref}
          value={field.value}
          onChange={(value) => field.onChange(String(value))}
          onBlur={field.onBlur}
          label={props.label}
          description={props.description}
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          allowDecimal={props.allowDecimal ?? true}
          allowNegative={false}
          clampBehavior="none"
          error={props.error}
        />
      )}
    />
  );
}
