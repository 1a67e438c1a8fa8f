import { sql, type SelectQueryBuilder } from 'kysely';
import type { JobState } from '../../../../contract';
import type { QueueStateCount } from '../../../jobs/model';
import type { JobFilter, JobListFilter } from '../../../jobs/list-filter';
import type { CountByQueueParams, JobStore, PlaceInQueueParams } from '../../../jobs/ports';
import type { JobCounts } from '../../ports';
import type { Database } from '../../schema';
import type { JobTables } from './context';
import { labelledSeqs, withLabels } from './labels';
import { toJob } from './rows';
import { seqWindow, type SeqWindow } from './time-window';
import { countFinished } from './finished-counts';
import { notFinal } from './not-final';
import { sortedPage } from './sorted-list';

/**
 * Up to how many jobs a name prefix is read from the name index and sorted: past it, the walk
 * newest first meets a page of them within a few thousand jobs per million stored.
 */
const FEW_NAMED = 10_000;
/**
 * The same for states alone. Fewer, because every job of a common state is a whole row to sort
 * (a state all 10,000 jobs of a store were in took 52 ms against 11 by the walk).
 */
const FEW_IN_STATES = 1_000;

/** The index's key is an id's last 6 digits (migration 033); a longer end is checked on its rows. */
const ID_END_KEY = 6;
const UUID_LENGTH = 36;

type Reads = Pick<
  JobStore,
  | 'getJob'
  | 'jobsInStates'
  | 'dueJobs'
  | 'nextScheduleAt'
  | 'listJobs'
  | 'countJobs'
  | 'countJobsByState'
  | 'countByQueue'
  | 'firstInStates'
  | 'firstEligibleWaiting'
  | 'placeInQueue'
>;

/** Reading jobs: one by id, by state, due schedules, the list's filters and the counts. */
export class JobReads implements Reads, JobCounts {
  constructor(private readonly tables: JobTables) {}

  async getJob(id: string) {
    const [row] = await this.tables.hot.jobById(this.tables.db, { id });
    return row && toJob(row);
  }

  async jobsInStates(states: readonly JobState[]) {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', 'in', states)
      .orderBy('seq')
      .execute();
    return rows.map(toJob);
  }

  async dueJobs(now: number) {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', '=', 'pending')
      .where('schedule_at', '<=', now)
      // A job that waits for others is moved on by the dispatcher's dependency check alone.
      .where('depends_json', 'is', null)
      .orderBy('schedule_at')
      .execute();
    return rows.map(toJob);
  }

  async nextScheduleAt(now: number) {
    const { db } = this.tables;
    const [scheduled, retrying] = await Promise.all([
      db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('schedule_at').as('next'))
        .where('state', '=', 'pending')
        // A job that waits for others past its schedule_at is moved by the dependency check when
        // they end: a time already gone would arm the timer at 0 ms, tick after tick.
        .where((eb) => eb.or([eb('depends_json', 'is', null), eb('schedule_at', '>', now)]))
        .executeTakeFirst(),
      // Runnable jobs waiting out a backoff: few at any time, found by the (state, not_before) index.
      db
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('not_before').as('next'))
        .where('state', '=', 'runnable')
        .where('not_before', '>', now)
        .executeTakeFirst(),
    ]);
    const times = [scheduled?.next, retrying?.next].filter(
      (t): t is number => t !== null && t !== undefined,
    );
    return times.length > 0 ? Math.min(...times.map(Number)) : undefined;
  }

  async listJobs(filter: JobListFilter) {
    if (filter.sort) {
      const { query } = await this.matchingWithin(filter);
      return (await sortedPage(query, filter.sort, filter.after, filter.limit)).map(toJob);
    }
    const { query, seq, sortFew } = await this.matchingWithin(filter);
    // An expression, which no index's order stands for: SQLite reads the few matches by the
    // filter's own index and sorts them, rather than walk every job of the project for them.
    const order = sortFew ? sql<number>`+${seq}` : seq;
    let page = query.selectAll('jobs').orderBy(order, 'desc').limit(filter.limit);
    if (filter.beforeSeq !== undefined) page = page.where(seq, '<', filter.beforeSeq);
    return (await page.execute()).map(toJob);
  }

  /** Counting stops past `atMost`: a count of a filter over millions of jobs costs a bounded read. */
  async countJobs(filter: JobFilter, atMost: number) {
    const { states, queue, namePrefix, idSuffix, createdAfter, createdBefore, labels } = filter;
    const ended = filter.endedAfter !== undefined || filter.endedBefore !== undefined;
    const byLabels =
      labels?.length &&
      !queue &&
      !namePrefix &&
      !idSuffix &&
      !filter.ids &&
      !createdAfter &&
      !createdBefore &&
      !ended;
    // By labels, and states if asked, their index answers: 10,000 jobs of a common label were
    // 10,000 job rows, each read for its state too.
    const bounded = byLabels
      ? labelledSeqs(this.tables.db, filter.project, labels, states).limit(atMost + 1)
      : this.boundedMatches(filter, atMost);
    return this.countOf(bounded);
  }

  async countJobsByState(filter: JobFilter, atMost: number) {
    const { query } = this.matching(filter);
    const rows = await this.tables.db
      .selectFrom(
        query
          .select('jobs.state as state')
          .limit(atMost + 1)
          .as('bounded'),
      )
      .select((eb) => ['bounded.state', eb.fn.countAll<number>().as('count')])
      .groupBy('bounded.state')
      .execute();
    return new Map(rows.map((row) => [row.state as JobState, Number(row.count)]));
  }

  /** The rows a bounded query gives: the count stops where its limit does. */
  private async countOf(bounded: SelectQueryBuilder<Database, never, object>) {
    const row = await this.tables.db
      .selectFrom(bounded.as('bounded'))
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * A count, read in the order of the time range's or the name prefix's own index: PostgreSQL
   * costs a bounded read in no order as if matches were spread evenly, and scanned the table
   * from its start for a range of recent jobs.
   */
  private boundedMatches(filter: JobFilter, atMost: number) {
    const { query, seq } = this.matching(filter);
    const bounded = query.select(seq.as('job_seq')).limit(atMost + 1);
    if (filter.createdAfter !== undefined || filter.createdBefore !== undefined) {
      return bounded.orderBy('jobs.created_at');
    }
    if (filter.endedAfter !== undefined || filter.endedBefore !== undefined) {
      return bounded.orderBy('jobs.finished_at');
    }
    return filter.namePrefix ? bounded.orderBy(this.tables.dialect.bytewise('jobs.name')) : bounded;
  }

  /**
   * The list's walk, newest first. A time range is first narrowed to the sequence numbers it can
   * hold. A name prefix, or states alone, that few jobs have are read from their index and
   * sorted; those that many have are checked on each job of the walk instead, which meets a page
   * of them soon: sorting every one of them would cost in proportion to how many there are.
   */
  private async matchingWithin(filter: JobFilter) {
    const { project, states, queue, labels, createdAfter, createdBefore, namePrefix, idSuffix } =
      filter;
    const timed = createdAfter !== undefined || createdBefore !== undefined;
    // PostgreSQL's statistics already choose between the state's index and the walk.
    const byStatesAlone =
      !this.tables.dialect.plansByStatistics &&
      states &&
      !queue &&
      !labels?.length &&
      !namePrefix &&
      !idSuffix &&
      !filter.ids &&
      !timed;
    const [window, manyNamed, sortFew] = await Promise.all([
      timed ? seqWindow(this.tables.db, project, createdAfter, createdBefore) : {},
      namePrefix ? this.hasMore({ project, namePrefix }, FEW_NAMED) : false,
      byStatesAlone
        ? this.hasMore({ project, states }, FEW_IN_STATES).then((many) => !many)
        : false,
    ]);
    // An id's end, or ids, match a handful of jobs at most: read from their index and sorted.
    return {
      ...this.matching(filter, { window, walkNames: manyNamed }),
      sortFew: sortFew || idSuffix !== undefined || filter.ids !== undefined,
    };
  }

  /** Whether more than `few` of the project's listed jobs match. */
  private async hasMore(filter: JobFilter, few: number) {
    const matches = this.matching(filter).query.select('jobs.seq');
    return (await this.countOf(matches.limit(few + 1))) > few;
  }

  private matching(
    filter: JobFilter,
    { window = {}, walkNames = false }: { window?: SeqWindow; walkNames?: boolean } = {},
  ) {
    const [driver, ...others] = filter.labels ?? [];
    // An array's children are listed under their parent (GET /job/{id}/array), not here.
    let query = this.tables.db
      .selectFrom('jobs')
      .$if(driver !== undefined, (q) =>
        q.innerJoin('job_labels as driver', (join) => {
          let on = join
            .onRef('driver.job_seq', '=', 'jobs.seq')
            .on('driver.project', '=', filter.project)
            .on('driver.key', '=', driver!.key);
          if (driver!.value !== undefined) on = on.on('driver.value', '=', driver!.value);
          // One state: the label's index by state holds its jobs in order, however few are in
          // it (a walk of the label's jobs read every one of them for a state none was in).
          // Several would need their ranges merged, which neither database does in order.
          return filter.states?.length === 1 ? on.on('driver.state', '=', filter.states[0]!) : on;
        }),
      )
      .where('jobs.project', '=', filter.project)
      .where('jobs.array_parent', 'is', null);
    if (filter.states) query = query.where('jobs.state', 'in', filter.states);
    if (filter.queue) query = query.where('jobs.queue', '=', filter.queue);
    if (filter.namePrefix && walkNames) {
      // Case-sensitive in every database (SQLite's LIKE is not), and no wildcard to escape.
      const prefix = filter.namePrefix;
      query = query.where(sql<string>`substr(jobs.name, 1, ${prefix.length})`, '=', prefix);
    } else if (filter.namePrefix) {
      // A range of the name index: every character of a job's name (JOB_NAME, and the names the
      // service gives) sorts below DEL, so the names from the prefix up to the prefix and DEL
      // are those that start with it (byte order: case-sensitive, no wildcard).
      const name = this.tables.dialect.bytewise('jobs.name');
      query = query
        .where(name, '>=', filter.namePrefix)
        .where(name, '<', `${filter.namePrefix}\x7f`);
    }
    if (filter.idSuffix) {
      // The index's expression literally: PostgreSQL matches an index's expression only to the
      // same text (a parameter is not), and a longer end is then checked on the rows it finds.
      const suffix = filter.idSuffix;
      query = query.where(sql<string>`substr(jobs.id, 31)`, '=', suffix.slice(-ID_END_KEY));
      if (suffix.length > ID_END_KEY) {
        const from = sql.lit(UUID_LENGTH - suffix.length + 1);
        query = query.where(sql<string>`substr(jobs.id, ${from})`, '=', suffix);
      }
    }
    if (filter.ids) query = query.where('jobs.id', 'in', filter.ids);
    if (filter.createdAfter !== undefined) {
      query = query.where('jobs.created_at', '>', filter.createdAfter);
    }
    if (filter.createdBefore !== undefined) {
      query = query.where('jobs.created_at', '<', filter.createdBefore);
    }
    if (filter.endedAfter !== undefined) {
      query = query.where('jobs.finished_at', '>', filter.endedAfter);
    }
    if (filter.endedBefore !== undefined) {
      query = query.where('jobs.finished_at', '<', filter.endedBefore);
    }
    const seq = driver ? sql<number>`driver.job_seq` : sql<number>`jobs.seq`;
    if (window.above !== undefined) query = query.where(seq, '>', window.above);
    if (window.below !== undefined) query = query.where(seq, '<', window.below);
    return { query: withLabels(query, others), seq };
  }

  async firstInStates(queue: string, states: readonly JobState[]) {
    const row = await this.tables.db
      .selectFrom('jobs')
      .selectAll()
      .where('state', 'in', states)
      .where('queue', '=', queue)
      .where('array_size', 'is', null)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    return row && toJob(row);
  }

  /**
   * Two reads by the (state, queue, seq) index, the earlier kept: runnable jobs past any backoff,
   * and submitted or pending ones due (no schedule_at ahead) that wait for no other job.
   */
  async firstEligibleWaiting(queue: string, now: number) {
    const first = (
      state: JobState | readonly JobState[],
      due: 'not_before' | 'schedule_at',
      withoutDependencies: boolean,
    ) =>
      this.tables.db
        .selectFrom('jobs')
        .selectAll()
        .where('state', 'in', typeof state === 'string' ? [state] : state)
        .where('queue', '=', queue)
        .where('array_size', 'is', null)
        .where((eb) => eb.or([eb(due, 'is', null), eb(due, '<=', now)]))
        .$if(withoutDependencies, (q) => q.where('depends_json', 'is', null))
        .orderBy('seq')
        .limit(1)
        .executeTakeFirst();
    const found = await Promise.all([
      first('runnable', 'not_before', false),
      first(['submitted', 'pending'], 'schedule_at', true),
    ]);
    const earliest = found
      .filter((row) => row !== undefined)
      .sort((a, b) => Number(a.seq) - Number(b.seq))[0];
    return earliest && toJob(earliest);
  }

  /**
   * By the (state, queue, seq) index, each count bounded: Job Detail of a waiting job reads at
   * most `atMost` + 1 rows twice, however long the queue.
   */
  async placeInQueue({ queue, seq, now, atMost }: PlaceInQueueParams) {
    const counted = async (upToSeq?: number) => {
      const bounded = this.tables.db
        .selectFrom('jobs')
        .select('seq')
        .where('state', '=', 'runnable')
        .where('queue', '=', queue)
        .where('array_size', 'is', null)
        .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', now)]))
        .$if(upToSeq !== undefined, (q) => q.where('seq', '<=', upToSeq!))
        .limit(atMost + 1);
      return this.countOf(bounded);
    };
    const [place, waiting] = await Promise.all([counted(seq), counted()]);
    return { place, waiting };
  }

  /** By the (state, queue, seq) index: cheap for the unfinished states whatever the store holds. */
  async countByStateAndQueue(states: readonly JobState[]) {
    const rows = await this.tables.db
      .selectFrom('jobs')
      .select((eb) => ['state', 'queue', eb.fn.countAll<number>().as('count')])
      .where('state', 'in', states)
      .groupBy(['state', 'queue'])
      .execute();
    return rows.map((r) => ({
      state: r.state as JobState,
      queue: r.queue,
      count: Number(r.count),
    }));
  }

  async countByQueue({ queues, since, recentSince }: CountByQueueParams) {
    if (queues.length === 0) return [];
    const { db } = this.tables;
    const unfinished = db
      .selectFrom('jobs')
      .select((eb) => ['queue', 'state', eb.fn.countAll<number>().as('count')])
      .where(notFinal)
      .where('queue', 'in', queues)
      // What waits and runs in a queue are containers' jobs: an array's parent only sums them up.
      .where('array_size', 'is', null)
      .groupBy(['queue', 'state'])
      .execute();
    const finished = countFinished(db, queues, since, recentSince);
    const counts: QueueStateCount[] = (await unfinished).map((row) => {
      const count = Number(row.count);
      return { queue: row.queue, state: row.state as JobState, count, recent: count };
    });
    return [...counts, ...(await finished)];
  }
}
