import { v7 as timeOrderedUuid } from 'uuid';
import type { AuditAction } from '../../contract';
import type { AuditEntry, AuditFilter, AuditStore, Logger } from './ports';

/** What a caller records: the trail adds the id and the time. */
export interface AuditRecord {
  /** Null for what happens outside a project (a failed sign-in). */
  project: string | null;
  actor: string;
  address: string;
  action: AuditAction;
  target?: string | null;
  /** Never a secret (no env value, command, key or webhook secret): the trail shows it as is. */
  detail?: Record<string, unknown>;
}

export interface AuditTrailOptions {
  /** The longest an event waits before it is written. */
  flushAfterMs: number;
  /** This many waiting are written at once, without waiting out the time. */
  flushAtCount: number;
}

export const AUDIT_TRAIL_DEFAULTS: AuditTrailOptions = { flushAfterMs: 100, flushAtCount: 500 };

/** The event as stored, its id and time given now. */
export function auditEntry(record: AuditRecord): AuditEntry {
  return {
    id: timeOrderedUuid(),
    project: record.project,
    at: Date.now(),
    actor: record.actor,
    address: record.address,
    action: record.action,
    target: record.target ?? null,
    detail: record.detail ?? {},
  };
}

/**
 * Who did what, recorded beside the request rather than in it: events wait in memory and are
 * written together (one transaction every flushAfterMs, or at flushAtCount), so a Job Submit does
 * not pay a write of its own. A failed write is logged and tried once more, never thrown at the
 * request that recorded the event; events still waiting are written on stop.
 */
export class AuditTrail {
  private waiting: AuditEntry[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Writes one after the other, so events are stored in the order they were recorded. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: AuditStore,
    private readonly logger: Logger,
    private readonly options: AuditTrailOptions = AUDIT_TRAIL_DEFAULTS,
  ) {}

  record(record: AuditRecord): void {
    this.waiting.push(auditEntry(record));
    if (this.waiting.length >= this.options.flushAtCount) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.flushAfterMs);
  }

  /** The project's events, newest first; what this instance recorded before the call included. */
  async list(project: string, filter: AuditFilter) {
    await this.flush();
    return this.store.list(project, filter);
  }

  /** Writes what is waiting; resolves once it is stored (or given up on). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length > 0) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** Writes what is still waiting: the service's stop, after its last request was answered. */
  stop(): Promise<void> {
    return this.flush();
  }

  private async write(batch: AuditEntry[]): Promise<void> {
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      try {
        await this.store.append(batch);
        return;
      } catch (error) {
        this.logger.warn(
          { err: error, events: batch.length, attempt },
          attempt === 1
            ? 'audit: storing events failed; trying once more'
            : 'audit: storing events failed again; these events are lost',
        );
      }
    }
  }
}
