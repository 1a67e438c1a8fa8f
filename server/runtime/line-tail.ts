import type { OutputSize } from '../jobs/model';
import type { WorkloadLine, WorkloadOutput } from '../jobs/ports';

/**
 * Keeps the newest whole lines holding at most `maxBytes`, however many are added: output of any
 * size is read through it in bounded memory (a job printing 400 MB once took the service to a
 * 4.5 GB peak). The newest line is kept even when it alone is longer.
 */
export class LineTail {
  private lines: WorkloadLine[] = [];
  /** Lines before this index are dropped (compacted now and then, not shifted one by one). */
  private first = 0;
  private size = 0;
  private dropped = false;
  private readonly seen: OutputSize = { lines: 0, bytes: 0 };

  constructor(private readonly maxBytes: number) {}

  add(line: WorkloadLine): void {
    this.seen.lines += 1;
    this.seen.bytes += line.bytes.length;
    this.lines.push(line);
    this.size += line.bytes.length;
    while (this.lines.length - this.first > 1 && this.size > this.maxBytes) {
      this.size -= this.lines[this.first]!.bytes.length;
      this.first += 1;
      this.dropped = true;
    }
    if (this.first > 1024 && this.first > this.lines.length / 2) {
      this.lines = this.lines.slice(this.first);
      this.first = 0;
    }
  }

  /** Whether it dropped lines already: reading further back would only drop more. */
  get full(): boolean {
    return this.dropped;
  }

  /** Every line added, kept or dropped. */
  get added(): OutputSize {
    return { ...this.seen };
  }

  /** What was kept; truncated when anything before it was left out (here, or by `cutBefore`). */
  tail(cutBefore: boolean): WorkloadOutput {
    return { lines: this.lines.slice(this.first), truncated: this.dropped || cutBefore };
  }
}
