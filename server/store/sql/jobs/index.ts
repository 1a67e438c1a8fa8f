import type { Kysely } from 'kysely';
import type {
  JobStore,
  QueueControlStore,
  RetentionStore,
  ScheduleStore,
} from '../../../jobs/ports';
import type { JobCounts, SealedEnvStore } from '../../ports';
import type { Database } from '../../schema';
import type { StoreDialect } from '../dialect';
import { JobAdmission } from './admission';
import { ArrayPlans, JobArrayRows } from './arrays';
import { JobAttemptRows } from './attempts';
import { JobUsageRows } from './usage';
import { ShareUseRows } from './share-use';
import { JobChangeFeed } from './change-feed';
import { JobDependencyRows } from './dependencies';
import { jobTables } from './context';
import { heldKey } from './idempotency';
import { JobLogRows } from './logs';
import { JobMoves } from './moves';
import { JobReads } from './reads';
import { JobRetention } from './retention';
import { SqlQueueControlStore } from './queue-controls';
import { SqlScheduleStore } from './schedules';
import { SqlSealedEnvStore } from './sealed-env';

/**
 * The job tables over Kysely, one SQL for every driver (what differs between databases comes
 * from the driver's dialect), one module per family of operations. The domain sees them as one
 * JobStore; a new family (attempts, arrays, dependencies) is a module and a line here.
 */
export function sqlJobStores(
  db: Kysely<Database>,
  dialect: StoreDialect,
): {
  jobs: JobStore;
  schedules: ScheduleStore;
  queues: QueueControlStore;
  sealedEnv: SealedEnvStore;
  counts: JobCounts;
  retention: RetentionStore;
} {
  const tables = jobTables(db, dialect);
  const admission = new JobAdmission(tables);
  const moves = new JobMoves(tables);
  const reads = new JobReads(tables);
  const feed = new JobChangeFeed(tables);
  const logs = new JobLogRows(tables);
  const attempts = new JobAttemptRows(tables);
  const usage = new JobUsageRows(tables);
  const shareUse = new ShareUseRows(tables);
  const dependencies = new JobDependencyRows(tables);
  const arrays = new JobArrayRows(tables);
  // Every job read goes through `plans`: a child's command and environment are its parent's.
  const plans = new ArrayPlans(tables);
  const jobs: JobStore = {
    insertJob: (job, fingerprint, how, idempotency) =>
      admission.insertJob(job, fingerprint, how, idempotency),
    heldKey: (project, key, now) => heldKey(db, project, key, now),
    moveJob: async (change) => plans.completeOne(await moves.moveJob(change)),
    setNote: (params) => moves.setNote(params),
    requestPreemption: (params) => moves.requestPreemption(params),
    claimRunnable: async (claim, noteFor) =>
      plans.complete(await moves.claimRunnable(claim, noteFor)),
    takeOver: (params) => moves.takeOver(params),
    activeCountsByQueue: () => moves.activeCountsByQueue(),
    shareUse: (params) => shareUse.shareUse(params),
    addShareUse: (entries, forgetBefore) => shareUse.addShareUse(entries, forgetBefore),
    waitingByReason: (now, fallback) => shareUse.waitingByReason(now, fallback),
    runsSince: (since, fallback) => shareUse.runsSince(since, fallback),
    getJob: async (id) => plans.completeOne(await reads.getJob(id)),
    jobsInStates: async (states) => plans.complete(await reads.jobsInStates(states)),
    dueJobs: (now) => reads.dueJobs(now),
    nextScheduleAt: (now) => reads.nextScheduleAt(now),
    listJobs: (filter) => reads.listJobs(filter),
    countJobs: (filter, atMost) => reads.countJobs(filter, atMost),
    countJobsByState: (filter, atMost) => reads.countJobsByState(filter, atMost),
    firstInStates: async (queue, states) =>
      plans.completeOne(await reads.firstInStates(queue, states)),
    firstEligibleWaiting: async (queue, now) =>
      plans.completeOne(await reads.firstEligibleWaiting(queue, now)),
    placeInQueue: (params) => reads.placeInQueue(params),
    countByQueue: (params) => reads.countByQueue(params),
    transitions: (id) => feed.transitions(id),
    lastChangeSeq: () => feed.lastChangeSeq(),
    changeHorizon: () => feed.changeHorizon(),
    changesAfter: (params) => feed.changesAfter(params),
    getLogs: (id) => logs.getLogs(id),
    attempts: (id) => attempts.attempts(id),
    attemptLogs: (id, attempt) => attempts.attemptLogs(id, attempt),
    recordUsage: (jobId, sample) => usage.recordUsage(jobId, sample),
    usage: (jobId) => usage.usage(jobId),
    recentRuns: (definition, limit, scan) => usage.recentRuns(definition, limit, scan),
    jobsAwaitingDependencies: () => dependencies.jobsAwaitingDependencies(),
    jobSummaries: (ids) => dependencies.jobSummaries(ids),
    dependencyEnds: (jobIds) => dependencies.dependencyEnds(jobIds),
    dependents: (id, limit) => dependencies.dependents(id, limit),
    insertArray: (parent, how, children, fingerprint, idempotency) =>
      admission.insertArray(parent, how, children, fingerprint, idempotency),
    insertArrayChildren: (children) => admission.insertArrayChildren(children),
    arrayChildIds: (parentId) => arrays.arrayChildIds(parentId),
    arrayCounts: (parentId) => arrays.arrayCounts(parentId),
    arrayChildren: async (params) => {
      const page = await arrays.arrayChildren(params);
      return { ...page, items: await plans.complete(page.items) };
    },
    unfinishedArrayParents: () => arrays.unfinishedArrayParents(),
    moveArrayChildren: (parentId, move) => arrays.moveArrayChildren(parentId, move),
  };
  return {
    jobs,
    schedules: new SqlScheduleStore(tables, admission),
    queues: new SqlQueueControlStore(tables.db),
    sealedEnv: new SqlSealedEnvStore(tables),
    counts: reads,
    retention: new JobRetention(tables),
  };
}
