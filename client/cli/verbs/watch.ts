import type { Command } from 'commander';
import { createJobdeckClient, followEvents, unwrap, type JobdeckClientOptions } from '../../src';
import { ENDED_STATES, exitStatusOf } from '../job-end';
import { localTime } from '../output';
import type { VerbContext } from './context';

/** How often the job is read again when no event said it moved (and on a spec-only service). */
const POLL_MS = 5_000;

/**
 * Follows one job until it ends, a line on stderr for each state it reaches, and resolves with
 * the status to exit with (job-end.ts). Events wake it at once; a read every 5 s covers a
 * service without the event stream and a change made before the stream was open.
 */
export async function watchJob(
  connection: JobdeckClientOptions,
  id: string,
  quiet = false,
): Promise<number> {
  const client = createJobdeckClient(connection);
  const stop = new AbortController();
  let wake: (() => void) | undefined;
  void (async () => {
    try {
      for await (const event of followEvents({ ...connection, signal: stop.signal })) {
        if (event.id === id) wake?.();
      }
    } catch {
      // No event stream (a spec-only service, a refused stream): the reads alone follow it.
    }
  })();
  let shown = '';
  try {
    for (;;) {
      const { data: job } = await unwrap(
        client.GET('/v1/client/job/{job_id}', { params: { path: { job_id: id } } }),
      );
      const line = `${job.state}${job.system_note ? `: ${job.system_note}` : ''}`;
      if (line !== shown && !quiet) {
        process.stderr.write(`${localTime(new Date().toISOString())}  ${id}  ${line}\n`);
      }
      shown = line;
      if (ENDED_STATES.has(job.state)) {
        return exitStatusOf(job.state, await exitCodeOf(connection, id));
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    stop.abort();
  }
}

/** The job's exit code from its execution (an extension): null where the service has none. */
async function exitCodeOf(connection: JobdeckClientOptions, id: string): Promise<number | null> {
  const answer = await createJobdeckClient(connection).GET('/v1/client/job/{job_id}/execution', {
    params: { path: { job_id: id } },
  });
  return answer.data?.data.exit_code ?? null;
}

export function addWatch(program: Command, context: VerbContext): void {
  program
    .command('watch <id>')
    .description(
      "follow a job until it ends and exit with its status: 0 completed, the job's exit code when it failed, 124 timeout, 130 cancelled, 125 error",
    )
    .option('-q, --quiet', 'print nothing, only exit with the status')
    .action(async (id: string, options: { quiet?: boolean }) => {
      context.exit(await watchJob(context.connection(), id, options.quiet));
    });
}
