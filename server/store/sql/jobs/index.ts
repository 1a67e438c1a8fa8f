import type { Kysely } from 'kysely';
import type { JobStore, ScheduleStore } from '../../../jobs/ports';
import type { JobCounts, SealedEnvStore } from '../../ports';
import type { Database } from '../../schema';
import type { StoreDialect } from '../dialect';
import { JobAdmission } from './admission';
import { JobAttemptRows } from './attempts';
import { JobChangeFeed } from './change-feed';
import { JobDependencyRows } from './dependencies';
import { jobTables } from './context';
import { JobLogRows } from './logs';
import { JobMoves } from './moves';
import { JobReads } from './reads';
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
): { jobs: JobStore; schedules: ScheduleStore; sealedEnv: SealedEnvStore; counts: JobCounts } {
  const tables = jobTables(db, dialect);
  const admission = new JobAdmission(tables);
  const moves = new JobMoves(tables);
  const reads = new JobReads(tables);
  const feed = new JobChangeFeed(tables);
  const logs = new JobLogRows(tables);
  const attempts = new JobAttemptRows(tables);
  const dependencies = new JobDependencyRows(tables);
  const jobs: JobStore = {
    insertJob: (job, fingerprint, how) => admission.insertJob(job, fingerprint, how),
    moveJob: (change) => moves.moveJob(change),
    setNote: (id, state, note) => moves.setNote(id, state, note),
    claimRunnable: (claim, noteFor) => moves.claimRunnable(claim, noteFor),
    takeOver: (from, to) => moves.takeOver(from, to),
    activeCountsByQueue: () => moves.activeCountsByQueue(),
    getJob: (id) => reads.getJob(id),
    jobsInStates: (states) => reads.jobsInStates(states),
    dueJobs: (now) => reads.dueJobs(now),
    nextScheduleAt: (now) => reads.nextScheduleAt(now),
    listJobs: (filter) => reads.listJobs(filter),
    countJobs: (filter, atMost) => reads.countJobs(filter, atMost),
    firstInStates: (queue, states) => reads.firstInStates(queue, states),
    countByQueue: (queues, since, recentSince) => reads.countByQueue(queues, since, recentSince),
    transitions: (id) => feed.transitions(id),
    lastChangeSeq: () => feed.lastChangeSeq(),
    changeSeqsAfter: (afterSeq, limit) => feed.changeSeqsAfter(afterSeq, limit),
    changesAfter: (project, afterSeq, uptoSeq, limit) =>
      feed.changesAfter(project, afterSeq, uptoSeq, limit),
    saveLogs: (id, stored, budget) => logs.saveLogs(id, stored, budget),
    getLogs: (id) => logs.getLogs(id),
    attempts: (id) => attempts.attempts(id),
    attemptLogs: (id, attempt) => attempts.attemptLogs(id, attempt),
    jobsAwaitingDependencies: () => dependencies.jobsAwaitingDependencies(),
    jobSummaries: (ids) => dependencies.jobSummaries(ids),
    dependents: (id, limit) => dependencies.dependents(id, limit),
  };
  return {
    jobs,
    schedules: new SqlScheduleStore(tables, admission),
    sealedEnv: new SqlSealedEnvStore(tables),
    counts: reads,
  };
}
