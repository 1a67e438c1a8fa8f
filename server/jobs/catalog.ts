import type {
  Labels,
  PlacementPolicy,
  RetryStrategy,
  ScheduleMissed,
  ScheduleOverlap,
} from '../../contract';
import type { RunOptions } from './model';
import type { Resources } from './placement';
import { NO_QUOTAS, type QuotaSettings } from './quotas';

/** What the admin declared: queues and versioned definitions, per project. */
export interface QueueSettings {
  ref: string;
  project: string;
  maxRunning: number;
  /** The most max_running an operator may set through the API. */
  maxRunningCeiling: number;
  priority: number;
  /** Its state the first time a store sees it; then the store's (QueueControls). */
  pausedAtStart: boolean;
  /** How long its finished jobs are kept; null: forever. */
  keepFinishedMs: number | null;
  /** Where its jobs start among the hosts with room. */
  placement: PlacementPolicy;
  /** Its weight among its project's queues of the same priority (fair-share.ts); default 1. */
  weight?: number;
}

/** How capacity is shared between projects (fair-share.ts). */
export interface FairShareSettings {
  /** A job that ended this long ago counts half as much in its project's share. */
  halfLifeMs: number;
  /** Each project's weight; a project not listed weighs 1. */
  projectWeights: ReadonlyMap<string, number>;
  /** Projects' and queues' quotas (quotas.ts); none by default. */
  quotas: QuotaSettings;
}

export const DEFAULT_FAIR_SHARE: FairShareSettings = {
  halfLifeMs: 3_600_000,
  projectWeights: new Map(),
  quotas: NO_QUOTAS,
};

/** What a definition's jobs ask for, the most a submission may, and the limits it starts from. */
export interface DefinitionResources {
  request: Resources;
  max: Resources;
  /** The container's limits before a request raises them (the definition's, else the defaults). */
  limits: { cpus: number; memoryBytes: number };
  /** Whether the definition declares `resources` (the definitions list shows them then). */
  declared: boolean;
}

export interface DefinitionSettings {
  ref: string;
  project: string;
  name: string;
  version: string;
  image: string;
  command: string[];
  parameters: Record<string, string>;
  env: Record<string, string>;
  timeoutSeconds: number;
  stopGraceSeconds: number;
  cpus: number | null;
  memoryBytes: number | null;
  resources: DefinitionResources;
  network: string;
  runOptions: RunOptions;
  /** Its retry strategy (backoff defaults filled in), or null: one attempt. */
  retry: RetryStrategy | null;
  /** Hash of everything above: a used version must keep it (definitions are immutable). */
  fingerprint: string;
}

/** A recurring schedule: each firing submits a job of `definition` to `queue`. */
export interface ScheduleSettings {
  /** `<project>::<name>`. */
  ref: string;
  project: string;
  name: string;
  definition: string;
  queue: string;
  cron: string;
  timezone: string;
  overlap: ScheduleOverlap;
  missed: ScheduleMissed;
  /** How late a firing is when it counts as missed. */
  missedAfterMs: number;
  parameters: Record<string, string>;
  labels: Labels;
  /** Its state the first time a store sees it; then the store's. */
  pausedAtStart: boolean;
}

export class Catalog {
  private readonly queuesByRef: Map<string, QueueSettings>;
  private readonly definitionsByRef: Map<string, DefinitionSettings>;
  /** Highest priority first: the order in which the dispatcher fills slots. */
  readonly queuesByPriority: readonly QueueSettings[];

  constructor(
    queues: QueueSettings[],
    definitions: DefinitionSettings[],
    readonly maxRunning: number,
    /** By name within each project, projects in the configuration's order. */
    readonly schedules: readonly ScheduleSettings[] = [],
    readonly fairShare: FairShareSettings = DEFAULT_FAIR_SHARE,
  ) {
    this.queuesByRef = new Map(queues.map((q) => [q.ref, q]));
    this.definitionsByRef = new Map(definitions.map((d) => [d.ref, d]));
    // Ties by code point: localeCompare would load ICU's collator on every start-up.
    this.queuesByPriority = [...queues].sort(
      (a, b) => b.priority - a.priority || (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0),
    );
  }

  queue(ref: string): QueueSettings | undefined {
    return this.queuesByRef.get(ref);
  }

  definition(ref: string): DefinitionSettings | undefined {
    return this.definitionsByRef.get(ref);
  }

  definitions(): DefinitionSettings[] {
    return [...this.definitionsByRef.values()];
  }
}
