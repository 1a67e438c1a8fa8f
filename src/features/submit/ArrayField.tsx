import { Button, Group, Stack, Text } from '@mantine/core';
import { useController, useWatch } from 'react-hook-form';
import { ARRAY_INDEX_VARIABLE, ARRAY_LIMITS, ARRAY_SIZE_VARIABLE } from '../../../contract';
import type { SectionEditorProps } from './form-model';
import { arraySizeProblem } from './validate-form';
import { NumberField } from './NumberField';

const { minSize, maxSize } = ARRAY_LIMITS;

/** What the typed size will do, in words; `indexes`: only those run. */
function sizeText(typed: string, indexes: readonly number[]): string {
  if (typed.trim() === '') return 'Left empty, the job runs once.';
  if (arraySizeProblem(typed)) return 'Set, with a fault to fix.';
  const size = Number(typed);
  if (indexes.length > 0) {
    const children = indexes.length === 1 ? 'one child runs' : `${indexes.length} children run`;
    return `Set: only indexes ${indexes.join(', ')} again: ${children} the job's container, each with its ${ARRAY_INDEX_VARIABLE} and ${ARRAY_SIZE_VARIABLE}=${size}, as in the array they come from.`;
  }
  const count = size.toLocaleString('en');
  return `Set: ${count} children run the job's container, each with ${ARRAY_INDEX_VARIABLE} (0 to ${(size - 1).toLocaleString('en')}) and ${ARRAY_SIZE_VARIABLE}=${size}; the job's page follows them.`;
}

/**
 * The job as an array (extension, `array`): how many children run its container, each told its
 * index. Left empty, the body says nothing of arrays and the job runs once.
 */
export function ArrayField({ control, errors }: Pick<SectionEditorProps, 'control' | 'errors'>) {
  const typed = useWatch({ control, name: 'arraySize' });
  const indexes = useController({ control, name: 'arrayIndexes' }).field;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Array (array)
      </Text>
      <NumberField
        control={control}
        name="arraySize"
        label="Array size"
        description={`Optional: how many children, ${minSize} to ${maxSize.toLocaleString('en')}`}
        min={minSize}
        max={maxSize}
        allowDecimal={false}
        error={errors.arraySize?.message}
      />
      <Group gap="xs" wrap="nowrap" align="baseline">
        <Text size="xs" c="dimmed" data-testid="array-summary">
          {sizeText(typed, indexes.value)}
        </Text>
        {indexes.value.length > 0 && (
          <Button size="compact-xs" variant="subtle" onClick={() => indexes.onChange([])}>
            Run every index
          </Button>
        )}
      </Group>
    </Stack>
  );
}
