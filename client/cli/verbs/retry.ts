import type { Command } from 'commander';
import { repeatable } from '../repeatable';
import { createJobdeckClient, unwrap } from '../../src';
import { readSecrets } from '../secret-input';
import type { Submission } from '../submission';
import { UsageError } from '../usage-error';
import type { VerbContext } from './context';
import { submitAndReport } from './submit';

interface RetryFlags {
  secret?: string[];
  dropSecret?: string[];
  wait?: boolean;
}

/**
 * A job submitted again from what ran, as the console's "Submit again" does: its definition,
 * queue, command as run, every variable, labels, and an array's size. A sensitive value cannot be
 * read back, so each must be given again (--secret) or left out on purpose (--drop-secret):
 * never sent empty.
 */
async function retryJob(context: VerbContext, id: string, flags: RetryFlags) {
  const client = createJobdeckClient(context.connection());
  const path = { params: { path: { job_id: id } } };
  const { data: execution } = await unwrap(client.GET('/v1/client/job/{job_id}/execution', path));
  const sensitive = execution.env.filter((v) => v.sensitive).map((v) => v.name);
  const named = new Set([...(flags.secret ?? []), ...(flags.dropSecret ?? [])]);
  const missing = sensitive.filter((name) => !named.has(name));
  if (missing.length > 0) {
    throw new UsageError(
      `retry: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} sensitive and cannot be read back: give ${missing.length > 1 ? 'each' : 'it'} again with --secret NAME, or leave it out with --drop-secret NAME`,
    );
  }
  const unknown = [...named].filter((name) => !sensitive.includes(name));
  if (unknown.length > 0) {
    throw new UsageError(`retry: ${unknown.join(', ')}: not a sensitive variable of job ${id}`);
  }
  const secrets = await readSecrets(flags.secret ?? []);
  const env: Record<string, { value: string; sensitive?: boolean }> = {};
  for (const variable of execution.env) {
    if (!variable.sensitive) env[variable.name] = { value: variable.value ?? '' };
    else if (secrets[variable.name] !== undefined) {
      env[variable.name] = { value: secrets[variable.name]!, sensitive: true };
    }
  }
  const array = (await client.GET('/v1/client/job/{job_id}/array', path)).data?.data;
  const body: Submission = {
    job_definition: execution.job_definition,
    job_queue: execution.job_queue,
    container_cmd: execution.command,
    ...(Object.keys(env).length > 0 ? { container_env: env } : {}),
    ...(execution.labels && Object.keys(execution.labels).length > 0
      ? { labels: execution.labels }
      : {}),
    ...(array?.size ? { array: { size: array.size } } : {}),
  };
  await submitAndReport(context, body, flags.wait);
}

export function addRetry(program: Command, context: VerbContext): void {
  program
    .command('retry <id>')
    .description('submit a job again as it ran; prints the new id')
    .addOption(repeatable('-s, --secret <NAME>', 'give a sensitive variable again (repeatable)'))
    .addOption(repeatable('--drop-secret <NAME>', 'leave a sensitive variable out (repeatable)'))
    .option('-w, --wait', 'then follow the new job and exit with its status')
    .action((id: string, flags: RetryFlags) => retryJob(context, id, flags));
}
