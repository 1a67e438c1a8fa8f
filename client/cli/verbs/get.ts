import type { Command } from 'commander';
import { createJobdeckClient, unwrap } from '../../src';
import { localTime, outputFormatOf, printFacts, printJson, type OutputFormat } from '../output';
import { usageLines } from '../usage-lines';
import type { VerbContext } from './context';

/**
 * One job: its record (Job Detail, the spec's) and, where the service has the extension, what ran
 * (its execution: image, command, variables with sensitive values left out, exit code, and what
 * its attempt used where the engine reports it).
 */
async function getJob(context: VerbContext, id: string, output: OutputFormat) {
  const client = createJobdeckClient(context.connection());
  const { data: job } = await unwrap(
    client.GET('/v1/client/job/{job_id}', { params: { path: { job_id: id } } }),
  );
  const execution = (
    await client.GET('/v1/client/job/{job_id}/execution', { params: { path: { job_id: id } } })
  ).data?.data;
  if (output === 'json') return printJson(execution ? { ...job, execution } : job);
  const lines: [string, string | number | null | undefined][] = [
    ['id', job.id],
    ['name', job.name],
    ['state', job.state],
    ['note', job.system_note],
    ['created', localTime(job.created_at)],
    ['scheduled', job.schedule_at ? localTime(job.schedule_at) : null],
  ];
  if (execution) {
    lines.push(
      ['definition', execution.job_definition],
      ['queue', execution.job_queue],
      ['image', execution.image],
      ['command', JSON.stringify(execution.command)],
      ['started', execution.started_at ? localTime(execution.started_at) : null],
      ['finished', execution.finished_at ? localTime(execution.finished_at) : null],
      ['exit code', execution.exit_code],
      ...usageLines(execution.usage),
    );
    for (const variable of execution.env) {
      lines.push([`env ${variable.name}`, variable.sensitive ? '(sensitive)' : variable.value]);
    }
  }
  printFacts(lines);
}

export function addGet(program: Command, context: VerbContext): void {
  program
    .command('get <id>')
    .description('show one job: its state and note, and what ran where the service says')
    .option('-o, --output <format>', 'table or json', outputFormatOf, 'table' as OutputFormat)
    .action((id: string, flags: { output: OutputFormat }) => getJob(context, id, flags.output));
}
