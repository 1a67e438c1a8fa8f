import type { PruneBatch } from './retention';
import type { AuditAction } from '../../../contract';

/** One audit event as stored; `seq` orders them (newest first in lists). */
export interface AuditEntry {
  id: string;
  /** Null for what happens outside a project (a failed sign-in). */
  project: string | null;
  at: number;
  actor: string;
  address: string;
  action: AuditAction;
  target: string | null;
  /** Never a secret: callers leave values, commands, keys and webhook secrets out. */
  detail: Record<string, unknown>;
}

/** What an audit list asks for, newest first. */
export interface AuditFilter {
  actor?: string;
  action?: AuditAction;
  target?: string;
  /** At or after. */
  since?: number;
  /** Before. */
  until?: number;
  /** Only events older than this position (a page's cursor). */
  beforeSeq?: number;
  limit: number;
}

/** The audit trail's table: appended to in batches, read a project at a time, pruned by age. */
export interface AuditStore {
  /** Stores every entry in one transaction, in the order given. */
  append(entries: readonly AuditEntry[]): Promise<void>;
  list(project: string, filter: AuditFilter): Promise<(AuditEntry & { seq: number })[]>;
  /** Deletes up to `limit` of the oldest events before `before`; how many went. */
  prune(params: PruneBatch): Promise<number>;
}
