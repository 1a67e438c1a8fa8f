import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useFieldArray, useWatch } from 'react-hook-form';
import { unusedParameterKeys, type SectionEditorProps, type SubmitFormValues } from './form-model';
import { RowButton } from './RowButton';

export function ParametersEditor({ control, register, errors }: SectionEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'parameters' });
  const values = useWatch({ control }) as SubmitFormValues;
  const unused = unusedParameterKeys(values);

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Parameters (container_cmd_parameter)
      </Text>
      {fields.map((field, index) => {
        const key = values.parameters[index]?.key ?? '';
        return (
          <Group key={field.id} gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              {...register(`parameters.${index}.key`)}
              aria-label={`Parameter ${index + 1} key`}
              placeholder="key"
              style={{ flex: 1 }}
              error={errors.parameters?.[index]?.key?.message}
              description={
                key && unused.has(key) && values.command.length > 0
                  ? 'not used by any command word'
                  : undefined
              }
            />
            <TextInput
              {...register(`parameters.${index}.value`)}
              aria-label={`Parameter ${index + 1} value`}
              placeholder="value"
              style={{ flex: 2 }}
              error={errors.parameters?.[index]?.value?.message}
            />
            <RowButton
              label={`Remove parameter ${index + 1}`}
              glyph="✕"
              onClick={() => remove(index)}
            />
          </Group>
        );
      })}
      <Group>
        <Button variant="light" size="xs" onClick={() => append({ key: '', value: '' })}>
          Add parameter
        </Button>
      </Group>
    </Stack>
  );
}
