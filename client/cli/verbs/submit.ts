import type { Command } from 'commander';
import { repeatable } from '../repeatable';
import { createJobdeckClient, unwrap } from '../../src';
import { readSecrets } from '../secret-input';
import { submissionOf, type Submission, type SubmitFlags } from '../submission';
import type { VerbContext } from './context';
import { watchJob } from './watch';

/**
 * Submits one body; prints the new job's id alone on stdout, for `$(jobdeck submit …)`. The
 * client sends a fresh Idempotency-Key unless `idempotencyKey` gives one: the same key on a
 * rerun answers with the job the first run made.
 */
export async function submitAndReport(
  context: VerbContext,
  body: Submission,
  wait: boolean | undefined,
  idempotencyKey?: string,
): Promise<void> {
  const connection = context.connection();
  const params =
    idempotencyKey === undefined ? {} : { header: { 'idempotency-key': idempotencyKey } };
  const { data } = await unwrap(
    createJobdeckClient(connection).POST('/v1/client/job', { body, params }),
  );
  await reportSubmitted(context, connection, data.id, wait);
}

/** Prints a new job's id alone on stdout; with `wait`, follows it and exits with its status. */
export async function reportSubmitted(
  context: VerbContext,
  connection: ReturnType<VerbContext['connection']>,
  id: string,
  wait: boolean | undefined,
): Promise<void> {
  process.stdout.write(`${id}
`);
  if (wait) context.exit(await watchJob(connection, id));
}

export function addSubmit(program: Command, context: VerbContext): void {
  program
    .command('submit [definition] [queue] [command...]')
    .description(
      'submit a job: DEFINITION (project::name:version) QUEUE (project::queue) [-- COMMAND…]; prints its id',
    )
    .option('-f, --file <path>', 'a submission body in YAML or JSON (- for stdin); flags add to it')
    .option('-n, --name <name>', 'the job name')
    .addOption(repeatable('-p, --param <key=value>', 'a parameter of the command (repeatable)'))
    .addOption(repeatable('-e, --env <NAME=value>', 'an environment variable (repeatable)'))
    .addOption(
      repeatable(
        '-s, --secret <NAME>',
        'a sensitive variable, its value typed (not shown) or read from stdin (repeatable)',
      ),
    )
    .addOption(repeatable('-l, --label <key=value>', 'a label (repeatable)'))
    .option('--schedule-at <time>', 'start no earlier than: RFC 3339, Unix seconds, or +10m/+2h')
    .option('--array <size>', 'run it as an array of this many children')
    .addOption(
      repeatable(
        '--depends-on <id[:type]>',
        'wait for another job (afterok, or :afterany, :afternotok, …) (repeatable)',
      ),
    )
    .option('--retry <attempts>', 'attempts in all, the first included')
    .option(
      '--idempotency-key <key>',
      'the same key on a rerun answers with the job the first run made (default: a fresh one)',
    )
    .option('-w, --wait', 'then follow it and exit with its status, as watch does')
    .action(
      async (
        definition: string | undefined,
        queue: string | undefined,
        command: string[],
        options: SubmitFlags & { secret?: string[]; wait?: boolean; idempotencyKey?: string },
      ) => {
        const secrets = await readSecrets(options.secret ?? []);
        const body = submissionOf(definition, queue, command, options, secrets);
        await submitAndReport(context, body, options.wait, options.idempotencyKey);
      },
    );
}
