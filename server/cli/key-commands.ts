import { Option, InvalidArgumentError, type Command } from 'commander';
import { ROLES, type Role } from '../../contract';
import { ConfigError } from '../config/load';
import type { ApiKeyInfo } from '../store/ports';
import { configured, withStore, type CommonOptions } from './options';

interface KeyCreateOptions {
  project: string;
  label?: string;
  role: Role;
  expiresInDays?: number;
}

const DAY_MS = 86_400_000;

function positiveDays(value: string): number {
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new InvalidArgumentError('must be a whole number of days from 1 to 3650');
  }
  return days;
}

const expiryIn = (days: number | undefined) =>
  days === undefined ? null : Date.now() + days * DAY_MS;

function keyStatus(key: ApiKeyInfo): string {
  if (key.revokedAt) return `revoked ${new Date(key.revokedAt).toISOString()}`;
  if (key.expiresAt !== null && key.expiresAt <= Date.now()) return 'expired';
  return 'active';
}

/** `jobdeck keys create|list|revoke`: keys made on the server's shell, each of one project. */
export function addKeyCommands(program: Command): void {
  const keys = program.command('keys').description('manage API keys (each belongs to one project)');

  configured(keys.command('create'))
    .description('create a key and print it once; only its hash is stored')
    .requiredOption('-p, --project <project>', 'project the key acts for')
    .option('-l, --label <label>', 'what the key is for')
    .addOption(
      new Option('-r, --role <role>', 'what the key may do (contract/roles.ts)')
        .choices(ROLES)
        .default('operator'),
    )
    .option('--expires-in-days <days>', 'the key stops working after this many days', positiveDays)
    .action(async (options: CommonOptions & KeyCreateOptions) => {
      await withStore(options, async ({ keys: store }, config) => {
        if (!config.projects[options.project]) {
          throw new ConfigError(
            `--project: no project "${options.project}" in the configuration (declared: ${Object.keys(config.projects).join(', ')})`,
          );
        }
        const { id, key } = await store.create(options.project, {
          label: options.label ?? null,
          role: options.role,
          expiresAt: expiryIn(options.expiresInDays),
          createdBy: null,
        });
        process.stdout.write(`${key}\n`);
        process.stderr.write(
          `created ${id} (${options.role}) for project ${options.project}; the key is shown only this once\n`,
        );
      });
    });

  configured(keys.command('list'))
    .description('list keys (never the keys themselves)')
    .action(async (options: CommonOptions) => {
      await withStore(options, async ({ keys: store }) => {
        for (const k of await store.list()) {
          process.stdout.write(
            `${k.id}\t${k.project}\t${k.role}\t${keyStatus(k)}\tcreated ${new Date(k.createdAt).toISOString()}\t${k.label ?? ''}\n`,
          );
        }
      });
    });

  configured(keys.command('revoke <id>'))
    .description('revoke a key at once')
    .action(async (id: string, options: CommonOptions) => {
      await withStore(options, async ({ keys: store }) => {
        if (!(await store.revoke(id)))
          throw new ConfigError(`<id>: no key "${id}" (see: jobdeck keys list)`);
        process.stderr.write(`revoked ${id}\n`);
      });
    });
}
