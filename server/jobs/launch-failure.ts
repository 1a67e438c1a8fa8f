import { attemptEnd } from './attempts';
import type { EngineHealth } from './engine-health';
import type { JobSecrets } from './job-secrets';
import { notes } from './notes';
import { EngineUnavailableError, RuntimeError, SecretKeyMissingError, type Logger } from './ports';
import type { JobStateMachine } from './state-machine';

/** Every move the runner makes is its own as the job's owner: taken over, it changes nothing. */
export const OWNED = { owned: true } as const;

/** What the runner does after a launch failed, with what. */
export interface LaunchFailureParts {
  machine: JobStateMachine;
  health: EngineHealth;
  logger: Logger;
}

/**
 * After a launch failed: a job that waits for the engine or for a secret key goes back to
 * runnable, saying so; one the engine refused (or failed on) ends in error, its reason scrubbed
 * of its secrets; one cancelled meanwhile ends cancelled.
 */
export async function afterLaunchFailure(
  { machine, health, logger }: LaunchFailureParts,
  jobId: string,
  error: unknown,
  secrets: JobSecrets | undefined,
): Promise<void> {
  if (error instanceof EngineUnavailableError) {
    // Not the job's fault: it waits for the engine. Should the engine have made the container
    // after all, the next launch finds it by the job's id instead of making a second.
    health.markDown(error.message);
    const since = health.unreachableSince ?? Date.now();
    await machine.decideAndMove(
      jobId,
      (job) =>
        job.state === 'starting'
          ? { to: 'runnable', note: notes.waitingForEngine(since) }
          : undefined,
      OWNED,
    );
    return;
  }
  if (error instanceof SecretKeyMissingError) {
    // Not the job's fault either, nor the engine's: it waits until an instance has the key.
    logger.warn({ jobId, keyId: error.keyId }, 'a job needs a secret key this instance lacks');
    await machine.decideAndMove(
      jobId,
      (job) =>
        job.state === 'starting'
          ? { to: 'runnable', note: notes.waitingForSecretKey(error.keyId) }
          : undefined,
      OWNED,
    );
    return;
  }
  const message =
    error instanceof RuntimeError ? error.message : notes.engineFailed(messageOf(error));
  const reason = secrets ? secrets.scrub(message) : message;
  logger.warn({ jobId, reason }, 'the engine could not run a job');
  const finishedAt = Date.now();
  await machine.decideAndMove(
    jobId,
    (job) => {
      if (job.state === 'starting') {
        const outcome = {
          to: 'error' as const,
          note: reason,
          fields: { exitCode: null, finishedAt },
        };
        return attemptEnd(
          job,
          outcome,
          { workload: null, output: undefined, memoryBytes: null },
          finishedAt,
        );
      }
      if (job.state === 'cancelling') {
        return { to: 'cancelled', note: notes.cancelledBeforeContainer, fields: { finishedAt } };
      }
      return undefined;
    },
    OWNED,
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
