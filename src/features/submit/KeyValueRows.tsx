import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useFieldArray, useWatch } from 'react-hook-form';
import type { SectionEditorProps, SubmitFormValues } from './form-model';
import { RowButton } from './RowButton';

/** The form's lists of `key: value` rows: parameters and labels. */
export function KeyValueRows({
  control,
  register,
  errors,
  name,
  title,
  noun,
  hintFor,
  max,
}: SectionEditorProps & {
  name: 'parameters' | 'labels';
  title: string;
  /** One row, as its controls are named: "parameter", "label". */
  noun: string;
  /** A note under a row's key, when there is something to say of it. */
  hintFor?: (key: string, values: SubmitFormValues) => string | undefined;
  max?: number;
}) {
  const { fields, append, remove } = useFieldArray({ control, name });
  const values = useWatch({ control }) as SubmitFormValues;
  const capitalized = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {fields.map((field, index) => {
        const key = values[name][index]?.key ?? '';
        return (
          <Group key={field.id} gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              {...register(`${name}.${index}.key`)}
              aria-label={`${capitalized} ${index + 1} key`}
              placeholder="key"
              style={{ flex: 1 }}
              error={errors[name]?.[index]?.key?.message}
              description={key ? hintFor?.(key, values) : undefined}
            />
            <TextInput
              {...register(`${name}.${index}.value`)}
              aria-label={`${capitalized} ${index + 1} value`}
              placeholder="value"
              style={{ flex: 2 }}
              error={errors[name]?.[index]?.value?.message}
            />
            <RowButton
              label={`Remove ${noun} ${index + 1}`}
              glyph="✕"
              onClick={() => remove(index)}
            />
          </Group>
        );
      })}
      <Group>
        <Button
          variant="light"
          size="xs"
          onClick={() => append({ key: '', value: '' })}
          disabled={max !== undefined && fields.length >= max}
        >
          Add {noun}
        </Button>
      </Group>
    </Stack>
  );
}
