import { Button, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useFieldArray, useWatch } from 'react-hook-form';
import type { SectionEditorProps } from './form-model';
import { RowButton } from './RowButton';

export function EnvEditor({ control, register, errors }: SectionEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'env' });
  const env = useWatch({ control, name: 'env' });

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Environment (container_env)
      </Text>
      <Text size="xs" c="dimmed">
        A sensitive value is encrypted by the service and can never be read back; the console keeps
        it only in this form, never in storage, the URL or the preview.
      </Text>
      {fields.map((field, index) => {
        const sensitive = env[index]?.sensitive ?? false;
        const valueProps = {
          ...register(`env.${index}.value`),
          'aria-label': `Variable ${index + 1} value`,
          placeholder: sensitive ? 'secret value' : 'value',
          style: { flex: 2 },
          error: errors.env?.[index]?.value?.message,
          autoComplete: 'off',
        };
        return (
          <Group key={field.id} gap={6} align="flex-start" wrap="nowrap">
            <TextInput
              {...register(`env.${index}.name`)}
              aria-label={`Variable ${index + 1} name`}
              placeholder="NAME"
              style={{ flex: 1 }}
              error={errors.env?.[index]?.name?.message}
            />
            {sensitive ? <PasswordInput {...valueProps} /> : <TextInput {...valueProps} />}
            <Switch
              {...register(`env.${index}.sensitive`)}
              // Shown from the form's value: a form filled after it rendered (a job submitted
              // again from what it ran) must show its sensitive switches on.
              checked={Boolean(env?.[index]?.sensitive)}
              label="sensitive"
              aria-label={`Variable ${index + 1} is sensitive`}
              mt={8}
            />
            <RowButton
              label={`Remove variable ${index + 1}`}
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
          onClick={() => append({ name: '', value: '', sensitive: false })}
        >
          Add variable
        </Button>
      </Group>
    </Stack>
  );
}
