import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { buildIfChanged, removeRunContainers } from './service';

/**
 * The real engine must be there; the test image is built from the host's busybox if missing, and
 * the service and console from this checkout's sources when they changed since the last build.
 * Containers of this run are labelled with its id and removed at the end, whatever state the
 * services that made them were left in.
 */
export default function setup(): () => void {
  const run = randomUUID();
  process.env.JOBDECK_TEST_RUN = run;
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'Docker Engine is not reachable: run scripts/test-all.sh, which installs and starts it',
    );
  }
  execFileSync(resolve(import.meta.dirname, '..', '..', 'scripts', 'build-test-image.sh'), {
    stdio: 'inherit',
  });
  buildIfChanged();
  return () => removeRunContainers(run);
}
