import type { Incident, IncidentKind, IncidentStore, JobStore, Logger } from './ports';

/**
 * How long after an outage its `error` endings are still its own: a job whose container the
 * engine lost is settled by the passes after the engine answers again.
 */
export const ERRORS_SETTLED_WITHIN_MS = 60_000;
/** Windows of one kind this close together read as one (instances see one outage apart). */
const MERGED_WITHIN_MS = 60_000;
/** Enough to say "retry them"; a bulk action counts them again before it acts. */
export const ERRORS_COUNTED_UP_TO = 10_000;

/** A window as the trends show it: what, when, and how many of the queue's jobs it ended error. */
export interface IncidentWindow {
  kind: IncidentKind;
  startedAt: number;
  endedAt: number | null;
  note: string | null;
  /** The queue's jobs that ended `error` from its start until ERRORS_SETTLED_WITHIN_MS after its end. */
  endedError: number;
  /** The `ended_before` of that count: its end and the settling time (null while it lasts). */
  errorsUntil: number | null;
}

/**
 * Records when the engine was unreachable and when queues were paused, and reads them back for a
 * queue's trends. Recording never holds up what it records: a failed write is logged.
 */
export class IncidentLog {
  constructor(
    private readonly parts: {
      store: IncidentStore;
      jobs: Pick<JobStore, 'countJobs'>;
      logger: Logger;
    },
  ) {}

  /** This instance saw the engine go (or come back): every instance shares one engine. */
  engineChanged(available: boolean, at = Date.now()): void {
    const kind = 'engine_unreachable';
    this.record(
      available
        ? this.parts.store.close({ kind, queue: null, at })
        : this.parts.store.open({ kind, queue: null, startedAt: at, note: null }),
    );
  }

  queuePaused(queue: string, reason: string | null, at = Date.now()): void {
    this.record(
      this.parts.store.open({ kind: 'queue_paused', queue, startedAt: at, note: reason }),
    );
  }

  queueResumed(queue: string, at = Date.now()): void {
    this.record(this.parts.store.close({ kind: 'queue_paused', queue, at }));
  }

  /** The queue's windows (its pauses and the engine's outages) overlapping [from, to]. */
  async windows(
    project: string,
    queue: string,
    from: number,
    to: number,
  ): Promise<IncidentWindow[]> {
    const merged = mergeWindows(await this.parts.store.overlapping({ queue, from, to }));
    return Promise.all(
      merged.map(async (incident) => {
        const errorsUntil =
          incident.endedAt === null ? null : incident.endedAt + ERRORS_SETTLED_WITHIN_MS;
        const endedError = await this.parts.jobs.countJobs(
          {
            project,
            queue,
            states: ['error'],
            endedAfter: incident.startedAt,
            ...(errorsUntil !== null && { endedBefore: errorsUntil }),
          },
          ERRORS_COUNTED_UP_TO,
        );
        return {
          kind: incident.kind,
          startedAt: incident.startedAt,
          endedAt: incident.endedAt,
          note: incident.note,
          endedError,
          errorsUntil,
        };
      }),
    );
  }

  private record(write: Promise<void>): void {
    write.catch((error: unknown) => {
      this.parts.logger.warn({ err: error }, 'could not record an incident window for the trends');
    });
  }
}

/** One window per stretch of one kind: overlapping or near ones (several instances') joined. */
export function mergeWindows(incidents: readonly Incident[]): Incident[] {
  const sorted = [...incidents].sort((a, b) => a.startedAt - b.startedAt);
  const merged: Incident[] = [];
  for (const incident of sorted) {
    const last = merged.findLast((m) => m.kind === incident.kind);
    const lastEnd = last?.endedAt ?? Number.POSITIVE_INFINITY;
    if (last && incident.startedAt <= lastEnd + MERGED_WITHIN_MS) {
      last.endedAt =
        last.endedAt === null || incident.endedAt === null
          ? null
          : Math.max(last.endedAt, incident.endedAt);
      last.note ??= incident.note;
    } else {
      merged.push({ ...incident });
    }
  }
  return merged;
}
