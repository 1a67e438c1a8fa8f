import { SLOT_STATES } from '../../contract';
import { auditEntry } from './audit';
import type { HostCapacity } from './capacity';
import type { Catalog, QueueSettings } from './catalog';
import type { Job } from './model';
import { notes } from './notes';
import type { JobStore, Logger } from './ports';
import type { QueueControls } from './queue-controls';
import type { QuotaSettings } from './quotas';
import { planReclaim } from './reclaim-plan';
import type { Runner } from './runner';

/** Who the audit trail names for what the service does by itself. */
export const RECLAIM_ACTOR = 'system:reclaim';

export interface ReclaimerParts {
  store: Pick<JobStore, 'firstEligibleWaiting' | 'jobsInStates' | 'requestPreemption'>;
  catalog: Catalog;
  controls: Pick<QueueControls, 'live'>;
  capacity: Pick<HostCapacity, 'current' | 'fallback'>;
  runner: Pick<Runner, 'nudge'>;
  logger: Logger;
}

const preemptsAt = (settings: QuotaSettings, queue: QueueSettings) =>
  settings.queues.get(queue.ref)?.reclaim === 'preempt' ||
  settings.projects.get(queue.project)?.reclaim === 'preempt';

/**
 * Takes back lent quota at once where a lender's quota says `reclaim: preempt`
 * (docs/guides/quotas.md, "Reclaim"): after each dispatch, the dispatcher (the lease's holder,
 * the one instance deciding) asks it for each such queue's first waiting job, and it marks the
 * borrowed jobs reclaim-plan.ts chooses as preempted in the store (a job still running on the
 * attempt read, once), then nudges their owners. The marking is the whole decision: the owner's
 * runner stops the container with its grace (SIGTERM, then SIGKILL), and its end sends the job back
 * to runnable for a new attempt (attempts.ts); a restart or a takeover finds the mark and does
 * the same, so nothing is lost or run twice.
 */
export class Reclaimer {
  private readonly listeners = new Set<(job: Job) => void>();

  constructor(private readonly parts: ReclaimerParts) {}

  /** Each job preempted by this instance, as it is marked (metrics). */
  onPreempted(listener: (job: Job) => void): void {
    this.listeners.add(listener);
  }

  async pass(now = Date.now()): Promise<void> {
    const { catalog, controls, store } = this.parts;
    const settings = catalog.fairShare.quotas;
    const lenders = catalog.queuesByPriority.filter(
      (q) => preemptsAt(settings, q) && !controls.live(q).paused,
    );
    if (lenders.length === 0) return;
    const heads = await Promise.all(lenders.map((q) => store.firstEligibleWaiting(q.ref, now)));
    const waiting = lenders.flatMap((queue, i) =>
      heads[i]?.state === 'runnable' ? [{ queue, job: heads[i] }] : [],
    );
    if (waiting.length === 0) return;
    const [holding, engine] = await Promise.all([
      store.jobsInStates(SLOT_STATES),
      this.parts.capacity.current().catch(() => undefined),
    ]);
    if (engine === undefined) return; // hosts unknown: nothing is judged on a guess
    for (const { queue, job } of waiting) {
      const plan = planReclaim({
        waiting: job,
        holding,
        settings,
        hosts: engine?.hosts,
        serviceMax: catalog.maxRunning,
        queueMax: controls.live(queue).maxRunning,
        fallback: this.parts.capacity.fallback,
      });
      for (const victim of plan?.victims ?? []) {
        const preemption = { at: now, reason: plan!.reasonFor(victim) };
        if (!(await this.preempt(victim, preemption, job))) continue;
        // The next lender's plan counts it as being freed.
        holding[holding.indexOf(victim)] = { ...victim, preemption };
      }
    }
  }

  private async preempt(victim: Job, preemption: Job['preemption'] & {}, forJob: Job) {
    // Audited in the mark's own transaction: a preemption decided as the service stops (its
    // audit trail written and closed first) or crashes is never left out of the trail.
    const marked = await this.parts.store.requestPreemption({
      id: victim.id,
      attempt: victim.attempt,
      preemption,
      note: notes.preempting(preemption.reason, victim.stopGraceSeconds),
      audit: auditEntry({
        project: victim.project,
        actor: RECLAIM_ACTOR,
        address: '-',
        action: 'job.preempt',
        target: victim.id,
        detail: { queue: victim.queue, reason: preemption.reason, attempt: victim.attempt },
      }),
    });
    if (!marked) return false;
    this.parts.logger.info(
      { jobId: victim.id, queue: victim.queue, forJob: forJob.id, reason: preemption.reason },
      'preempting a borrowed job',
    );
    for (const listener of this.listeners) listener(victim);
    this.parts.runner.nudge(victim.id);
    return true;
  }
}
