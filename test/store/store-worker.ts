/**
 * A separate client of a store for the contract suite's races: `open` opens it (migrating) and
 * prints what it migrated; `claim` takes part in a claim race and prints what it claimed; `move`
 * asks for every move given at once (one batch) and prints how each came out; `claim-once` makes
 * one claim as given and prints what it claimed, or that its lease was lost.
 * Usage (the tests run it bundled, test/support/bundled-script.ts): node --import tsx
 * store-worker.ts '<store config JSON>' open | claim <owner> <spec JSON> | move - <changes JSON>
 * | claim-once - <claim JSON>
 */
import { existsSync, writeFileSync } from 'node:fs';
import { openStore } from '../../server/store/open-store';
import { LeaseLostError } from '../../server/jobs/lease-fence';
import type { Claim, Job, StateChange } from '../../server/jobs/model';
import type { Store } from '../../server/store/ports';
import type { StoreConfig } from './drivers';

export interface ClaimRace {
  queues: { queue: string; queueMax: number }[];
  serviceMax: number;
  /** Jobs per claim at most. */
  limit: number;
  /** How long a claimed job holds its slot, at most (ms). */
  holdMs: number;
  /**
   * A path: each worker, once its store is open, creates `<barrier>.<owner>` and claims only once
   * `<barrier>` exists, so that every worker is in the race however slowly it started.
   */
  barrier: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the job through its slot: starting → running → completed, after a random hold. */
async function runBriefly(store: Store, job: Job, holdMs: number): Promise<void> {
  await sleep(Math.random() * holdMs);
  const at = Date.now();
  await store.jobs.moveJob({ id: job.id, from: 'starting', to: 'running', at, note: null });
  await store.jobs.moveJob({ id: job.id, from: 'running', to: 'completed', at, note: null });
}

/** Claims from every queue in turn until no runnable job is left; returns what it claimed. */
async function claimUntilNoneLeft(store: Store, owner: string, race: ClaimRace) {
  const claimed: string[] = [];
  const running: Promise<void>[] = [];
  for (;;) {
    let got = 0;
    for (const { queue, queueMax } of race.queues) {
      const jobs = await store.jobs.claimRunnable(
        { queue, limit: race.limit, queueMax, serviceMax: race.serviceMax, owner, at: Date.now() },
        () => `claimed by ${owner}`,
      );
      got += jobs.length;
      for (const job of jobs) {
        claimed.push(job.id);
        running.push(runBriefly(store, job, race.holdMs));
      }
    }
    if (got > 0) continue;
    if ((await store.jobs.jobsInStates(['runnable'])).length === 0) break;
    await sleep(1); // every slot is held: wait for one to free
  }
  await Promise.all(running);
  return claimed;
}

const [configJson, command, owner, specJson] = process.argv.slice(2);
const store = await openStore(JSON.parse(configJson!) as StoreConfig);
try {
  if (command === 'open') {
    process.stdout.write(JSON.stringify({ migrated: store.migrated }));
  } else if (command === 'claim') {
    const race = JSON.parse(specJson!) as ClaimRace;
    writeFileSync(`${race.barrier}.${owner}`, '');
    while (!existsSync(race.barrier)) await sleep(5);
    const claimed = await claimUntilNoneLeft(store, owner!, race);
    process.stdout.write(JSON.stringify({ claimed }));
  } else if (command === 'move') {
    const changes = JSON.parse(specJson!) as StateChange[];
    const outcomes = await Promise.allSettled(changes.map((change) => store.jobs.moveJob(change)));
    process.stdout.write(JSON.stringify(outcomes.map((outcome) => outcome.status)));
  } else if (command === 'claim-once') {
    const claim = JSON.parse(specJson!) as Claim;
    const outcome = await store.jobs
      .claimRunnable(claim, () => 'claimed')
      .then(
        (jobs) => ({ claimed: jobs.map((job) => job.id) }),
        (error: unknown) => {
          if (error instanceof LeaseLostError) return { leaseLost: true };
          throw error;
        },
      );
    process.stdout.write(JSON.stringify(outcome));
  } else {
    throw new Error(`unknown command ${command}`);
  }
} finally {
  await store.close();
}
