import type { OutputWindow, Workload, WorkloadOutput } from '../../jobs/ports';
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

  async readOutput(workload: Workload, window: OutputWindow): Promise<WorkloadOutput> {
    this.answer();
    return this.table.readOutput(workload, window);
  }
}
