/**
 * The streams' sends, run together in rounds at most once per `intervalMs`. Each round costs
 * every stream with something new one socket write (a system call), whatever it carries: with
 * the feed moving on every transition, a round per move made the writes grow with transitions
 * times streams. Rounds bound them to streams times rounds, and each carries what moved since the
 * last. When nothing ran for an interval, a round runs at once: a lone change waits for nothing.
 */
export class SendRounds {
  private readonly due = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private last = 0;

  constructor(private readonly intervalMs: number) {}

  /** Runs `send` in the next round; asked again before then, it still runs once. */
  ask(send: () => void): void {
    this.due.add(send);
    if (this.timer) return;
    const wait = Math.max(0, this.last + this.intervalMs - Date.now());
    this.timer = setTimeout(() => this.run(), wait);
    this.timer.unref();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.due.clear();
  }

  private run(): void {
    this.timer = undefined;
    this.last = Date.now();
    const sends = [...this.due];
    this.due.clear();
    for (const send of sends) send();
  }
}
