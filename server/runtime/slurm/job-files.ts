import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { toLogInstant } from '../../jobs/log-instant';
import type { OutputStream } from '../../jobs/model';
import {
  RuntimeError,
  type OutputWindow,
  type WorkloadLine,
  type WorkloadOutput,
} from '../../jobs/ports';
import { LineTail } from '../line-tail';

/**
 * One attempt of a job has a directory of its own in the work directory (which Jobdeck and every
 * node share), made 0700 by Jobdeck, which the Slurm job runs as: the batch script, the
 * environment file until the container is made, the output and the exit status. The directory is
 * the workload's existence: removing the workload removes it, and a Slurm job whose directory is
 * gone is no longer one of Jobdeck's.
 */
export const FILES = {
  /** The Slurm job that runs the attempt, once its launch chose it. */
  slurmJob: 'slurm-job',
  /** Docker's words when the container could not be made or started. */
  error: 'error',
  /** When the container started, in epoch milliseconds (the node's clock). */
  started: 'started',
  /** `<exit code> <OOM killed: true|false>`, written by the script once the container ended. */
  exit: 'exit',
  /** Written by Jobdeck's stop: a cancelled Slurm job was Jobdeck's doing, not an admin's. */
  stop: 'stop',
  stdout: 'stdout',
  stderr: 'stderr',
  /** What Slurm itself says of the batch script (its --output). */
  slurmLog: 'slurm.out',
} as const;

export interface Attempt {
  jobId: string;
  attempt: number;
}

export interface ExitStatus {
  exitCode: number | null;
  oomKilled: boolean;
  /** When the script wrote it: the container's end, when Slurm no longer knows the job. */
  at: number;
}

/** What a job directory holds that says how its workload is. */
export interface AttemptFiles extends Attempt {
  /** The Slurm job id chosen at launch; null while the launch has not chosen one yet. */
  slurmJob: string | null;
  /** When its container started; null while it has not. */
  startedAt: number | null;
  exit: ExitStatus | null;
  error: string | null;
  stopRequested: boolean;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

export class JobFiles {
  private readonly storeDir: string;

  constructor(workDir: string, storeId: string) {
    this.storeDir = join(workDir, storeId);
  }

  dirOf({ jobId, attempt }: Attempt): string {
    return join(this.storeDir, `${jobId}.${attempt}`);
  }

  /** Makes the attempt's directory (0700: its files are the job's user's alone). */
  async make(attempt: Attempt): Promise<string> {
    await mkdir(this.storeDir, { recursive: true, mode: 0o700 });
    const dir = this.dirOf(attempt);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  /** The batch script beside its environment file: each launch of an attempt has its own. */
  async writeScript(attempt: Attempt, envFile: string, script: string): Promise<string> {
    const path = join(this.dirOf(attempt), `${envFile}.sh`);
    await writeFile(path, script, { mode: 0o700 });
    return path;
  }

  /**
   * The job's environment in docker's --env-file format, 0600, under a name of its own (two
   * launches of one attempt at once each write theirs). The script removes it once the
   * container is made; the launch that lost removes its own.
   */
  async writeEnv(attempt: Attempt, env: readonly string[]): Promise<string> {
    const name = `env.${randomBytes(8).toString('hex')}`;
    await writeFile(join(this.dirOf(attempt), name), env.map((e) => `${e}\n`).join(''), {
      mode: 0o600,
      flag: 'wx',
    });
    return name;
  }

  async removeFile(attempt: Attempt, name: string): Promise<void> {
    await rm(join(this.dirOf(attempt), name), { force: true });
  }

  async recordSlurmJob(attempt: Attempt, slurmJob: string): Promise<void> {
    await writeFile(join(this.dirOf(attempt), FILES.slurmJob), `${slurmJob}\n`, { mode: 0o600 });
  }

  async recordStop(attempt: Attempt): Promise<void> {
    await writeFile(join(this.dirOf(attempt), FILES.stop), '', { mode: 0o600 }).catch(
      (error: unknown) => {
        if (!isMissing(error)) throw error; // removed meanwhile: nothing left to stop
      },
    );
  }

  async remove(attempt: Attempt): Promise<void> {
    await rm(this.dirOf(attempt), { recursive: true, force: true });
  }

  /** Every attempt that has a directory, with what its files say. */
  async list(): Promise<AttemptFiles[]> {
    let names: string[];
    try {
      names = await readdir(this.storeDir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const found = await Promise.all(
      names.map((name) => {
        const match = /^(.+)\.(\d+)$/.exec(name);
        return match ? this.read({ jobId: match[1]!, attempt: Number(match[2]) }) : null;
      }),
    );
    return found.filter((files): files is AttemptFiles => files !== null);
  }

  /** What the attempt's directory says, or null when it has none (never made, or removed). */
  async read(attempt: Attempt): Promise<AttemptFiles | null> {
    const dir = this.dirOf(attempt);
    try {
      await stat(dir);
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    const [slurmJob, started, exit, error, stop] = await Promise.all([
      readOptional(join(dir, FILES.slurmJob)),
      readOptional(join(dir, FILES.started)),
      this.exitOf(join(dir, FILES.exit)),
      readOptional(join(dir, FILES.error)),
      readOptional(join(dir, FILES.stop)),
    ]);
    return {
      ...attempt,
      slurmJob: slurmJob?.trim() || null,
      startedAt: started && /^\d+\n?$/.test(started) ? Number(started) : null,
      exit,
      error: error?.trim() || null,
      stopRequested: stop !== null,
    };
  }

  private async exitOf(path: string): Promise<ExitStatus | null> {
    const [text, info] = await Promise.all([readOptional(path), stat(path).catch(() => null)]);
    if (text === null || !info) return null;
    const [code = '', oom = ''] = text.trim().split(' ');
    const exitCode = /^\d+$/.test(code) ? Number(code) : null;
    return { exitCode, oomKilled: oom === 'true', at: info.mtimeMs };
  }

  /**
   * The attempt's output, from the two files the script fills with `docker logs --timestamps`
   * (each line `<RFC 3339 time> <bytes>`): the newest lines after `window.after` within
   * `maxBytes`, both streams merged by time, read line by line in bounded memory.
   */
  async readOutput(attempt: Attempt, window: OutputWindow): Promise<WorkloadOutput> {
    const dir = this.dirOf(attempt);
    try {
      await stat(dir);
    } catch (error) {
      if (!isMissing(error)) throw error;
      throw new RuntimeError('its Slurm job directory is gone: the workload was removed');
    }
    const tails = await Promise.all(
      (['stdout', 'stderr'] as const).map((stream) =>
        this.readStream(join(dir, FILES[stream]), stream, window),
      ),
    );
    const merged = new LineTail(window.maxBytes);
    for (const line of tails
      .flatMap((tail) => tail.tail(false).lines)
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
      merged.add(line);
    }
    const truncated = tails.some((tail) => tail.full);
    const output = merged.tail(truncated);
    if (!window.whole) return output;
    const [out, err] = tails.map((tail) => tail.added);
    return {
      ...output,
      printed: { lines: out!.lines + err!.lines, bytes: out!.bytes + err!.bytes },
    };
  }

  private async readStream(
    path: string,
    stream: OutputStream,
    { after, maxBytes, onProgress }: OutputWindow,
  ): Promise<LineTail> {
    const sink = new LineTail(maxBytes);
    const input = createReadStream(path);
    const opened = await new Promise<boolean>((resolve, reject) => {
      input.once('open', () => resolve(true));
      input.once('error', (error) => (isMissing(error) ? resolve(false) : reject(error)));
    });
    if (!opened) return sink; // not started yet: nothing printed
    // crlfDelay and latin1 keep every byte: a line's bytes are the job's, whatever they are.
    input.setEncoding('latin1');
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      onProgress?.();
      const line = lineOf(stream, text);
      if (line && (after === null || line.at > after)) sink.add(line);
    }
    return sink;
  }
}

/** A line of `docker logs --timestamps`: its time, a space, the bytes printed. */
function lineOf(stream: OutputStream, text: string): WorkloadLine | null {
  const space = text.indexOf(' ');
  const at = space > 0 ? toLogInstant(text.slice(0, space)) : undefined;
  if (at === undefined) return null;
  return { stream, at, bytes: Buffer.from(`${text.slice(space + 1)}\n`, 'latin1') };
}
