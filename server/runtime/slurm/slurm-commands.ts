import { execFile, type ExecFileException } from 'node:child_process';
import { EngineUnavailableError, RuntimeError } from '../../jobs/ports';

// Slurm's clients retry an unreachable controller for MessageTimeout (10 s by default) before
// giving up: a little longer, and the controller is taken for away.
const COMMAND_TIMEOUT_MS = 20_000;
// What the clients say when the controller does not answer (down, restarting, unreachable).
const CONTROLLER_AWAY =
  /unable to contact slurm controller|socket timed out|connection refused|connection timed out|slurm_receive_msg|slurmctld.*(down|not responding)|Zero Bytes were transmitted/i;

export interface SlurmCommandsOptions {
  /** The slurm.conf the commands read (SLURM_CONF); undefined: the system's. */
  conf: string | undefined;
}

/**
 * Slurm's client commands, run with an environment of their own: only PATH, the configuration
 * and epoch times, so that nothing of Jobdeck's environment (keys, tokens) reaches Slurm, and
 * no SQUEUE_FORMAT or SBATCH_* of the host changes what they do or print.
 */
export class SlurmCommands {
  private readonly env: NodeJS.ProcessEnv;

  constructor(options: SlurmCommandsOptions) {
    this.env = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      SLURM_TIME_FORMAT: '%s',
      ...(options.conf !== undefined && { SLURM_CONF: options.conf }),
    };
  }

  /** Its standard output; EngineUnavailableError when the controller is away, else RuntimeError. */
  run(command: string, args: readonly string[], action: string): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile(
        command,
        args,
        { env: this.env, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 * 1024 ** 2 },
        (error, stdout, stderr) => {
          if (!error) return resolve(stdout);
          reject(translate(error, stderr.trim(), command, action));
        },
      );
    });
  }
}

export class SlurmCommandError extends RuntimeError {
  constructor(
    message: string,
    /** What the command printed on stderr. */
    readonly detail: string,
  ) {
    super(message);
  }
}

function translate(
  error: ExecFileException,
  detail: string,
  command: string,
  action: string,
): Error {
  if (error.code === 'ENOENT') {
    return new EngineUnavailableError(
      `${command} is not installed on Jobdeck's machine: Slurm's client commands (slurm-client) are needed to ${action}`,
    );
  }
  if (error.killed) {
    return new EngineUnavailableError(
      `the Slurm controller did not answer in ${COMMAND_TIMEOUT_MS / 1000} s (${command}, to ${action})`,
    );
  }
  if (CONTROLLER_AWAY.test(detail)) {
    return new EngineUnavailableError(`the Slurm controller does not answer: ${detail}`);
  }
  return new SlurmCommandError(
    `Slurm refused to ${action}: ${detail || `${command} failed`}`,
    detail,
  );
}
