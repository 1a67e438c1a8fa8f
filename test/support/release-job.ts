import { spawnSync } from 'node:child_process';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The container's status as the engine says it ("running", "exited"…), or why it cannot say. */
function statusOf(container: string): string {
  const run = spawnSync('docker', ['inspect', '-f', '{{.State.Status}}', container]);
  return run.status === 0 ? run.stdout.toString().trim() : run.stderr.toString().trim();
}

/**
 * Lets a job that waits for `/tmp/release` end, through `docker exec` into its container. An exec
 * into a running container can fail on the engine's side on a loaded machine (runc's "broken
 * pipe"); it is asked again while the container runs. A container gone or ended is this test's
 * failure, said with the engine's words.
 */
export async function releaseHeldJob(jobId: string): Promise<void> {
  const container = `jobdeck-${jobId}`;
  for (let attempt = 1; ; attempt++) {
    const run = spawnSync('docker', ['exec', container, 'touch', '/tmp/release']);
    if (run.status === 0) return;
    const status = statusOf(container);
    if (status !== 'running' || attempt === 3) {
      throw new Error(
        `docker exec into ${container} failed (exit ${run.status}: ${run.stderr.toString().trim()}); its container: ${status}`,
      );
    }
    await sleep(1000);
  }
}
