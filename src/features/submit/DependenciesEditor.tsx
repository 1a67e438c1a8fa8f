import {
  Button,
  Collapse,
  Group,
  Input,
  NativeSelect,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useId, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { DEPENDENCY_LIMITS, DEPENDENCY_TYPES, DEPENDENCY_TYPE_WORDS } from '../../../contract';
import { emptyDependency, type SectionEditorProps } from './form-model';
import { RowButton } from './RowButton';

const TYPE_CHOICES = DEPENDENCY_TYPES.map((type) => ({
  value: type,
  label: `${type}: ${DEPENDENCY_TYPE_WORDS[type]}`,
}));

/**
 * The jobs this one waits for (extension, `depends_on`), folded by default: one row per job, its
 * id and what it must do first. Without rows the body says nothing of dependencies.
 */
export function DependenciesEditor({ control, register, errors }: SectionEditorProps) {
  const { fields, append, remove } = useFieldArray({ control, name: 'dependsOn' });
  const set = fields.length > 0;
  // Opened when the form comes with rows (a job to submit after another one).
  const [opened, setOpened] = useState(set);
  // A fault in the dependencies is never hidden in a folded section.
  const expanded = opened || Boolean(errors.dependsOn);
  const bodyId = useId();
  const listProblem = errors.dependsOn?.message ?? errors.dependsOn?.root?.message;
  const jobs = fields.length === 1 ? '1 job' : `${fields.length} jobs`;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          Dependencies (depends_on)
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={expanded}
          aria-controls={bodyId}
          disabled={Boolean(errors.dependsOn)}
          onClick={() => setOpened(!expanded)}
        >
          {expanded ? 'Hide dependencies' : 'Set dependencies'}
        </Button>
      </Group>
      <Text size="xs" c="dimmed" data-testid="dependencies-summary">
        {set
          ? `Set: the job waits for ${jobs}, pending until each has ended as its type asks, and is cancelled if one no longer can.`
          : 'Left empty, the job waits for no other job.'}
      </Text>
      <Collapse expanded={expanded} id={bodyId}>
        <Stack gap="sm" pt="xs">
          <Text size="xs" c="dimmed">
            Jobs of this project that exist now, each once, at most {DEPENDENCY_LIMITS.perJob}.
          </Text>
          {fields.map((field, index) => {
            const row = errors.dependsOn?.[index];
            const n = index + 1;
            return (
              <Group key={field.id} gap={6} align="flex-start" data-testid="dependency-row">
                <TextInput
                  {...register(`dependsOn.${index}.jobId`)}
                  aria-label={`Dependency ${n} job id`}
                  placeholder="job id (a UUID)"
                  style={{ flex: '1 1 20rem' }}
                  autoComplete="off"
                  error={row?.jobId?.message}
                />
                <NativeSelect
                  {...register(`dependsOn.${index}.type`)}
                  aria-label={`Dependency ${n} type`}
                  data={TYPE_CHOICES}
                  error={row?.type?.message}
                />
                <RowButton
                  label={`Remove dependency ${n}`}
                  glyph="✕"
                  onClick={() => remove(index)}
                />
              </Group>
            );
          })}
          {listProblem && <Input.Error>{listProblem}</Input.Error>}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => append(emptyDependency())}
              disabled={fields.length >= DEPENDENCY_LIMITS.perJob}
            >
              Add dependency
            </Button>
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}
