import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/** The real engine must be there; the test image is built from the host's busybox if missing. */
export default function setup(): void {
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
}
