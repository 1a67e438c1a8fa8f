import { logInstantOfNanos } from '../../jobs/log-instant';
import type { OutputStream } from '../../jobs/model';
import {
  EngineUnavailableError,
  RuntimeError,
  type ContainerRuntime,
  type OutputWindow,
  type Workload,
  type WorkloadLine,
  type WorkloadOutput,
  type WorkloadSpec,
} from '../../jobs/ports';
import { LineTail } from '../line-tail';

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface FakeWorkload extends Workload {
  spec: WorkloadSpec;
  ignoresTerm?: boolean;
  output: WorkloadLine[];
  waiters: Set<Waiter>;
}

/**
 * An engine in memory, for fast tests of the dispatcher, runner and reconciler: every fault a
 * real engine has (refusals, outages, lost containers, slow launches) on demand. Tests on the
 * real engines stay; this adds the cases that are hard to time on a real one.
 */
export class FakeRuntime implements ContainerRuntime {
  private readonly workloads = new Map<string, FakeWorkload>();
  private away = false;
  private nextId = 1;
  private readonly refusals = new Map<string, string>();
  private launchGate: Promise<void> | undefined;
  private placing: string | undefined;
  /** The instant of the last line printed: each line gets a later one, as a real engine's. */
  private lastLineNanos = 0n;
  /** Every launch call, in order: how tests count that nothing started twice. */
  readonly launches: string[] = [];
  readonly stops: { jobId: string; graceSeconds: number }[] = [];

  /** Every call fails as an unreachable engine would, until `comeBack`. */
  goAway(): void {
    this.away = true;
    // Connections drop: every wait under way fails.
    for (const workload of this.workloads.values()) {
      for (const waiter of workload.waiters) waiter.reject(new EngineUnavailableError('dropped'));
      workload.waiters.clear();
    }
  }

  comeBack(): void {
    this.away = false;
  }

  /** The next launch of this image is refused with this message. */
  refuseImage(image: string, message: string): void {
    this.refusals.set(image, message);
  }

  /** New workloads wait to be placed, as on a cluster with no room, saying why. */
  holdPlacement(message: string): void {
    this.placing = message;
  }

  /** The engine found room: the workload runs. */
  place(jobId: string): void {
    const workload = this.required(jobId);
    Object.assign(workload, {
      status: 'running',
      message: null,
      node: 'node-2',
      startedAt: Date.now(),
    });
    this.release(workload);
  }

  /** Launches wait until the returned function is called: a slow create, for races. */
  holdLaunches(): () => void {
    let release!: () => void;
    this.launchGate = new Promise((resolve) => (release = resolve));
    return () => {
      this.launchGate = undefined;
      release();
    };
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

  /** The workload ends as a process would, with this exit code, printing `output` last. */
  exit(jobId: string, exitCode: number, output = '', at = Date.now()): void {
    this.print(jobId, output);
    const workload = this.required(jobId);
    Object.assign(workload, { status: 'exited', exitCode, finishedAt: at });
    this.release(workload);
  }

  /** The engine ends the workload for a reason of its own (its node drained or lost), saying why. */
  endByEngine(jobId: string, exitCode: number | null, message: string): void {
    const workload = this.required(jobId);
    Object.assign(workload, { status: 'exited', exitCode, finishedAt: Date.now(), message });
    this.release(workload);
  }

  /** Its process ignores SIGTERM: a stop ends it only with the grace period's SIGKILL (137). */
  ignoreTerm(jobId: string): void {
    this.required(jobId).ignoresTerm = true;
  }

  /** Removed behind the service's back. */
  vanish(jobId: string): void {
    this.release(this.required(jobId));
    this.workloads.delete(jobId);
  }

  workload(jobId: string): (Workload & { spec: WorkloadSpec }) | undefined {
    return this.workloads.get(jobId);
  }

  async ping(): Promise<void> {
    this.answer();
  }

  async launch(spec: WorkloadSpec): Promise<Workload> {
    this.answer();
    this.launches.push(spec.jobId);
    await this.launchGate;
    this.answer();
    const existing = this.workloads.get(spec.jobId);
    if (existing) return this.snapshot(existing);
    const refusal = this.refusals.get(spec.image);
    if (refusal) throw new RuntimeError(refusal);
    const workload: FakeWorkload = {
      id: `fake-${this.nextId++}`,
      jobId: spec.jobId,
      attempt: spec.attempt,
      status: this.placing ? 'pending' : 'running',
      exitCode: null,
      startedAt: this.placing ? null : Date.now(),
      finishedAt: null,
      node: null,
      message: this.placing ?? null,
      spec,
      output: [],
      waiters: new Set(),
    };
    this.workloads.set(spec.jobId, workload);
    return this.snapshot(workload);
  }

  async inspect(jobId: string): Promise<Workload | null> {
    this.answer();
    const workload = this.workloads.get(jobId);
    return workload ? this.snapshot(workload) : null;
  }

  async list(): Promise<Workload[]> {
    this.answer();
    return [...this.workloads.values()].map((w) => this.snapshot(w));
  }

  async waitForChange(workload: Workload): Promise<void> {
    this.answer();
    const current = this.workloads.get(workload.jobId);
    if (!current || current.status !== workload.status) return;
    await new Promise<void>((resolve, reject) => current.waiters.add({ resolve, reject }));
  }

  async stop(workload: Workload, graceSeconds: number): Promise<void> {
    this.answer();
    this.stops.push({ jobId: workload.jobId, graceSeconds });
    const current = this.workloads.get(workload.jobId);
    // As a real engine: SIGTERM ends it (143), or SIGKILL once the grace is over (137).
    if (current?.status === 'running') this.exit(workload.jobId, current.ignoresTerm ? 137 : 143);
  }

  async readOutput(
    workload: Workload,
    { after, maxBytes, whole }: OutputWindow,
  ): Promise<WorkloadOutput> {
    this.answer();
    const sink = new LineTail(maxBytes);
    for (const line of this.required(workload.jobId).output) {
      if (after === null || line.at > after) sink.add(line);
    }
    return whole ? { ...sink.tail(false), printed: sink.added } : sink.tail(false);
  }

  async remove(workload: Workload): Promise<void> {
    this.answer();
    const current = this.workloads.get(workload.jobId);
    if (current) this.release(current);
    this.workloads.delete(workload.jobId);
  }

  private release(workload: FakeWorkload): void {
    for (const waiter of workload.waiters) waiter.resolve();
    workload.waiters.clear();
  }

  private answer(): void {
    if (this.away) throw new EngineUnavailableError('the fake engine is away');
  }

  private required(jobId: string): FakeWorkload {
    const workload = this.workloads.get(jobId);
    if (!workload) throw new Error(`no fake workload for job ${jobId}`);
    return workload;
  }

  private snapshot(workload: FakeWorkload): Workload {
    const { id, jobId, attempt, status, exitCode, startedAt, finishedAt, node, message } = workload;
    return { id, jobId, attempt, status, exitCode, startedAt, finishedAt, node, message };
  }
}
