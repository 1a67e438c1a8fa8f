import type { PlacementPolicy } from '../../contract';
import type { LeaseFence } from './lease-fence';
import type { Host } from './placement';
import type { ClaimQuota } from './quotas';

/**
 * A dispatcher asking for work: up to `limit` of the queue's oldest runnable jobs, as far as the
 * queue's and the whole service's slots allow, counted in the same transaction that takes them.
 */
export interface Claim {
  queue: string;
  limit: number;
  /** The queue's max_running and the service's. */
  queueMax: number;
  serviceMax: number;
  /** At most this many start (fair share deals room out one job at a time); default: the room. */
  starts?: number;
  /** The instance that claims: what it claims runs there unless `owners` says otherwise. */
  owner: string;
  /**
   * The instances the jobs claimed are given to, in turn: the first job to the first, and so
   * on round (the dispatcher's assignment, dispatcher.ts). Absent: all to `owner`.
   */
  owners?: readonly string[];
  /** The lease the claimer dispatches under: the claim is refused (LeaseLostError) once it lost it. */
  lease?: LeaseFence;
  at: number;
  /** Where the engine reports hosts: each job claimed is placed on one with room (placement.ts). */
  placement?: ClaimPlacement;
  /**
   * Where quotas are set: the most the jobs it starts may ask for together (quotas.ts). The
   * queue's jobs are taken in order: one its quota has no room for stops the claim, so a big job
   * is never overtaken for quota by the smaller ones behind it.
   */
  quota?: ClaimQuota;
}

/** The hosts a claim places on, how, and what jobs stored before requests were kept ask for. */
export interface ClaimPlacement {
  hosts: Host[];
  policy: PlacementPolicy;
  fallback: { cpus: number; memoryBytes: number };
}
