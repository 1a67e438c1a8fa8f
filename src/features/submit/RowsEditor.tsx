import { Button, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useFieldArray, useWatch, type FieldPath } from 'react-hook-form';
import type { SectionEditorProps, SubmitFormValues } from './form-model';
import { RowButton } from './RowButton';

/** The form's lists of `key: value` rows; env's key is a variable's name, and it may be sensitive. */
export type RowsSection = 'parameters' | 'labels' | 'env';

/**
 * One editor for every list of `key: value` rows of the form (parameters, environment, labels):
 * each row a key, a value and its remove button, then an Add button. The environment's rows also
 * have a sensitive switch, which masks the value.
 */
export function RowsEditor({
  control,
  register,
  errors,
  section,
  title,
  description,
  noun,
  keyWord = 'key',
  hintFor,
  max,
}: SectionEditorProps & {
  section: RowsSection;
  title: string;
  description?: ReactNode;
  /** One row, as its controls are named: "parameter", "variable", "label". */
  noun: string;
  /** What a row's key is called in its control's name: "key", or a variable's "name". */
  keyWord?: string;
  /** A note under a row's key, when there is something to say of it. */
  hintFor?: (key: string, values: SubmitFormValues) => string | undefined;
  max?: number;
}) {
  const { fields, append, remove } = useFieldArray({ control, name: section });
  const values = useWatch({ control }) as SubmitFormValues;
  const withSensitive = section === 'env';
  const keyField = withSensitive ? 'name' : 'key';
  const capitalized = noun.charAt(0).toUpperCase() + noun.slice(1);
  const path = (index: number, field: string) =>
    `${section}.${index}.${field}` as FieldPath<SubmitFormValues>;
  const rowErrors = errors[section] as
    Record<string, { message?: string } | undefined>[] | undefined;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        {title}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      {fields.map((field, index) => {
        const row = values[section][index] as Record<string, unknown> | undefined;
        const key = String(row?.[keyField] ?? '');
        const sensitive = withSensitive && Boolean(row?.sensitive);
        const valueProps = {
          ...register(path(index, 'value')),
          'aria-label': `${capitalized} ${index + 1} value`,
          placeholder: sensitive ? 'secret value' : 'value',
          style: { flex: 2 },
          error: rowErrors?.[index]?.value?.message,
          autoComplete: 'off',
        };
        return (
          <Group key={field.id} gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              {...register(path(index, keyField))}
              aria-label={`${capitalized} ${index + 1} ${keyWord}`}
              placeholder={withSensitive ? 'NAME' : 'key'}
              style={{ flex: 1 }}
              error={rowErrors?.[index]?.[keyField]?.message}
              description={key ? hintFor?.(key, values) : undefined}
            />
            {sensitive ? <PasswordInput {...valueProps} /> : <TextInput {...valueProps} />}
            {withSensitive && (
              <Switch
                {...register(path(index, 'sensitive'))}
                // Shown from the form's value: a form filled after it rendered (a job submitted
                // again from what it ran) must show its sensitive switches on.
                checked={sensitive}
                label="sensitive"
                aria-label={`${capitalized} ${index + 1} is sensitive`}
                mt={8}
              />
            )}
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
          onClick={() =>
            append(
              (withSensitive
                ? { name: '', value: '', sensitive: false }
                : { key: '', value: '' }) as never,
            )
          }
          disabled={max !== undefined && fields.length >= max}
        >
          Add {noun}
        </Button>
      </Group>
    </Stack>
  );
}
