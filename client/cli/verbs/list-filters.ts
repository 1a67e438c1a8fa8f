import type { Command } from 'commander';
import { repeatable } from '../repeatable';

export interface ListFilterFlags {
  state?: string[];
  queue?: string;
  name?: string;
  label?: string[];
  createdAfter?: string;
  createdBefore?: string;
  all?: boolean;
}

/** The job list's filters, shared by `ls` and `cancel`, as the service names them. */
export function withListFilters(command: Command): Command {
  return command
    .addOption(repeatable('--state <state>', 'in this state (repeatable, or comma-separated)'))
    .option('--queue <queue>', 'in this queue (project::queue)')
    .option('--name <prefix>', 'whose name starts with this')
    .addOption(repeatable('-l, --label <key[=value]>', 'with this label (repeatable: all of them)'))
    .option('--created-after <time>', 'created at or after this time (RFC 3339)')
    .option('--created-before <time>', 'created before this time (RFC 3339)')
    .option('--all', 'every job of the project (no filter)');
}

/** The filters given, as the list's query and a bulk action's filter: only what was given. */
export function listFilterOf(flags: ListFilterFlags) {
  return {
    ...(flags.state ? { state: flags.state.flatMap((s) => s.split(',')) } : {}),
    ...(flags.queue ? { queue: flags.queue } : {}),
    ...(flags.name ? { name: flags.name } : {}),
    ...(flags.label ? { label: flags.label } : {}),
    ...(flags.createdAfter ? { created_after: flags.createdAfter } : {}),
    ...(flags.createdBefore ? { created_before: flags.createdBefore } : {}),
  } as {
    state?: ('submitted' | 'pending' | 'runnable' | 'starting' | 'running' | 'cancelling')[];
    queue?: string;
    name?: string;
    label?: string[];
    created_after?: string;
    created_before?: string;
  };
}
