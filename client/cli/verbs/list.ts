import type { Command } from 'commander';
import { createJobdeckClient, unwrap, type components } from '../../src';
import { localTime, outputFormatOf, printJson, table, type OutputFormat } from '../output';
import type { VerbContext } from './context';
import { listFilterOf, withListFilters, type ListFilterFlags } from './list-filters';

type JobRow = components['schemas']['JobEvent'];

/** A note fits one table row: its first line, cut at 60 characters. */
const shortNote = (note: string | null) => {
  const line = (note ?? '').split('\n')[0]!;
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

const rowOf = (job: JobRow) => [
  job.id,
  job.name,
  job.state,
  job.job_queue,
  localTime(job.created_at),
  job.exit_code === null ? '-' : String(job.exit_code),
  shortNote(job.system_note),
];

interface ListFlags extends ListFilterFlags {
  limit: string;
  pages?: boolean;
  output: OutputFormat;
}

async function listJobs(context: VerbContext, flags: ListFlags) {
  const client = createJobdeckClient(context.connection());
  const items: JobRow[] = [];
  let cursor: string | undefined;
  let total = 0;
  do {
    const { data } = await unwrap(
      client.GET('/v1/client/jobs', {
        params: {
          query: {
            ...listFilterOf(flags),
            limit: Number(flags.limit),
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    items.push(...data.items);
    total = data.total;
    cursor = data.next_cursor ?? undefined;
  } while (flags.pages && cursor);
  if (flags.output === 'json') return printJson(items);
  process.stdout.write(
    `${table(['ID', 'NAME', 'STATE', 'QUEUE', 'CREATED', 'EXIT', 'NOTE'], items.map(rowOf))}\n`,
  );
  if (items.length < total) {
    process.stderr.write(`${items.length} of ${total} matching jobs (--pages for all)\n`);
  }
}

export function addList(program: Command, context: VerbContext): void {
  withListFilters(program.command('ls').description("list the project's jobs, newest first"))
    .option('--limit <n>', 'jobs a page (1–200)', '50')
    .option('--pages', 'every page, not only the first')
    .option('-o, --output <format>', 'table or json', outputFormatOf, 'table' as OutputFormat)
    .action((flags: ListFlags) => listJobs(context, flags));
}
