import { Writable } from 'node:stream';

/**
 * A sink that keeps only the last `maxBytes` written to it: output of any size is read through
 * it in bounded memory (a job printing 400 MB once took the service to a 4.5 GB peak).
 */
export class LogTail extends Writable {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = false;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.add(chunk);
    done();
  }

  add(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.length >= this.maxBytes) {
      this.size -= this.chunks.shift()!.length;
      this.dropped = true;
    }
  }

  /** What was kept, and whether anything before it was left out. */
  tail(): { bytes: Buffer; truncated: boolean } {
    const all = Buffer.concat(this.chunks);
    if (all.length <= this.maxBytes) return { bytes: all, truncated: this.dropped };
    return { bytes: all.subarray(all.length - this.maxBytes), truncated: true };
  }
}
