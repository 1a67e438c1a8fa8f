import { useCapabilities } from '../../api/capabilities';
import { useCan } from '../../api/permissions';
import { recentJobsStore } from '../../lib/history';

/**
 * Whether the submit form can be filled from this job: a role that may submit, and what the job
 * was submitted with (this browser's own submission) or what it ran (a service that describes
 * any job's execution).
 */
export function useCanResubmit(jobId: string): boolean {
  const describable = useCapabilities().data?.execution === true;
  const canSubmit = useCan('submitJob').allowed;
  const submittedHere = recentJobsStore
    .use()
    .some((recent) => recent.id === jobId && recent.payload);
  return canSubmit && (submittedHere || describable);
}

/** The submit form filled from the job; `indexes`: of its array, only those again. */
export const resubmitPath = (jobId: string, indexes?: readonly number[]) =>
  `/submit?from=${encodeURIComponent(jobId)}${indexes ? `&indexes=${indexes.join(',')}` : ''}`;
