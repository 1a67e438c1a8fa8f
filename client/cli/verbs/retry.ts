import type { Command } from 'commander';
import { repeatable } from '../repeatable';
import { createJobdeckClient, unwrap } from '../../src';
import { readSecrets } from '../secret-input';
import type { VerbContext } from './context';
import { reportSubmitted } from './submit';

interface RetryFlags {
  secret?: string[];
  dropSecret?: string[];
  wait?: boolean;
}

/**
 * A job submitted again by the service (POST …/resubmit), as the console's "Submit again" does:
 * its definition, queue, command as run, variables, labels, an array's size, and its sensitive
 * values copied in the service, never read back here. --secret replaces one, --drop-secret
 * leaves one out.
 */
async function retryJob(context: VerbContext, id: string, flags: RetryFlags) {
  const secrets = await readSecrets(flags.secret ?? []);
  const replaced = Object.entries(secrets).map(([name, value]) => [
    name,
    { value, sensitive: true },
  ]);
  const dropped = flags.dropSecret ?? [];
  const body = {
    ...(replaced.length > 0 && { container_env: Object.fromEntries(replaced) }),
    ...(dropped.length > 0 && { drop_env: dropped }),
  };
  const connection = context.connection();
  const { data } = await unwrap(
    createJobdeckClient(connection).POST('/v1/client/job/{job_id}/resubmit', {
      params: { path: { job_id: id } },
      body,
    }),
  );
  await reportSubmitted(context, connection, data.id, flags.wait);
}

export function addRetry(program: Command, context: VerbContext): void {
  program
    .command('retry <id>')
    .description('submit a job again as it ran, its secrets kept by the service; prints the new id')
    .addOption(
      repeatable('-s, --secret <NAME>', 'give a sensitive variable a new value (repeatable)'),
    )
    .addOption(repeatable('--drop-secret <NAME>', 'leave a variable out (repeatable)'))
    .option('-w, --wait', 'then follow the new job and exit with its status')
    .action((id: string, flags: RetryFlags) => retryJob(context, id, flags));
}
