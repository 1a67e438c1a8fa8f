import type { Logger } from './ports';

/** What the console shows of the engine: whether it answers, since when not, and what waits. */
export interface EngineStatus {
  reachable: boolean;
  /** When it stopped answering (epoch ms); null while it answers. */
  unreachableSince: number | null;
  /** Dispatch starts nothing while the engine is marked down (a hang alone does not pause it). */
  dispatchPaused: boolean;
}

interface Outage {
  from: number;
  to: number;
}

// Enough to attribute the exits of one bad hour; older outages no longer explain anything.
const OUTAGES_KEPT = 32;

/**
 * Whether the container engine answers, as every engine call made by this process saw it.
 * The dispatcher starts work only while it does; notes of waiting jobs say since when it does not;
 * and an exit by a signal during an outage may be the engine's, not the job's (outcome.ts).
 */
export class EngineHealth {
  private downSince: number | null = null;
  /** When a pass last saw the engine answer its real calls (not only a ping). */
  private lastAnswerAt = Date.now();
  private readonly outages: Outage[] = [];
  private readonly listeners = new Set<(available: boolean) => void>();

  /**
   * @param slackMs how far before the first failed call an outage may have begun: a stop can
   *   kill containers up to one reconcile interval before anyone notices.
   */
  constructor(
    private readonly logger: Logger,
    private readonly slackMs: number,
    /** How long without an answer to a real call before the engine counts as hanging. */
    private readonly staleAfterMs: number = Number.POSITIVE_INFINITY,
  ) {}

  get available(): boolean {
    return this.downSince === null;
  }

  /**
   * What readiness reports: available, and answering its real calls lately. An engine that
   * answers its ping but hangs on every other call (a deadlocked dockerd) fails here, where a
   * ping alone would say it is fine while every job waits.
   */
  answering(now = Date.now()): boolean {
    return this.available && now - this.lastAnswerAt <= this.staleAfterMs;
  }

  /** How long since a real call last answered, for the readiness answer and the log. */
  silentForMs(now = Date.now()): number {
    return now - this.lastAnswerAt;
  }

  /**
   * Down (dispatch paused) since the first failed call; hanging (answering its ping, silent on
   * every real call) since its last answer.
   */
  status(now = Date.now()): EngineStatus {
    const reachable = this.answering(now);
    return {
      reachable,
      unreachableSince: reachable ? null : (this.downSince ?? this.lastAnswerAt),
      dispatchPaused: !this.available,
    };
  }

  /** When the outage under way may have begun (what wasDownAt counts from); null while up. */
  get outageStartedAt(): number | null {
    return this.downSince === null ? null : this.downSince - this.slackMs;
  }

  get unreachableSince(): number | null {
    return this.downSince;
  }

  onChange(listener: (available: boolean) => void): void {
    this.listeners.add(listener);
  }

  markDown(reason: string, at = Date.now()): void {
    if (this.downSince !== null) return;
    this.downSince = at;
    this.logger.warn({ reason }, 'the container engine is unreachable; dispatch paused');
    for (const listener of this.listeners) listener(false);
  }

  markUp(at = Date.now()): void {
    this.lastAnswerAt = at;
    if (this.downSince === null) return;
    this.outages.push({ from: this.downSince - this.slackMs, to: at });
    if (this.outages.length > OUTAGES_KEPT) this.outages.shift();
    this.logger.info(
      { unreachableForMs: at - this.downSince },
      'the container engine answers again; dispatch resumed',
    );
    this.downSince = null;
    for (const listener of this.listeners) listener(true);
  }

  /** Whether something that happened at `at` falls inside an outage this process saw. */
  wasDownAt(at: number): boolean {
    if (this.downSince !== null && at >= this.downSince - this.slackMs) return true;
    return this.outages.some((o) => at >= o.from && at <= o.to);
  }
}
