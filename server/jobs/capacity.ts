import type { PlacementPolicy, ResourceRequest } from '../../contract';
import { invalid, unavailable } from './errors';
import type { ClaimPlacement, NewJob } from './model';
import type { ContainerRuntime, EngineHosts } from './ports';
import { amountOf, beyondEveryHost, type Resources } from './placement';

/** A host list is read again after this long: a claim per tick would ask the engine each time. */
const HOSTS_KEPT_MS = 2000;

/** What a job stored before requests were kept asks for: its limits, else the defaults. */
export interface RequestFallback {
  cpus: number;
  memoryBytes: number;
}

const FIELD_OF = { cpus: 'cpus', memoryBytes: 'memory_bytes', gpus: 'gpus' } as const;

/**
 * The engine's hosts as placement sees them, read at most every 2 s. An engine that does not
 * say (no `hosts`, or null) leaves jobs limited by slots alone.
 */
export class HostCapacity {
  private kept: { at: number; answer: Promise<EngineHosts | null> } | undefined;

  constructor(
    private readonly runtime: Pick<ContainerRuntime, 'hosts'>,
    /** What a job stored before requests were kept asks for. */
    readonly fallback: RequestFallback,
  ) {}

  /** The hosts now (at most 2 s old); throws EngineUnavailableError when the engine is away. */
  async current(): Promise<EngineHosts | null> {
    if (!this.runtime.hosts) return null;
    const now = Date.now();
    if (!this.kept || now - this.kept.at > HOSTS_KEPT_MS) {
      const answer = this.runtime.hosts();
      this.kept = { at: now, answer };
      // A failed read is not kept: the next one asks again.
      answer.catch(() => {
        if (this.kept?.answer === answer) this.kept = undefined;
      });
    }
    return this.kept.answer;
  }

  /** What a queue's claim places with; undefined where the engine reports no hosts. */
  async placementFor(policy: PlacementPolicy): Promise<ClaimPlacement | undefined> {
    const engine = await this.current();
    return engine ? { hosts: engine.hosts, policy, fallback: this.fallback } : undefined;
  }

  /**
   * Refuses a job bigger than every host where no other host can come (the local engine's one
   * machine), naming the field that asks for too much. Elsewhere its note says so while it waits.
   * An engine away refuses nothing: the job waits and its note says why.
   */
  async refuseIfNeverFits(job: NewJob, asked: ResourceRequest | undefined): Promise<void> {
    if (!job.resources) return;
    const engine = await this.current().catch(() => null);
    if (!engine?.fixed) return;
    const beyond = beyondEveryHost(engine.hosts, job.resources);
    if (!beyond) return;
    const { dimension, largest } = beyond;
    const field =
      asked?.[FIELD_OF[dimension]] !== undefined
        ? `resources.${FIELD_OF[dimension]}`
        : 'job_definition';
    throw invalid(
      `${field}: asks for ${amountOf(dimension, job.resources[dimension])}; the largest host has ${amountOf(dimension, largest)}, so it could never start`,
    );
  }
}

/** What a job asks for: its request, or (stored before requests were kept) its limits. */
export function requestOf(
  job: { resources: Resources | null; cpus: number | null; memoryBytes: number | null },
  fallback: RequestFallback,
): Resources {
  return (
    job.resources ?? {
      cpus: job.cpus ?? fallback.cpus,
      memoryBytes: job.memoryBytes ?? fallback.memoryBytes,
      gpus: 0,
    }
  );
}

/** The engine's hosts for an API read: unavailable (503) while the engine is away. */
export async function hostsForRead(capacity: HostCapacity): Promise<EngineHosts | null> {
  try {
    return await capacity.current();
  } catch {
    throw unavailable('the container engine does not answer: its hosts are not known now');
  }
}
