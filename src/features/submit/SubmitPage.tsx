import { Alert, Button, Divider, Grid, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { DEFINITION_REF_FORMAT, QUEUE_REF_FORMAT } from '../../../contract';
import { isApiError } from '../../api/client';
import { useCapabilities } from '../../api/capabilities';
import { useSubmitJob } from '../../api/mutations';
import { useCan } from '../../api/permissions';
import { resubmitSourceQuery } from '../../api/queries';
import { RoleGate } from '../../components/RoleGate';
import { recentJobsStore, recentValuesStore } from '../../lib/history';
import { strategyText } from '../../lib/retry-text';
import { ArrayField } from './ArrayField';
import { CommandEditor } from './CommandEditor';
import { useDeclared, useNamedDefinition } from './declared';
import { DefinitionDetails } from './DefinitionDetails';
import { DependenciesEditor } from './DependenciesEditor';
import {
  emptyDependency,
  emptyForm,
  errorsFromMessage,
  formFromExecution,
  formFromPayload,
  payloadFromForm,
  type SubmitFormValues,
} from './form-model';
import { submitFormResolver } from './form-resolver';
import { ImportDialog } from './ImportDialog';
import { EnvEditor, LabelsEditor, ParametersEditor } from './RowSections';
import { PayloadPreview } from './PayloadPreview';
import { ReferenceField } from './ReferenceField';
import { RetryEditor } from './RetryEditor';
import { ScheduleField } from './ScheduleField';
import { SubmitProblems } from './SubmitProblems';

/** `indexes=3,7`: of the array submitted again, only those (its page's grid chose them). */
const indexesParam = (text: string | null): number[] | null => {
  const indexes = text?.split(',').map(Number);
  return indexes?.every((index) => Number.isInteger(index) && index >= 0) ? indexes : null;
};

/**
 * The form as the URL asks: `from`, a job submitted again (`indexes`: of its array, only those);
 * `after`, a job to wait for (to complete, the default type) from that job's page.
 */
function initialValues(
  fromId: string | null,
  afterId: string | null,
  indexes: number[] | null,
): { values: SubmitFormValues; resubmitted: boolean } {
  const source = fromId ? recentJobsStore.read().find((job) => job.id === fromId)?.payload : null;
  const values = source ? formFromPayload(source) : emptyForm();
  if (afterId) values.dependsOn = [emptyDependency(afterId)];
  if (source && indexes) values.arrayIndexes = indexes;
  return { values, resubmitted: Boolean(source) };
}

/** The form, for the roles that may submit; a viewer is told which role it needs. */
export default function SubmitPage() {
  const permission = useCan('submitJob');
  if (permission.allowed) return <SubmitForm />;
  return (
    <Stack maw={1200}>
      <Title order={2}>Submit a job</Title>
      <RoleGate permission={permission}>{null}</RoleGate>
    </Stack>
  );
}

function SubmitForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const fromId = searchParams.get('from');
  const afterId = searchParams.get('after');
  const indexesText = searchParams.get('indexes');
  const indexes = useMemo(() => indexesParam(indexesText), [indexesText]);
  const initial = useMemo(
    () => initialValues(fromId, afterId, indexes),
    [fromId, afterId, indexes],
  );
  const recent = recentValuesStore.use();
  const [importOpened, importDialog] = useDisclosure();
  const [serverProblems, setServerProblems] = useState<string[]>([]);

  const form = useForm<SubmitFormValues>({
    resolver: submitFormResolver,
    defaultValues: initial.values,
    // Not on blur: an error line appearing under a field just left shifts the layout under the pointer.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { control, register, handleSubmit, formState, setError, reset } = form;
  const values = useWatch({ control }) as SubmitFormValues;
  const declared = useDeclared();
  const named = useNamedDefinition(form, declared.definitions);
  // A command word's reference is checked against the parameters: re-check when their keys change.
  const parameterKeys = values.parameters.map((p) => p.key).join('\u0000');
  const { trigger } = form;
  const commandHasErrors = Boolean(formState.errors.command);
  useEffect(() => {
    if (commandHasErrors) void trigger('command');
  }, [parameterKeys, commandHasErrors, trigger]);
  // A job this browser did not submit (or forgot): submitted again from what it ran.
  const capabilities = useCapabilities().data;
  const source = useQuery({
    ...resubmitSourceQuery(fromId ?? ''),
    enabled: fromId !== null && !initial.resubmitted && capabilities?.execution === true,
  });
  useEffect(() => {
    if (!source.data) return;
    const { execution, arraySize, arrayIndexes } = source.data;
    reset(formFromExecution(execution, arraySize, indexes ?? arrayIndexes));
  }, [source.data, reset, indexes]);
  const needsSecretsAgain =
    (initial.resubmitted && initial.values.env.some((e) => e.sensitive)) ||
    (source.data?.execution.env.some((e) => e.sensitive) ?? false);

  // The named definition's retry strategy, which an empty Retries section leaves in force.
  const picked = named.definition;
  const definitionRetry = picked ? (picked.retry ? strategyText(picked.retry) : null) : undefined;

  const mutation = useSubmitJob();
  const onSubmit = handleSubmit((valid) => {
    setServerProblems([]);
    mutation.mutate(payloadFromForm(valid), {
      onSuccess: (id, payload) => {
        notifications.show({ title: 'Job submitted', message: payload.name ?? id, color: 'green' });
        void navigate(`/jobs/${encodeURIComponent(id)}`);
      },
      onError: (error, payload) => {
        if (!isApiError(error) || error.status !== 400) return;
        // The service names the fields at fault: put each reason at its control.
        const { fields, general } = errorsFromMessage(error.message, formFromPayload(payload));
        for (const [field, message] of Object.entries(fields)) {
          setError(
            field as keyof SubmitFormValues,
            { type: 'server', message },
            { shouldFocus: true },
          );
        }
        setServerProblems(general);
      },
    });
  });

  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={2}>Submit a job</Title>
        <Group gap="xs">
          <Button variant="default" onClick={importDialog.open}>
            Import JSON
          </Button>
          <Button variant="default" onClick={() => reset(emptyForm())}>
            Clear
          </Button>
        </Group>
      </Group>
      {needsSecretsAgain && (
        <Alert color="yellow" title="Submitting again">
          The form is filled from an earlier job. Sensitive values are never kept, so enter them
          again.
        </Alert>
      )}
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Submit a job"
        // For the browser tests: a definition typed whole has been looked up (and loaded).
        data-definition-settled={declared.definitionsKnown && named.settled}
      >
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack>
              <Paper withBorder p="md">
                <Stack gap="sm">
                  <ReferenceField
                    control={control}
                    name="job_definition"
                    label="Job definition"
                    format={DEFINITION_REF_FORMAT}
                    example="demo::hello:1"
                    recent={recent.definitions}
                    declared={declared.definitions?.map((d) => d.job_definition) ?? null}
                    onPick={named.onPick}
                  />
                  {picked && <DefinitionDetails definition={picked} />}
                  <ReferenceField
                    control={control}
                    name="job_queue"
                    label="Job queue"
                    format={QUEUE_REF_FORMAT}
                    example="demo::default"
                    recent={recent.queues}
                    declared={declared.queues}
                  />
                  <TextInput
                    {...register('name')}
                    label="Name"
                    description="Optional; unique among the queue's unfinished jobs"
                    error={formState.errors.name?.message}
                  />
                </Stack>
              </Paper>
              <Paper withBorder p="md">
                <CommandEditor control={control} errors={formState.errors} />
              </Paper>
              <Paper withBorder p="md">
                <ParametersEditor control={control} register={register} errors={formState.errors} />
              </Paper>
              <Paper withBorder p="md">
                <EnvEditor control={control} register={register} errors={formState.errors} />
              </Paper>
              <Paper withBorder p="md">
                <ScheduleField control={control} register={register} errors={formState.errors} />
              </Paper>
              {capabilities?.attempts && (
                <Paper withBorder p="md">
                  <RetryEditor
                    control={control}
                    register={register}
                    errors={formState.errors}
                    definitionDefault={definitionRetry}
                  />
                </Paper>
              )}
              {capabilities?.dependencies && (
                <Paper withBorder p="md">
                  <DependenciesEditor
                    control={control}
                    register={register}
                    errors={formState.errors}
                  />
                </Paper>
              )}
              {capabilities?.arrays && (
                <Paper withBorder p="md">
                  <ArrayField control={control} errors={formState.errors} />
                </Paper>
              )}
              {capabilities?.labels && (
                <Paper withBorder p="md">
                  <LabelsEditor control={control} register={register} errors={formState.errors} />
                </Paper>
              )}
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack style={{ position: 'sticky', top: 72 }}>
              <PayloadPreview payload={payloadFromForm(values)} />
              <Divider />
              <SubmitProblems
                formProblem={formState.errors.root?.message}
                serverProblems={serverProblems}
                error={mutation.error}
              />
              <Button type="submit" size="md" loading={mutation.isPending}>
                Submit job
              </Button>
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
      <ImportDialog
        opened={importOpened}
        onClose={importDialog.close}
        onImport={(payload) => reset(formFromPayload(payload))}
      />
    </Stack>
  );
}
