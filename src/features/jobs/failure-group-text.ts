import type { FailureGroup } from '../../../contract';

/** "exit 1 · error: upstream returned 503", or the state where there is no exit code. */
export function causeText(group: FailureGroup): string {
  const outcome = group.exit_code === null ? group.state : `exit ${group.exit_code}`;
  return group.cause === null ? `${outcome} · no cause recorded` : `${outcome} · ${group.cause}`;
}

/** The jobs table showing exactly the group's jobs: its filter names them by id. */
export function groupJobsPath(group: FailureGroup): string {
  const ids = [group.filter.id ?? []].flat().map(String);
  const search = new URLSearchParams(ids.map((id) => ['id', id]));
  return `/jobs?${search.toString()}`;
}
