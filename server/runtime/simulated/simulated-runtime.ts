import type { Host } from '../../jobs/placement';
import {
  EngineUnavailableError,
  type ContainerRuntime,
  type EngineHosts,
  type Workload,
  type WorkloadSpec,
  type WorkloadUsage,
} from '../../jobs/ports';
import { InMemoryEngine } from '../in-memory/in-memory-engine';
import type { HeldWorkload } from '../in-memory/workload-table';
import { draw, scriptOf, type Script, type Span } from './script';

export interface SimulationSettings {
  nodes: number;
  /** Nodes of several sizes, in place of `nodes`: Jobdeck places jobs on them by resources. */
  hosts?: Host[];
  slotsPerNode: number;
  startMs: Span;
  runMs: Span;
  /** Exit codes with their weights. */
  exitCodes: [code: number, weight: number][];
  faults: { nodeLossEverySeconds?: number; outageEverySeconds?: number; outageSeconds: number };
  /** Uniform in [0, 1): Math.random unless a test wants a fixed sequence. */
  random?: () => number;
}

export const messages = {
  waitingForSlot: (nodes: number, slots: number) =>
    `every simulated node is full (${nodes} × ${slots} slots)`,
  starting: (node: string) => `starting on ${node} (simulated)`,
  nodeLost: (node: string) => `node ${node} was lost (simulated fault)`,
  outage: 'the simulated engine is in an outage (simulated fault)',
  stoppedBeforeStart: 'stopped before it started',
};

/**
 * An engine that starts nothing (as kwok is for Kubernetes): jobs go through every state the real
 * engines report, on nodes with a fixed number of slots, taking start and run times drawn from the
 * configured spans, so the control plane (store, dispatcher, reconciler, event feed) can be
 * measured alone. Each job may script its own run through `JOBDECK_SIMULATE_*` variables
 * (script.ts). Node losses and outages come on a timer, or from `loseNode` and `outage`.
 *
 * Its cluster lives in this process: an instance taking over another's jobs finds their workloads
 * gone, as if their nodes had been lost with the instance.
 */
export class SimulatedRuntime extends InMemoryEngine implements ContainerRuntime {
  /** The jobs holding each node's slots (starting or running). */
  private readonly occupants = new Map<string, Set<string>>();
  /** Launched jobs waiting for a slot, oldest first. */
  private readonly waiting: string[] = [];
  private readonly scripts = new Map<string, Script>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly random: () => number;
  private outageEndsAt = 0;

  constructor(private readonly settings: SimulationSettings) {
    super('sim');
    this.random = settings.random ?? Math.random;
    const names = settings.hosts
      ? settings.hosts.map((h) => h.id)
      : Array.from({ length: settings.nodes }, (_, i) => `sim-node-${i + 1}`);
    for (const name of names) this.occupants.set(name, new Set());
    const { nodeLossEverySeconds, outageEverySeconds, outageSeconds } = settings.faults;
    if (nodeLossEverySeconds) {
      setInterval(() => this.loseNode(), nodeLossEverySeconds * 1000).unref();
    }
    if (outageEverySeconds) {
      setInterval(() => this.outage(outageSeconds * 1000), outageEverySeconds * 1000).unref();
    }
  }

  /** Every job on the busiest node ends as on a node that vanished; the node is replaced. */
  loseNode(): string | undefined {
    const busiest = [...this.occupants].sort(([, a], [, b]) => b.size - a.size)[0];
    if (!busiest || busiest[1].size === 0) return undefined;
    const [node, jobs] = busiest;
    for (const jobId of [...jobs]) {
      this.end(jobId, {
        exitCode: null,
        message: messages.nodeLost(node),
        cause: 'node_lost',
      });
    }
    return node;
  }

  /** Every call fails for `ms`, as an unreachable engine's; the jobs run on meanwhile. */
  outage(ms: number): void {
    this.outageEndsAt = Math.max(this.outageEndsAt, Date.now() + ms);
    this.table.dropWaits();
  }

  async launch(spec: WorkloadSpec): Promise<Workload> {
    this.answer();
    const existing = this.table.inspect(spec.jobId);
    if (existing) return existing;
    this.scripts.set(spec.jobId, scriptOf(spec.env));
    this.table.add(spec, {
      status: 'pending',
      startedAt: null,
      message: messages.waitingForSlot(this.occupants.size, this.settings.slotsPerNode),
    });
    this.waiting.push(spec.jobId);
    this.placeWaiting();
    return this.table.inspect(spec.jobId)!;
  }

  async stop(workload: Workload, graceSeconds: number): Promise<void> {
    this.answer();
    const current = this.table.find(workload.jobId);
    if (!current || current.status === 'exited') return;
    if (current.status !== 'running') {
      this.end(workload.jobId, { exitCode: null, message: messages.stoppedBeforeStart });
      return;
    }
    // As a process: SIGTERM ends it (143); one that ignores it ends at the grace's SIGKILL (137).
    if (this.scripts.get(workload.jobId)?.ignoresTerm) {
      await new Promise((resolve) => setTimeout(resolve, graceSeconds * 1000));
      if (this.table.find(workload.jobId)?.status === 'running') {
        this.end(workload.jobId, { exitCode: 137 });
      }
      return;
    }
    this.end(workload.jobId, { exitCode: 143 });
  }

  async remove(workload: Workload): Promise<void> {
    this.answer();
    const current = this.table.find(workload.jobId);
    // Removing a workload that still runs kills it first, as `docker rm -f` does.
    if (current && current.status !== 'exited') this.end(workload.jobId, { exitCode: 137 });
    this.table.remove(workload.jobId);
    this.scripts.delete(workload.jobId);
  }

  /** The configured nodes, when there are; null: Jobdeck places by slots alone. */
  async hosts(): Promise<EngineHosts | null> {
    this.answer();
    return this.settings.hosts ? { hosts: this.settings.hosts, fixed: false } : null;
  }

  /**
   * Gives free slots to waiting jobs, oldest first: each on the node Jobdeck placed it on, or
   * else on the node with the most free.
   */
  private placeWaiting(): void {
    let index = 0;
    // Once no node has a free slot, none of the rest can start: stop there.
    while (index < this.waiting.length && this.freestNode() !== undefined) {
      const jobId = this.waiting[index]!;
      const workload = this.table.find(jobId);
      if (workload?.status !== 'pending') {
        this.waiting.splice(index, 1);
        continue;
      }
      const placed = workload.spec.host;
      const node = placed === null ? this.freestNode() : this.withFreeSlot(placed);
      if (!node) {
        index += 1;
        continue;
      }
      this.waiting.splice(index, 1);
      this.occupants.get(node)!.add(jobId);
      this.table.change(jobId, { node, message: messages.starting(node) });
      const script = this.scripts.get(jobId)!;
      this.after(jobId, script.startMs ?? draw(this.settings.startMs, this.random), () =>
        this.start(jobId),
      );
    }
  }

  private start(jobId: string): void {
    this.table.change(jobId, { status: 'running', message: null, startedAt: Date.now() });
    const script = this.scripts.get(jobId)!;
    const runMs = script.runMs ?? draw(this.settings.runMs, this.random);
    if (this.overItsMemory(jobId)) {
      this.after(jobId, Math.floor(runMs / 2), () =>
        this.end(jobId, { exitCode: 137, cause: 'oom_killed' }),
      );
      return;
    }
    this.after(jobId, runMs, () => {
      const workload = this.table.required(jobId);
      if (script.stdout !== undefined) this.table.print(jobId, `${script.stdout}\n`, 'stdout');
      if (script.stderr !== undefined) this.table.print(jobId, `${script.stderr}\n`, 'stderr');
      const exitCode = script.exitCode ?? this.drawExitCode();
      if (script.stdout === undefined) {
        const ran = Date.now() - workload.startedAt!;
        this.table.print(jobId, `simulated: ran ${ran} ms on ${workload.node}, exit ${exitCode}\n`);
      }
      this.end(jobId, { exitCode });
    });
  }

  /** The scripted figures: memory as set (at most the limit, where the kernel stops it), CPU as it ran. */
  protected override usageOf(held: HeldWorkload): WorkloadUsage | null {
    const { memoryMib, cpuPercent } = this.scripts.get(held.jobId) ?? {};
    if (memoryMib === undefined && cpuPercent === undefined) return null;
    const memoryBytes = Math.min((memoryMib ?? 0) * 2 ** 20, held.spec.memoryBytes);
    const ranMs = Date.now() - (held.startedAt ?? Date.now());
    const cpuNanos = Math.round(ranMs * 1e6 * ((cpuPercent ?? 0) / 100));
    return { memoryBytes, peakMemoryBytes: memoryBytes, cpuNanos };
  }

  private overItsMemory(jobId: string): boolean {
    const memoryMib = this.scripts.get(jobId)?.memoryMib;
    return (
      memoryMib !== undefined && memoryMib * 2 ** 20 > this.table.required(jobId).spec.memoryBytes
    );
  }

  private end(jobId: string, how: Pick<Workload, 'exitCode'> & Partial<Workload>): void {
    clearTimeout(this.timers.get(jobId));
    this.timers.delete(jobId);
    const node = this.table.find(jobId)?.node;
    if (node) this.occupants.get(node)?.delete(jobId);
    this.table.change(jobId, { message: null, ...how, status: 'exited', finishedAt: Date.now() });
    this.placeWaiting();
  }

  private after(jobId: string, ms: number, then: () => void): void {
    this.timers.set(
      jobId,
      setTimeout(() => {
        this.timers.delete(jobId);
        then();
      }, ms).unref(),
    );
  }

  private withFreeSlot(node: string): string | undefined {
    const jobs = this.occupants.get(node);
    return jobs && jobs.size < this.settings.slotsPerNode ? node : undefined;
  }

  private freestNode(): string | undefined {
    let best: string | undefined;
    let fewest = this.settings.slotsPerNode;
    for (const [node, jobs] of this.occupants) {
      if (jobs.size < fewest) [best, fewest] = [node, jobs.size];
    }
    return best;
  }

  private drawExitCode(): number {
    const codes = this.settings.exitCodes;
    const total = codes.reduce((sum, [, weight]) => sum + weight, 0);
    let point = this.random() * total;
    for (const [code, weight] of codes) {
      point -= weight;
      if (point < 0) return code;
    }
    return codes[codes.length - 1]![0];
  }

  protected answer(): void {
    if (Date.now() < this.outageEndsAt) throw new EngineUnavailableError(messages.outage);
  }
}
