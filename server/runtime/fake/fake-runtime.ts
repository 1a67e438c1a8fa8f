import type { OutputStream } from '../../jobs/model';
import {
  EngineUnavailableError,
  RuntimeError,
  type ContainerRuntime,
  type EngineHosts,
  type Workload,
  type WorkloadSpec,
  type WorkloadUsage,
} from '../../jobs/ports';
import { InMemoryEngine } from '../in-memory/in-memory-engine';

/**
 * An engine in memory, for fast tests of the dispatcher, runner and reconciler: every fault a
 * real engine has (refusals, outages, lost containers, slow launches) on demand. Tests on the
 * real engines stay; this adds the cases that are hard to time on a real one.
 */
export class FakeRuntime extends InMemoryEngine implements ContainerRuntime {
  private readonly ignoringTerm = new Set<string>();
  private away = false;
  private readonly refusals = new Map<string, string>();
  private launchGate: Promise<void> | undefined;
  private pingGate: Promise<void> | undefined;
  private placing: string | undefined;
  private reportedHosts: EngineHosts | null = null;
  /** Every launch call, in order: how tests count that nothing started twice. */
  readonly launches: string[] = [];
  readonly stops: { jobId: string; graceSeconds: number }[] = [];

  constructor() {
    super('fake');
  }

  /** Every call fails as an unreachable engine would, until `comeBack`. */
  goAway(): void {
    this.away = true;
    this.table.dropWaits();
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

  /** The engine says something new of a workload it is still placing (a node found, say). */
  stillPlacing(jobId: string, message: string): void {
    this.table.change(jobId, { message });
  }

  /** The engine found room: the workload runs. */
  place(jobId: string): void {
    this.table.change(jobId, {
      status: 'running',
      message: null,
      node: 'node-2',
      startedAt: Date.now(),
    });
  }

  /** Pings wait until the returned function is called: an engine slow to answer. */
  holdPings(): () => void {
    let release!: () => void;
    this.pingGate = new Promise((resolve) => (release = resolve));
    return () => {
      this.pingGate = undefined;
      release();
    };
  }

  override async ping(): Promise<void> {
    await this.pingGate;
    return super.ping();
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
    this.table.print(jobId, text, stream);
  }

  /** The workload ends as a process would, with this exit code, printing `output` last. */
  exit(jobId: string, exitCode: number, output = '', at = Date.now()): void {
    this.print(jobId, output);
    this.table.change(jobId, { status: 'exited', exitCode, finishedAt: at });
  }

  /** From now on the engine reports these figures for it while it runs. */
  use(jobId: string, usage: WorkloadUsage): void {
    this.table.required(jobId).usage = usage;
  }

  /** The kernel killed it for memory past its limit (SIGKILL: 137), and the engine says so. */
  killForMemory(jobId: string, at = Date.now()): void {
    this.table.change(jobId, {
      status: 'exited',
      exitCode: 137,
      finishedAt: at,
      cause: 'oom_killed',
    });
  }

  /** The engine ends the workload for a reason of its own (its node drained or lost), saying why. */
  endByEngine(jobId: string, exitCode: number | null, message: string): void {
    this.table.change(jobId, { status: 'exited', exitCode, finishedAt: Date.now(), message });
  }

  /** Its node was lost: the engine ends it with no exit code, saying so (cause `node_lost`). */
  loseNode(jobId: string, message: string): void {
    this.table.change(jobId, {
      status: 'exited',
      exitCode: null,
      finishedAt: Date.now(),
      message,
      cause: 'node_lost',
    });
  }

  /** Its process ignores SIGTERM: a stop ends it only with the grace period's SIGKILL (137). */
  ignoreTerm(jobId: string): void {
    this.table.required(jobId);
    this.ignoringTerm.add(jobId);
  }

  /** Removed behind the service's back. */
  vanish(jobId: string): void {
    this.table.required(jobId);
    this.table.remove(jobId);
  }

  /** The hosts it reports from now on; null: none (jobs are limited by slots alone). */
  setHosts(hosts: EngineHosts | null): void {
    this.reportedHosts = hosts;
  }

  async hosts(): Promise<EngineHosts | null> {
    this.answer();
    return this.reportedHosts;
  }

  workload(jobId: string): (Workload & { spec: WorkloadSpec }) | undefined {
    return this.table.find(jobId);
  }

  async launch(spec: WorkloadSpec): Promise<Workload> {
    this.answer();
    this.launches.push(spec.jobId);
    await this.launchGate;
    this.answer();
    const existing = this.table.inspect(spec.jobId);
    if (existing) return existing;
    const refusal = this.refusals.get(spec.image);
    if (refusal) throw new RuntimeError(refusal);
    return this.table.add(spec, {
      status: this.placing ? 'pending' : 'running',
      startedAt: this.placing ? null : Date.now(),
      message: this.placing ?? null,
    });
  }

  async stop(workload: Workload, graceSeconds: number): Promise<void> {
    this.answer();
    this.stops.push({ jobId: workload.jobId, graceSeconds });
    const current = this.table.find(workload.jobId);
    // As a real engine: SIGTERM ends it (143), or SIGKILL once the grace is over (137).
    if (current?.status === 'running') {
      this.exit(workload.jobId, this.ignoringTerm.has(workload.jobId) ? 137 : 143);
    }
  }

  async remove(workload: Workload): Promise<void> {
    this.answer();
    this.table.remove(workload.jobId);
  }

  protected answer(): void {
    if (this.away) throw new EngineUnavailableError('the fake engine is away');
  }
}
