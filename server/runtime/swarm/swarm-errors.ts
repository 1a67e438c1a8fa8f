import { EngineUnavailableError, RuntimeError } from '../../jobs/ports';
import { detailOf, statusOf, unavailability } from '../engine-api/errors';

// A manager that lost its quorum, or is restarting and has no leader yet, answers 503 with this.
const NO_LEADER = /does not have a leader|too few managers|raft/i;
// An engine that is a worker, or in no swarm at all: pointed at the wrong daemon.
const NOT_A_MANAGER = /not a swarm manager|not part of a swarm/i;
// gRPC codes the manager passes on when its control plane is busy or going away.
const CONTROL_PLANE_AWAY = /code = (Unavailable|DeadlineExceeded|Canceled)/;

/**
 * Swarm errors become "the engine is away" (the manager does not answer, has no quorum, or is
 * not a manager: retry later, blame no job) or a sentence for the job's system_note.
 */
export function translate(error: unknown, action: string, endpoint: string): Error {
  const away = unavailability(error, endpoint);
  if (away) return away;
  const detail = detailOf(error);
  if (NOT_A_MANAGER.test(detail)) {
    return new EngineUnavailableError(
      `the engine at ${endpoint} is not a swarm manager; point engine.socket or engine.host at a manager (docker node ls works there): ${detail}`,
    );
  }
  if (NO_LEADER.test(detail) || statusOf(error) === 503 || CONTROL_PLANE_AWAY.test(detail)) {
    return new EngineUnavailableError(
      `the swarm manager at ${endpoint} cannot act: it has no leader (too few managers online?): ${detail}`,
    );
  }
  return new RuntimeError(`the swarm refused to ${action}: ${detail}`);
}
