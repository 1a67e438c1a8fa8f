import type { Catalog, QueueSettings } from './catalog';
import { invalid, JobRequestError } from './errors';
import type { Logger, QueueControl, QueueControlChange, QueueControlStore, Signals } from './ports';

/** A queue as the dispatcher obeys it now: its settings with what operators changed since. */
export interface LiveQueue {
  settings: QueueSettings;
  paused: boolean;
  pausedReason: string | null;
  maxRunning: number;
  changed: QueueControl['changed'];
}

const notFoundQueue = (ref: string) =>
  new JobRequestError('not-found', `queue: no queue "${ref}" in this project`);

/**
 * Pause, resume and slot limits changed through the API. The store holds them, so every
 * instance obeys a change: the instance that made it tells the others at once (a signal), and
 * each reads them again on every reconcile pass in case a signal was lost.
 */
export class QueueControls {
  private byRef = new Map<string, QueueControl>();
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly parts: {
      store: QueueControlStore;
      catalog: Catalog;
      signals: Signals;
      logger: Logger;
    },
  ) {
    parts.signals.subscribe((signal) => {
      if (signal.kind === 'queues') void this.refresh();
    });
  }

  /** Stores the queues first seen (paused as configured), then reads every queue's controls. */
  async start(): Promise<void> {
    const queues = this.parts.catalog.queuesByPriority;
    await this.parts.store.register(queues.map((q) => ({ ref: q.ref, paused: q.pausedAtStart })));
    await this.refresh();
  }

  /** Called when a change may let jobs start (resumed, more slots): the dispatcher's kick. */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** Reads the controls again; tells the listeners when one differs from what was known. */
  async refresh(): Promise<void> {
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
      maxRunning: control?.maxRunning ?? settings.maxRunning,
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
    if (!(await this.parts.store.change(ref, change, by, Date.now()))) throw notFoundQueue(ref);
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
