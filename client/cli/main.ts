/**
 * `jobdeck submit | watch | logs | cancel | ls | get | retry | exec | sizing | completion`: the client verbs,
 * for the people whose jobs these are, from a terminal or a pipeline. A bundle of its own
 * (dist/client/cli.js, no service code in it), so a verb starts in a fraction of the service's
 * start-up; bin/jobdeck.js sends these verbs here and every other to the service's CLI.
 */
import { Command, CommanderError } from 'commander';
import { JobdeckApiError } from '../src';
import { connectionOf } from './connection';
import { UsageError } from './usage-error';
import type { VerbContext } from './verbs/context';
import { addCancel } from './verbs/cancel';
import { addCompletion } from './verbs/completion';
import { addExec } from './verbs/exec';
import { addGet } from './verbs/get';
import { addList } from './verbs/list';
import { addLogs } from './verbs/logs';
import { addRetry } from './verbs/retry';
import { addSizing } from './verbs/sizing';
import { addSubmit } from './verbs/submit';
import { addWatch } from './verbs/watch';

/** The verbs this program answers (bin/jobdeck.js reads them to route a command line). */
export const CLIENT_VERBS = [
  'submit',
  'watch',
  'logs',
  'cancel',
  'ls',
  'get',
  'retry',
  'exec',
  'sizing',
  'completion',
];

export function clientProgram(): Command {
  const program = new Command('jobdeck')
    .description(
      'Jobdeck client: submit, follow and cancel jobs of a running service (JOBDECK_URL, JOBDECK_API_KEY, or a profile; docs/cli.md)',
    )
    .option(
      '--profile <name>',
      'the profile of the profile file to use (else JOBDECK_PROFILE, else default)',
    )
    .exitOverride();
  const context: VerbContext = {
    connection: () => connectionOf(program.opts<{ profile?: string }>()),
    exit: (status) => {
      process.exitCode = status;
    },
  };
  addSubmit(program, context);
  addWatch(program, context);
  addLogs(program, context);
  addCancel(program, context);
  addList(program, context);
  addGet(program, context);
  addRetry(program, context);
  addExec(program, context);
  addSizing(program, context);
  addCompletion(program);
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** One line on stderr, never a stack: the service's own message when it answered one. */
function fail(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
  if (error instanceof UsageError) {
    process.stderr.write(`jobdeck: ${error.message}\n`);
    return 2;
  }
  if (error instanceof JobdeckApiError) {
    process.stderr.write(`jobdeck: ${error.message} (HTTP ${error.status})\n`);
    return 1;
  }
  // fetch's own failure ("fetch failed") says why only in its cause: refused, unknown host, …
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const message = cause
    ? `cannot reach the service (${cause.code ?? cause.message})`
    : (error as Error).message;
  process.stderr.write(`jobdeck: ${message}\n`);
  return 1;
}

/** Runs one command line of a client verb; sets the process's exit status, throws nothing. */
export async function runClient(argv: string[]): Promise<void> {
  try {
    await clientProgram().parseAsync(argv);
  } catch (error) {
    process.exitCode = fail(error);
  }
}
