import type { Catalog, QueueSettings } from './catalog';
import { invalid, notFoundQueue } from './errors';
import type { IncidentLog } from './incidents';
import type { Logger, QueueControl, QueueControlChange, QueueControlStore, Signals } from './ports';

/** A queue as the dispatcher obeys it now: its settings with what operators changed since. */
export interface LiveQueue {
  settings: QueueSettings;
  paused: boolean;
  pausedReason: string | null;
  maxRunning: number;
  changed: QueueControl['changed'];
}

/**
 * Pause, resume and slot limits changed through the API. The store holds them, so every
 * instance obeys a change: the instance that made it tells the others at once (a signal), and
 * each reads them again on every reconcile pass in case a signal was lost.
 */
export class QueueControls {
  private byRef = new Map<string, QueueControl>();
  private readonly listeners: (() => void)[] = [];
  /** Reads one after the other: on a pool, an older read finishing last would undo a change. */
  private reading: Promise<void> = Promise.resolve();

  constructor(
    private readonly parts: {
      store: QueueControlStore;
      catalog: Catalog;
      signals: Signals;
      logger: Logger;
      /** Without the API (extensions off) the configuration is the only way to change a queue. */
      configRules: boolean;
      /** Where pauses are kept as windows for the trends. */
      incidents?: Pick<IncidentLog, 'queuePaused' | 'queueResumed'>;
    },
  ) {
    parts.signals.subscribe((signal) => {
      if (signal.kind === 'queues') void this.refresh();
    });
  }

  /**
   * Stores the queues first seen (as configured) and applies edits of the configuration, then
   * reads every queue's controls. A queue whose stored pause differs from its configuration
   * (paused or resumed through the API since) is named in the log. Without the API, the
   * configuration rules.
   */
  async start(): Promise<void> {
    const { catalog, store, logger, configRules } = this.parts;
    const queues = catalog.queuesByPriority;
    await store.register(
      queues.map((q) => ({ ref: q.ref, paused: q.pausedAtStart, maxRunning: q.maxRunning })),
      Date.now(),
    );
    await this.refresh();
    for (const settings of queues) {
      const control = this.byRef.get(settings.ref);
      if (!control) continue;
      const differs = control.paused !== settings.pausedAtStart || control.maxRunning !== null;
      if (differs && configRules) {
        const paused = settings.pausedAtStart ? { reason: null } : false;
        await store.change({
          ref: settings.ref,
          change: { paused, maxRunning: null },
          by: 'configuration',
          now: Date.now(),
        });
        this.recordPause(settings.ref, paused);
      } else if (control.paused !== settings.pausedAtStart) {
        logger.warn(
          { queue: settings.ref, changed: control.changed },
          `queue ${settings.ref} is ${control.paused ? 'paused' : 'running'} as last set through the API, not as its configuration says (an edit of its paused would win)`,
        );
      }
    }
    if (configRules) await this.refresh();
  }

  private recordPause(ref: string, paused: QueueControlChange['paused']): void {
    if (paused) this.parts.incidents?.queuePaused(ref, paused.reason);
    else this.parts.incidents?.queueResumed(ref);
  }

  /** Called when a change may let jobs start (resumed, more slots): the dispatcher's kick. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Reads the controls again; tells the listeners when one differs from what was known. */
  refresh(): Promise<void> {
    this.reading = this.reading.then(() => this.read());
    return this.reading;
  }

  private async read(): Promise<void> {
    try {
      const controls = await this.parts.store.controls();
      const next = new Map(controls.map((control) => [control.ref, control]));
      const differs = controls.some(
        (control) => JSON.stringify(this.byRef.get(control.ref)) !== JSON.stringify(control),
      );
      this.byRef = next;
      if (differs) for (const listener of this.listeners) listener();
    } catch (error) {
      this.parts.logger.warn(
        { err: error },
        'could not read the queues’ controls; keeping the last',
      );
    }
  }

  live(settings: QueueSettings): LiveQueue {
    const control = this.byRef.get(settings.ref);
    return {
      settings,
      paused: control?.paused ?? settings.pausedAtStart,
      pausedReason: control?.pausedReason ?? null,
      // A ceiling lowered in the configuration since holds over a value set before it.
      maxRunning: Math.min(control?.maxRunning ?? settings.maxRunning, settings.maxRunningCeiling),
      changed: control?.changed ?? null,
    };
  }

  /** The project's queue by ref, as it is now; another project's is missing, as for jobs. */
  liveInProject(project: string, ref: string): LiveQueue {
    const settings = this.parts.catalog.queue(ref);
    if (!settings || settings.project !== project) throw notFoundQueue(ref);
    return this.live(settings);
  }

  /** Changes the project's queue for every instance; answers it as it is now. */
  async change(
    project: string,
    ref: string,
    change: QueueControlChange,
    by: string,
  ): Promise<LiveQueue> {
    const { settings } = this.liveInProject(project, ref);
    const ceiling = settings.maxRunningCeiling;
    if (typeof change.maxRunning === 'number' && change.maxRunning > ceiling) {
      throw invalid(
        `max_running: must be at most ${ceiling}, the queue's max_running_ceiling in the configuration`,
      );
    }
    if (!(await this.parts.store.change({ ref, change, by, now: Date.now() })))
      throw notFoundQueue(ref);
    if (change.paused !== undefined) this.recordPause(ref, change.paused);
    await this.refresh();
    this.parts.signals.publish({ kind: 'queues' }).catch((error: unknown) => {
      this.parts.logger.warn(
        { err: error },
        'could not signal the other instances; their passes will',
      );
    });
    return this.live(settings);
  }
}
