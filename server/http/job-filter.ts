import { labelSelectorText, type bulkFilterSchema } from '../../contract';
import type { JobFilter } from '../jobs/list-filter';
import type { z } from 'zod';

type FilterFields = z.infer<typeof bulkFilterSchema>;
type ProjectJobFilter = Omit<JobFilter, 'project'>;

const timeOf = (text: string | undefined) => (text === undefined ? undefined : Date.parse(text));
const textOf = (time: number | undefined) =>
  time === undefined ? undefined : new Date(time).toISOString();

/** The list's filters as the domain takes them: from the list's query or a bulk action's body. */
export function jobFilterOf(fields: FilterFields): ProjectJobFilter {
  return {
    states: fields.state,
    queue: fields.queue,
    namePrefix: fields.name,
    ids: fields.id?.map((id) => id.toLowerCase()),
    createdAfter: timeOf(fields.created_after),
    createdBefore: timeOf(fields.created_before),
    endedAfter: timeOf(fields.ended_after),
    endedBefore: timeOf(fields.ended_before),
    labels: fields.label,
  };
}

/** The filter in the fields a client gives it, those not given left out. */
export function filterFieldsOf(filter: ProjectJobFilter): Record<string, unknown> {
  const fields = {
    state: filter.states,
    queue: filter.queue,
    name: filter.namePrefix,
    id: filter.ids,
    created_after: textOf(filter.createdAfter),
    created_before: textOf(filter.createdBefore),
    ended_after: textOf(filter.endedAfter),
    ended_before: textOf(filter.endedBefore),
    label: filter.labels?.map(labelSelectorText),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
