import { Autocomplete, Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { parse } from 'shell-quote';
import { PARAM_PREFIX, paramKeyOf, resolveCommand } from '../../../contract';
import type { SectionEditorProps } from './form-model';
import { RowButton } from './RowButton';

/** Splits a pasted command line the way a POSIX shell would (quotes, escapes); operators stay words. */
export function splitCommandLine(line: string): string[] {
  return parse(line).map((token): string => {
    if (typeof token === 'string') return token;
    if ('op' in token) return String(token.op === 'glob' ? token.pattern : token.op);
    return 'comment' in token ? `#${token.comment}` : '';
  });
}

export function CommandEditor({ control, errors }: Omit<SectionEditorProps, 'register'>) {
  const { fields, append, remove, move, replace } = useFieldArray({ control, name: 'command' });
  const words = useWatch({ control, name: 'command' });
  const parameters = useWatch({ control, name: 'parameters' });
  const [pasted, setPasted] = useState('');
  // Each key once: a key typed twice (a fault the form names) must not break the suggestions.
  const keys = new Set(parameters.map((p) => p.key).filter(Boolean));
  const suggestions = [...keys].map((key) => `${PARAM_PREFIX}${key}`);
  const resolved = resolveCommand(
    words.map((w) => w.word),
    Object.fromEntries(parameters.map((p) => [p.key, p.value])),
  );

  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id="command-label">
        Command (container_cmd)
      </Text>
      <Text size="xs" c="dimmed">
        One word per row. Leave empty to run the definition&apos;s own command. A word{' '}
        <Code>Param::key</Code> is replaced by that parameter.
      </Text>
      <Stack gap={6} role="list" aria-labelledby="command-label">
        {fields.map((field, index) => {
          const moveBy = (delta: number) => {
            const target = index + delta;
            if (target >= 0 && target < fields.length) move(index, target);
          };
          return (
            <Group key={field.id} gap={6} wrap="nowrap" role="listitem" align="flex-start">
              <Controller
                control={control}
                name={`command.${index}.word`}
                render={({ field: input }) => (
                  <Autocomplete
                    {...input}
                    style={{ flex: 1 }}
                    aria-label={`Command word ${index + 1}`}
                    placeholder={index === 0 ? 'program' : 'argument or Param::key'}
                    data={input.value.startsWith('P') ? suggestions : []}
                    error={errors.command?.[index]?.word?.message}
                    leftSection={
                      <Text size="xs" c="dimmed">
                        {index}
                      </Text>
                    }
                    onKeyDown={(event) => {
                      // Alt+↑ / Alt+↓ reorder without leaving the keyboard.
                      if (event.altKey && event.key === 'ArrowUp') {
                        event.preventDefault();
                        moveBy(-1);
                      }
                      if (event.altKey && event.key === 'ArrowDown') {
                        event.preventDefault();
                        moveBy(1);
                      }
                    }}
                  />
                )}
              />
              <RowButton
                label={`Move word ${index + 1} up`}
                glyph="↑"
                disabled={index === 0}
                onClick={() => moveBy(-1)}
              />
              <RowButton
                label={`Move word ${index + 1} down`}
                glyph="↓"
                disabled={index === fields.length - 1}
                onClick={() => moveBy(1)}
              />
              <RowButton
                label={`Remove word ${index + 1}`}
                glyph="✕"
                onClick={() => remove(index)}
              />
            </Group>
          );
        })}
      </Stack>
      <Group gap="xs" align="flex-end">
        <Button variant="light" size="xs" onClick={() => append({ word: '' })}>
          Add word
        </Button>
        <TextInput
          size="xs"
          style={{ flex: 1 }}
          miw={220}
          label="Paste a command line"
          placeholder={`sh -c 'echo "hello $NAME"'`}
          value={pasted}
          onChange={(event) => setPasted(event.currentTarget.value)}
        />
        <Button
          size="xs"
          variant="default"
          disabled={!pasted.trim()}
          onClick={() => {
            replace(splitCommandLine(pasted).map((word) => ({ word })));
            setPasted('');
          }}
        >
          Split into words
        </Button>
      </Group>
      {words.length > 0 && (
        <Text size="sm" data-testid="command-preview">
          Runs:{' '}
          {resolved.ok ? (
            <Code>{JSON.stringify(resolved.command)}</Code>
          ) : (
            <Text span c="red">
              word {resolved.index} needs parameter &quot;{resolved.key}&quot;
            </Text>
          )}
          {words.some((w) => paramKeyOf(w.word) !== null) && resolved.ok && (
            <Text span c="dimmed" size="xs">
              {' '}
              (parameters substituted)
            </Text>
          )}
        </Text>
      )}
    </Stack>
  );
}
