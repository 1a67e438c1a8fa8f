import { ensureSwarm, swarmDown } from '../support/swarm';

/**
 * The three-node swarm of scripts/swarm-up.sh, with the test image on every node: brought up
 * if it is not (and down again at the end, even when tests fail), reused if it is.
 */
export default function setup(): () => void {
  const { broughtUp } = ensureSwarm();
  return () => {
    if (broughtUp) swarmDown();
  };
}
