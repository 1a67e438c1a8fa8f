import type { Kysely } from 'kysely';
import type { Database } from '../../schema';

/**
 * How far a job's sequence number may trail its creation time: its write batch and the instances'
 * clocks (docs/guides/job-list.md). A job inserted later than this after its created_at, or
 * by an instance whose clock is further off, could be missed by a time range.
 */
export const CREATION_SLACK_MS = 10_000;

/** Exclusive bounds on `seq` that hold every job a time range can match. */
export interface SeqWindow {
  above?: number;
  below?: number;
}

/**
 * A time range as a range of sequence numbers, so that the list (newest first by seq) starts its
 * walk at the range instead of at the newest job: the seq of the jobs created a slack beyond each
 * end, each one probe of the (project, created_at) index. The rows' created_at is still checked,
 * so the window only narrows what is read, never what matches.
 */
export async function seqWindow(
  db: Kysely<Database>,
  project: string,
  createdAfter: number | undefined,
  createdBefore: number | undefined,
): Promise<SeqWindow> {
  const edge = (op: '>=' | '<=', at: number) =>
    db
      .selectFrom('jobs')
      .select('seq')
      .where('project', '=', project)
      .where('array_parent', 'is', null)
      .where('created_at', op, at)
      .orderBy('created_at', op === '>=' ? 'asc' : 'desc')
      .limit(1)
      .executeTakeFirst();
  const [after, before] = await Promise.all([
    createdAfter === undefined ? undefined : edge('<=', createdAfter - CREATION_SLACK_MS),
    createdBefore === undefined ? undefined : edge('>=', createdBefore + CREATION_SLACK_MS),
  ]);
  return { above: after && Number(after.seq), below: before && Number(before.seq) };
}
