import { ARRAY_CHUNK, arrayIndexes, childIds, childrenInChunks, followedChildIds } from './arrays';
import type { Dispatcher } from './dispatcher';
import { invalid } from './errors';
import { parentRole, type Admission, type IdempotencyKey } from './model';
import type { JobStore } from './ports';
import { admissionOf, type JobStateMachine } from './state-machine';
import type { JobPlan } from './submission';

/** What an array's admission works with: every row it stores goes through the state machine. */
export interface ArrayAdmissionParts {
  store: Pick<JobStore, 'getJob' | 'arrayChildIds'>;
  machine: JobStateMachine;
  dispatcher: Pick<Dispatcher, 'kick'>;
}

/**
 * Stores a submitted array: the parent with its first children in one transaction, then the
 * rest a chunk at a time, letting other requests through in between: ten thousand rows in one
 * go held every other submit for the whole write (docs/benchmarks.md). What a crash leaves
 * unstored, the settler stores (ArraySettler). `dependencies`: the parent's admission when it
 * waits for other jobs.
 */
export async function admitArray(
  parts: ArrayAdmissionParts,
  plan: JobPlan,
  dependencies: Admission | undefined,
  idempotency?: IdempotencyKey,
) {
  const { job: parent, definitionFingerprint } = plan;
  const indexes = arrayIndexes(parentRole(parent)!);
  const admission = dependencies ?? admissionOf(parent, parent.createdAt);
  const followed = await followedArray(parts.store, plan);
  const ids = childIds(indexes, new Map(), followed);
  const chunks = childrenInChunks(parent, admission, indexes, ids, ARRAY_CHUNK);
  const first = chunks.next().value!;
  // Heard of like an admitted job; `dispatcher.admitted` then claims its children in its queue.
  // The key goes with the first transaction: what a crash leaves of the rest, the settler stores.
  const result = await parts.machine.admitArray(
    parent,
    admission,
    first,
    definitionFingerprint,
    idempotency,
  );
  if (!result.inserted) return result;
  for (const chunk of chunks) {
    await new Promise((resolve) => setImmediate(resolve));
    await parts.machine.admitArrayChildren(chunk);
  }
  // Children that follow others are moved on by the dependency check of a full tick.
  if ('links' in parent.array!) parts.dispatcher.kick();
  return result;
}

/**
 * The children of the array an n_to_n dependency names, by index: an array of this project,
 * of the same size, with its children stored. Refused at the field otherwise.
 */
async function followedArray(
  store: ArrayAdmissionParts['store'],
  { job: parent, nToNField }: JobPlan,
): Promise<string[] | null> {
  const { size, links } = parentRole(parent)!;
  const id = links?.nToN;
  if (id === undefined) return null;
  const refuse = (reason: string) => invalid(`depends_on[${nToNField}].job_id: ${reason}`);
  const other = await store.getJob(id);
  if (!other || other.project !== parent.project) throw refuse(`no job ${id} in this project`);
  const arrayFollowed = parentRole(other);
  if (!arrayFollowed) {
    throw refuse(`job ${id} is not an array job, so n_to_n has no child to follow`);
  }
  if (arrayFollowed.indexes) {
    throw refuse(
      `job ${id} runs only some of its indexes, so n_to_n has no child to follow for each`,
    );
  }
  if (arrayFollowed.size !== size) {
    throw refuse(
      `job ${id} has ${arrayFollowed.size} children and this array ${size}: n_to_n needs the same size`,
    );
  }
  const followed = await followedChildIds(store, parent);
  if (followed === null || followed.length < size) {
    throw refuse(`job ${id} is still storing its children; submit again in a moment`);
  }
  return followed;
}
