import {
  Button,
  Collapse,
  Group,
  Input,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useId, useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { RETRY_LIMITS, RETRY_REASONS, retryStrategySchema } from '../../../contract';
import { reasonText, strategyText } from '../../lib/retry-text';
import type { SectionEditorProps } from './form-model';
import { emptyRule, retryFromForm, retryIsSet } from './retry-model';
import { NumberField } from './NumberField';
import { RowButton } from './RowButton';

const REASON_CHOICES = [
  { value: '', label: 'any reason' },
  ...RETRY_REASONS.map((reason) => ({ value: reason, label: reasonText(reason) })),
];
const ACTION_CHOICES = [
  { value: 'retry', label: 'retry' },
  { value: 'exit', label: 'exit (no retry)' },
];

/**
 * The retry strategy (extension, `retry`), folded by default: how many attempts, the backoff
 * between them, and rules on how an attempt ended. Left empty, the body says nothing of retries
 * and the definition's strategy (shown when it has one) applies; set, it replaces that one whole.
 */
export function RetryEditor({
  control,
  register,
  errors,
  definitionDefault,
}: SectionEditorProps & {
  /** The picked definition's strategy in words; null when it has none, undefined when unknown. */
  definitionDefault: string | null | undefined;
}) {
  const retry = useWatch({ control, name: 'retry' });
  const { fields, append, remove } = useFieldArray({ control, name: 'retry.rules' });
  const set = retryIsSet(retry);
  const [opened, setOpened] = useState(set);
  // A fault in the strategy is never hidden in a folded section.
  const expanded = opened || Boolean(errors.retry);
  const valid = set ? retryStrategySchema.safeParse(retryFromForm(retry)) : null;
  const bodyId = useId();
  const retryErrors = errors.retry;
  const rulesProblem = retryErrors?.rules?.message ?? retryErrors?.rules?.root?.message;
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" fw={500} id="retry-label">
          Retries (retry)
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={expanded}
          aria-controls={bodyId}
          disabled={Boolean(errors.retry)}
          onClick={() => setOpened(!expanded)}
        >
          {expanded ? 'Hide retries' : 'Set retries'}
        </Button>
      </Group>
      {definitionDefault && (
        <Text size="sm" data-testid="definition-retry">
          Definition default: {definitionDefault}
        </Text>
      )}
      <Text size="xs" c="dimmed" data-testid="retry-summary">
        {set && valid?.success && `Set: ${strategyText(valid.data)}. `}
        {set && !valid?.success && 'Set, with faults to fix. '}
        {set && definitionDefault && "It replaces the definition's strategy as a whole."}
        {!set && definitionDefault && "Left empty, the definition's strategy applies."}
        {!set && definitionDefault === null && 'Left empty, the job runs once.'}
        {!set &&
          definitionDefault === undefined &&
          "Left empty, the definition's strategy applies, if it has one."}
      </Text>
      <Collapse expanded={expanded} id={bodyId}>
        <Stack gap="sm" pt="xs">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
            <NumberField
              control={control}
              name="retry.attempts"
              label="Attempts"
              description={`In all, the first included: 1 to ${RETRY_LIMITS.attemptsMax}`}
              min={1}
              max={RETRY_LIMITS.attemptsMax}
              allowDecimal={false}
              error={retryErrors?.attempts?.message}
            />
            <NumberField
              control={control}
              name="retry.initialSeconds"
              label="First delay (seconds)"
              description="Default 10"
              min={0}
              max={RETRY_LIMITS.initialSecondsMax}
              error={retryErrors?.initialSeconds?.message}
            />
            <NumberField
              control={control}
              name="retry.factor"
              label="Delay factor"
              description="Each delay is the last one times this; default 2"
              min={1}
              max={RETRY_LIMITS.factorMax}
              step={0.5}
              error={retryErrors?.factor?.message}
            />
            <NumberField
              control={control}
              name="retry.maxSeconds"
              label="Longest delay (seconds)"
              description="Default 300"
              min={0}
              max={RETRY_LIMITS.maxSecondsMax}
              error={retryErrors?.maxSeconds?.message}
            />
            <NumberField
              control={control}
              name="retry.jitter"
              label="Jitter"
              description="Part of each delay drawn at random, 0 to 1; default 0.2"
              min={0}
              max={1}
              step={0.1}
              error={retryErrors?.jitter?.message}
            />
          </SimpleGrid>
          <Text size="sm" fw={500}>
            Rules (on_exit)
          </Text>
          <Text size="xs" c="dimmed">
            In order, the first that matches decides; in a rule, every matcher given must match.
            Without a match, a failed, timed-out or erred attempt is retried while attempts remain.
            A cancelled job is never retried.
          </Text>
          {fields.map((field, index) => {
            const rule = retryErrors?.rules?.[index];
            const n = index + 1;
            return (
              <Group key={field.id} gap={6} align="flex-start" data-testid="retry-rule">
                <TextInput
                  {...register(`retry.rules.${index}.exitCodes`)}
                  aria-label={`Rule ${n} exit codes`}
                  placeholder="exit codes: 137, 1-5"
                  style={{ flex: '1 1 10rem' }}
                  error={rule?.exitCodes?.message}
                />
                <NativeSelect
                  {...register(`retry.rules.${index}.reason`)}
                  aria-label={`Rule ${n} reason`}
                  data={REASON_CHOICES}
                  error={rule?.reason?.message}
                />
                <TextInput
                  {...register(`retry.rules.${index}.status`)}
                  aria-label={`Rule ${n} status glob`}
                  placeholder="status: *node*"
                  style={{ flex: '1 1 8rem' }}
                  error={rule?.status?.message}
                />
                <NativeSelect
                  {...register(`retry.rules.${index}.action`)}
                  aria-label={`Rule ${n} action`}
                  data={ACTION_CHOICES}
                  error={rule?.action?.message}
                />
                <RowButton label={`Remove rule ${n}`} glyph="✕" onClick={() => remove(index)} />
              </Group>
            );
          })}
          {rulesProblem && <Input.Error>{rulesProblem}</Input.Error>}
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => append(emptyRule())}
              disabled={fields.length >= RETRY_LIMITS.rulesMax}
            >
              Add rule
            </Button>
          </Group>
        </Stack>
      </Collapse>
    </Stack>
  );
}
