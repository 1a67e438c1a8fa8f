import { useQuery } from '@tanstack/react-query';
import { useDebouncedCallback } from '@mantine/hooks';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { useCapabilities } from '../../api/capabilities';
import type { DefinitionSummary as DeclaredDefinition } from '../../../contract';
import { definitionListQuery, queueNamesQuery } from '../../api/queries';
import type { SubmitFormValues } from './form-model';

/** What the service declares for the pickers; null where it does not say (a spec-only service). */
export function useDeclared(): {
  definitions: DeclaredDefinition[] | null;
  queues: string[] | null;
  /** Whether the definitions are known: read, failed, or not offered. */
  definitionsKnown: boolean;
} {
  const capabilities = useCapabilities().data;
  const definitions = useQuery({
    ...definitionListQuery,
    enabled: capabilities?.definitions === true,
  });
  const queues = useQuery({ ...queueNamesQuery, enabled: capabilities?.queues === true });
  return {
    definitions: definitions.data ?? null,
    queues: queues.data ?? null,
    definitionsKnown:
      capabilities !== undefined &&
      (capabilities.definitions !== true || definitions.isSuccess || definitions.isError),
  };
}

const commandOf = (definition: DeclaredDefinition) => definition.command.map((word) => ({ word }));
const parametersOf = (definition: DeclaredDefinition) =>
  Object.entries(definition.parameters).map(([key, value]) => ({ key, value }));
const sameFill = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Picking a definition fills the command and the parameters with its own, so that what will run
 * is on the page to edit. Only over what is empty or what an earlier pick filled in: words a
 * person typed are never replaced.
 */
function useDefinitionFill(
  form: UseFormReturn<SubmitFormValues>,
): (definition: DeclaredDefinition) => void {
  const lastFill = useRef<Pick<SubmitFormValues, 'command' | 'parameters'> | null>(null);
  return useCallback(
    (definition) => {
      const current = form.getValues();
      const untouched =
        (current.command.length === 0 && current.parameters.length === 0) ||
        sameFill({ command: current.command, parameters: current.parameters }, lastFill.current);
      if (!untouched) return;
      const fill = { command: commandOf(definition), parameters: parametersOf(definition) };
      form.setValue('command', fill.command, { shouldDirty: true });
      form.setValue('parameters', fill.parameters, { shouldDirty: true });
      lastFill.current = fill;
    },
    [form],
  );
}

/** How long typing rests before a name typed whole loads its definition. */
export const TYPED_DEFINITION_DELAY_MS = 300;

/**
 * The definition the form names, and its loading: picked from the list, or typed whole (once the
 * typing rests), it fills the form alike. The service matches a reference exactly (case and all),
 * so the form does too: `Demo::hello:1` loads nothing where `demo::hello:1` is declared.
 */
export function useNamedDefinition(
  form: UseFormReturn<SubmitFormValues>,
  definitions: DeclaredDefinition[] | null,
): {
  definition: DeclaredDefinition | undefined;
  onPick: (ref: string) => void;
  /** Whether what is typed has rested and been looked up (or there is no list to look in). */
  settled: boolean;
} {
  const fill = useDefinitionFill(form);
  const find = (ref: string) => definitions?.find((d) => d.job_definition === ref.trim());
  const typed = useWatch({ control: form.control, name: 'job_definition' });
  // What was last looked up, in which list, once typing rested: settled when it is what the field
  // holds, in the list the page has.
  const [lookedUp, setLookedUp] = useState({ ref: typed, in: definitions });
  const lookUp = useDebouncedCallback((ref: string) => {
    const definition = find(ref);
    if (definition) fill(definition);
    setLookedUp({ ref, in: definitions });
  }, TYPED_DEFINITION_DELAY_MS);
  // Again once the list is read: a name typed before it came is looked up in it.
  useEffect(() => lookUp(typed), [typed, definitions, lookUp]);
  return {
    definition: find(typed),
    settled: definitions === null || (lookedUp.ref === typed && lookedUp.in === definitions),
    onPick: (ref) => {
      const picked = find(ref);
      if (picked) fill(picked);
    },
  };
}
