import type { BulkAction, BulkFilter } from '../../../contract';

export const count = (n: number) => n.toLocaleString('en');
export const jobs = (n: number) => `${count(n)} ${n === 1 ? 'job' : 'jobs'}`;

/** The filter as the service was given it: `state=runnable · label=team=data`. */
export const filterText = (filter: BulkFilter) =>
  Object.entries(filter)
    .flatMap(([field, value]) => [value].flat().map((each) => `${field}=${String(each)}`))
    .join(' · ') || 'none: every job of the project';

/** "Reached 1,200 of 3,000 jobs: 1,190 accepted, 10 refused." */
export function progressText(action: BulkAction): string {
  const lead =
    action.state === 'running' ? 'Reached' : action.state === 'done' ? 'Done:' : 'Stopped after';
  return `${lead} ${count(action.processed)} of ${jobs(action.matched)}: ${count(action.accepted)} accepted, ${count(action.refused)} refused.`;
}
