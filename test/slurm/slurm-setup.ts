import { ensureSlurm, slurmDown } from '../support/slurm';

/**
 * The one-machine cluster of scripts/slurm-up.sh: brought up if it is not (and down again at the
 * end, even when tests fail), reused if it is.
 */
export default function setup(): () => void {
  const { broughtUp } = ensureSlurm();
  return () => {
    if (broughtUp) slurmDown();
  };
}
