import type { Command } from 'commander';
import { createJobdeckClient, unwrap } from '../../src';
import { UsageError } from '../usage-error';
import type { VerbContext } from './context';
import { listFilterOf, withListFilters, type ListFilterFlags } from './list-filters';

/** Each id's cancel on its own line; the status is 1 when any was refused. */
async function cancelEach(context: VerbContext, ids: string[]): Promise<void> {
  const client = createJobdeckClient(context.connection());
  let refused = 0;
  for (const id of ids) {
    const answer = await client.POST('/v1/client/job/{job_id}/cancel', {
      params: { path: { job_id: id } },
    });
    if (answer.response.status === 202) {
      process.stdout.write(`${id}: cancel requested\n`);
    } else {
      refused++;
      const message = (answer.error as { message?: string } | undefined)?.message;
      process.stderr.write(`${id}: ${message ?? `HTTP ${answer.response.status}`}\n`);
    }
  }
  if (refused > 0) context.exit(1);
}

/**
 * Every job the filters match, through a bulk action: first what it would do (a dry run), then,
 * with --yes, the action itself, followed until it is done.
 */
async function cancelMatching(context: VerbContext, flags: ListFilterFlags & { yes?: boolean }) {
  const client = createJobdeckClient(context.connection());
  const filter = listFilterOf(flags);
  const { data: plan } = await unwrap(
    client.POST('/v1/client/bulk-actions', { body: { action: 'cancel', filter, dry_run: true } }),
  );
  if (!('plan' in plan)) throw new Error('bulk-actions: the dry run answered no plan');
  const { cancelled_at_once, stopped, already_cancelling, skipped } = plan.plan;
  process.stderr.write(
    `${plan.matched} jobs match: ${cancelled_at_once} cancelled at once, ${stopped} stopped, ${already_cancelling} already cancelling, ${skipped} ended (skipped)\n`,
  );
  if (!flags.yes) {
    process.stderr.write('nothing cancelled: run again with --yes to cancel them\n');
    return;
  }
  const { data: started } = await unwrap(
    client.POST('/v1/client/bulk-actions', { body: { action: 'cancel', filter } }),
  );
  if (!('id' in started)) throw new Error('bulk-actions: the action answered no id');
  for (;;) {
    const { data: action } = await unwrap(
      client.GET('/v1/client/bulk-actions/{id}', { params: { path: { id: started.id } } }),
    );
    if (action.state !== 'running') {
      process.stdout.write(
        `${action.state}: ${action.accepted} cancelled, ${action.refused} refused of ${action.matched} (bulk action ${action.id})\n`,
      );
      if (action.refused > 0 || action.state !== 'done') context.exit(1);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export function addCancel(program: Command, context: VerbContext): void {
  withListFilters(
    program
      .command('cancel [ids...]')
      .description('cancel jobs by id, or every job the filters match (a dry run unless --yes)'),
  )
    .option('-y, --yes', 'with filters: cancel them, not only say what it would do')
    .action(async (ids: string[], flags: ListFilterFlags & { yes?: boolean }) => {
      const filtered = Object.keys(listFilterOf(flags)).length > 0;
      if (ids.length > 0 && filtered) {
        throw new UsageError('cancel: give ids or filters, not both');
      }
      if (ids.length > 0) return cancelEach(context, ids);
      if (!filtered && !flags.all) {
        throw new UsageError('cancel: give job ids, or filters (--state, --queue, …, or --all)');
      }
      return cancelMatching(context, flags);
    });
}
