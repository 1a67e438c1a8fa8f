import { EventEmitter } from 'node:events';
import type { Signal, Signals } from '../jobs/ports';

/** Signals within this process: the store is not shared with another that could hear them. */
export class LocalSignals implements Signals {
  private readonly emitter = new EventEmitter();

  async publish(signal: Signal): Promise<void> {
    // Delivered on the next turn, as a notification from a database would be.
    setImmediate(() => this.emitter.emit('signal', signal));
  }

  subscribe(listener: (signal: Signal) => void): void {
    this.emitter.on('signal', listener);
  }
}
