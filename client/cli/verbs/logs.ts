import type { Command } from 'commander';
import { createJobdeckClient, unwrap } from '../../src';
import type { VerbContext } from './context';

const FOLLOW_EVERY_MS = 1_000;

/**
 * Prints a job's output, stdout lines to stdout and stderr lines to stderr; with `--follow`,
 * asks again from `next_since` every second until the job has ended and all is printed.
 */
async function printLogs(
  context: VerbContext,
  id: string,
  options: { follow?: boolean; since?: string },
) {
  const client = createJobdeckClient(context.connection());
  let since = options.since;
  for (;;) {
    const { data } = await unwrap(
      client.GET('/v1/client/job/{job_id}/logs', {
        params: { path: { job_id: id }, query: since ? { since } : {} },
      }),
    );
    for (const line of data.lines) {
      (line.stream === 'stderr' ? process.stderr : process.stdout).write(`${line.text}\n`);
    }
    if (!options.follow || data.next_since === null) return;
    since = data.next_since;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_EVERY_MS));
  }
}

export function addLogs(program: Command, context: VerbContext): void {
  program
    .command('logs <id>')
    .description("print a job's output (its stdout to stdout, its stderr to stderr)")
    .option('-f, --follow', 'keep printing new output until the job ends')
    .option('--since <time>', 'only output after this time (RFC 3339)')
    .action((id: string, options: { follow?: boolean; since?: string }) =>
      printLogs(context, id, options),
    );
}
