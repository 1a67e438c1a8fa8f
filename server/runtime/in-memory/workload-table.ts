import { logInstantOfNanos } from '../../jobs/log-instant';
import type { OutputStream } from '../../jobs/model';
import {
  EngineUnavailableError,
  RuntimeError,
  type OutputWindow,
  type Workload,
  type WorkloadLine,
  type WorkloadOutput,
  type WorkloadSpec,
  type WorkloadUsage,
} from '../../jobs/ports';
import { LineTail } from '../line-tail';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export interface HeldWorkload extends Workload {
  spec: WorkloadSpec;
  output: WorkloadLine[];
  waiters: Set<Waiter>;
  /** What it uses now, as the engine would report it; none unless set. */
  usage?: WorkloadUsage;
}

/**
 * Workloads kept in memory, for the engines that run no containers (the fake of the fast tests, the
 * simulated engine): what an engine remembers of each, its output, and who waits for a change.
 */
export class WorkloadTable {
  private readonly workloads = new Map<string, HeldWorkload>();
  private nextId = 1;
  /** The instant of the last line printed: each line gets a later one, as a real engine's. */
  private lastLineNanos = 0n;

  constructor(private readonly idPrefix: string) {}

  add(spec: WorkloadSpec, state: Pick<Workload, 'status' | 'startedAt' | 'message'>): Workload {
    const workload: HeldWorkload = {
      id: `${this.idPrefix}-${this.nextId++}`,
      jobId: spec.jobId,
      attempt: spec.attempt,
      exitCode: null,
      finishedAt: null,
      node: null,
      ...state,
      spec,
      output: [],
      waiters: new Set(),
    };
    this.workloads.set(spec.jobId, workload);
    return snapshot(workload);
  }

  find(jobId: string): HeldWorkload | undefined {
    return this.workloads.get(jobId);
  }

  required(jobId: string): HeldWorkload {
    const workload = this.workloads.get(jobId);
    if (!workload) throw new Error(`no workload for job ${jobId}`);
    return workload;
  }

  inspect(jobId: string): Workload | null {
    const workload = this.workloads.get(jobId);
    return workload ? snapshot(workload) : null;
  }

  list(): Workload[] {
    return [...this.workloads.values()].map(snapshot);
  }

  /** Changes what the engine reports of it, and wakes whoever waits for a change. */
  change(jobId: string, changes: Partial<Workload>): void {
    const workload = this.required(jobId);
    Object.assign(workload, changes);
    release(workload);
  }

  /** The workload prints: each line (a last one may lack its newline) read by the engine now. */
  print(jobId: string, text: string, stream: OutputStream = 'stdout'): void {
    const workload = this.required(jobId);
    for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      const nanos = BigInt(Date.now()) * 1_000_000n;
      this.lastLineNanos = nanos > this.lastLineNanos ? nanos : this.lastLineNanos + 1n;
      const at = logInstantOfNanos(this.lastLineNanos);
      workload.output.push({ stream, at, bytes: Buffer.from(line) });
    }
  }

  /** The workload itself, never the job's next attempt's made since it was removed. */
  held(workload: Workload): HeldWorkload | undefined {
    const current = this.workloads.get(workload.jobId);
    return current?.id === workload.id ? current : undefined;
  }

  async waitForChange(workload: Workload): Promise<void> {
    const current = this.held(workload);
    if (!current || current.status !== workload.status) return;
    await new Promise<void>((resolve, reject) => current.waiters.add({ resolve, reject }));
  }

  /** The engine's connections drop: every wait under way fails. */
  dropWaits(): void {
    for (const workload of this.workloads.values()) {
      for (const waiter of workload.waiters) waiter.reject(new EngineUnavailableError('dropped'));
      workload.waiters.clear();
    }
  }

  readOutput(workload: Workload, { after, maxBytes, whole }: OutputWindow): WorkloadOutput {
    const held = this.held(workload);
    // As a real engine's: the engine answered, the workload is gone (read as it was removed).
    if (!held) throw new RuntimeError(`the workload ${workload.id} is gone`);
    const sink = new LineTail(maxBytes);
    for (const line of held.output) {
      if (after === null || line.at > after) sink.add(line);
    }
    return whole ? { ...sink.tail(false), printed: sink.added } : sink.tail(false);
  }

  remove(jobId: string): void {
    const current = this.workloads.get(jobId);
    if (current) release(current);
    this.workloads.delete(jobId);
  }
}

function release(workload: HeldWorkload): void {
  for (const waiter of workload.waiters) waiter.resolve();
  workload.waiters.clear();
}

function snapshot(workload: HeldWorkload): Workload {
  const { id, jobId, attempt, status, exitCode, startedAt, finishedAt, node, message, cause } =
    workload;
  return {
    id,
    jobId,
    attempt,
    status,
    exitCode,
    startedAt,
    finishedAt,
    node,
    message,
    ...(cause && { cause }),
  };
}
