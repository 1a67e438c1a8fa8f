import type { OutputWindow, Workload, WorkloadOutput, WorkloadUsage } from '../../jobs/ports';
import type { HeldWorkload } from './workload-table';
import { WorkloadTable } from './workload-table';

/**
 * The calls the engines without containers (the fake, the simulated engine) answer alike, from
 * their workload table: each refused while the engine is away, as a real engine's would be.
 */
export abstract class InMemoryEngine {
  protected readonly table: WorkloadTable;

  constructor(idPrefix: string) {
    this.table = new WorkloadTable(idPrefix);
  }

  /** Throws EngineUnavailableError while the engine does not answer. */
  protected abstract answer(): void;

  async ping(): Promise<void> {
    this.answer();
  }

  async inspect(jobId: string): Promise<Workload | null> {
    this.answer();
    return this.table.inspect(jobId);
  }

  async list(): Promise<Workload[]> {
    this.answer();
    return this.table.list();
  }

  async waitForChange(workload: Workload): Promise<void> {
    this.answer();
    await this.table.waitForChange(workload);
  }

  /** Engines without containers know every out-of-memory kill: they make them. */
  readonly reportsOutOfMemory = true;

  /** As a real engine: figures while it runs, none once it ended (its cgroup is gone). */
  async usage(workload: Workload): Promise<WorkloadUsage | null> {
    this.answer();
    const held = this.table.held(workload);
    return held?.status === 'running' ? this.usageOf(held) : null;
  }

  /** What a running workload uses: the figures set on it, unless the engine works them out. */
  protected usageOf(held: HeldWorkload): WorkloadUsage | null {
    return held.usage ?? null;
  }

  async readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput> {
    this.answer();
    return this.table.readOutput(workload, window);
  }
}
