import { useQuery } from '@tanstack/react-query';
import type { DefinitionSummary, JobRecord } from '../../../contract';
import { useCapabilities } from '../../api/capabilities';
import { definitionListQuery, jobExecutionQuery } from '../../api/queries';
import { formatPeriod } from '../../lib/time';

/** The job's definition's `stop_grace_seconds`, when the service lists that definition. */
export function stopGraceOf(
  jobDefinition: string | undefined,
  definitions: readonly DefinitionSummary[] | null | undefined,
): number | null {
  const found = definitions?.find((definition) => definition.job_definition === jobDefinition);
  return found ? found.stop_grace_seconds : null;
}

/**
 * How a stop goes, in the words of what the service says: the definition's grace when the
 * extensions give it (the execution names the definition, the definitions list its grace), the
 * spec's "up to about two minutes" otherwise.
 */
export const stopWording = (graceSeconds: number | null) =>
  graceSeconds === null
    ? {
        dialog:
          'The container gets SIGTERM, then SIGKILL after its grace period. It can take up to about two minutes to become cancelled.',
        pending: 'it can take up to about two minutes.',
      }
    : {
        dialog: `The container gets SIGTERM, then SIGKILL after ${formatPeriod(graceSeconds)} (its definition's grace period). It becomes cancelled once the container has stopped.`,
        pending: `SIGKILL follows ${formatPeriod(graceSeconds)} after the SIGTERM (its definition's grace period).`,
      };

/** The grace period of the job's definition; null while unknown or when the service lacks the extensions. */
export function useStopGrace(job: JobRecord): number | null {
  const capabilities = useCapabilities().data;
  const offered = Boolean(capabilities?.execution && capabilities.definitions);
  const execution = useQuery({ ...jobExecutionQuery(job), enabled: offered });
  const definitions = useQuery({ ...definitionListQuery, enabled: offered });
  return offered ? stopGraceOf(execution.data?.job_definition, definitions.data) : null;
}
