import { execFileSync, spawn } from 'node:child_process';
import { RUN_LABEL, runId } from './service';

/**
 * Every container start of this test run, as the engine itself reports it, recorded live from
 * `docker events` (the engine keeps only its last few hundred events, so they cannot be read
 * back afterwards): the proof that nothing ran twice.
 */
export class ContainerStarts {
  private readonly lines: string[] = [];
  private readonly process;
  private readonly ready: Promise<void>;

  constructor(socket?: string) {
    this.process = spawn(
      'docker',
      [
        ...(socket ? ['-H', `unix://${socket}`] : []),
        'events',
        '--filter',
        'event=start',
        '--filter',
        `label=${RUN_LABEL}=${runId()}`,
        '--format',
        '{{index .Actor.Attributes "jobdeck.job"}}',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    this.process.stdout.on('data', (data: Buffer) => this.lines.push(data.toString()));
    // `docker events` subscribes as it starts: give it that moment before anything happens.
    this.ready = new Promise((resolve) => setTimeout(resolve, 500));
  }

  started(): Promise<void> {
    return this.ready;
  }

  /** Starts per job id so far; waits a moment for the engine's last events to arrive. */
  async byJob(): Promise<Map<string, number>> {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const starts = new Map<string, number>();
    for (const jobId of this.lines.join('').split('\n').filter(Boolean)) {
      starts.set(jobId, (starts.get(jobId) ?? 0) + 1);
    }
    return starts;
  }

  stop(): void {
    this.process.kill();
  }
}

/** Containers the engine still holds for a job. */
export function containersOf(jobId: string): string[] {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=jobdeck.job=${jobId}`])
    .toString()
    .split('\n')
    .filter(Boolean);
}
