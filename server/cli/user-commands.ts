import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { Option, type Command } from 'commander';
import { ROLES, memberIdentitySchema, type Role } from '../../contract';
import { hashPassword, passwordProblem } from '../auth/passwords';
import { ConfigError } from '../config/load';
import type { JobdeckConfig } from '../config/schema';
import { configured, withStore, type CommonOptions } from './options';

/** The identity as members and sign-in compare it, or a one-line error naming the argument. */
function identityArgument(value: string, name: string): string {
  const parsed = memberIdentitySchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`${name}: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

function checkProject(config: JobdeckConfig, project: string) {
  if (!config.projects[project]) {
    throw new ConfigError(
      `--project: no project "${project}" in the configuration (declared: ${Object.keys(config.projects).join(', ')})`,
    );
  }
}

/**
 * The new password: from a terminal, asked twice without echo; piped, the first line of stdin
 * (for scripts: never on the command line, where `ps` and shell history would show it).
 */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const lines = createInterface({ input: process.stdin });
    for await (const line of lines) return line;
    return '';
  }
  const ask = async (prompt: string) => {
    process.stderr.write(prompt);
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
    const terminal = createInterface({ input: process.stdin, output: silent, terminal: true });
    const answer = await new Promise<string>((resolve) => terminal.question('', resolve));
    terminal.close();
    process.stderr.write('\n');
    return answer;
  };
  const password = await ask('New password: ');
  if ((await ask('Again: ')) !== password) throw new ConfigError('password: the two did not match');
  return password;
}

async function newPasswordHash(): Promise<string> {
  const password = await readPassword();
  const problem = passwordProblem(password);
  if (problem) throw new ConfigError(`password: ${problem}`);
  return hashPassword(password);
}

const roleOption = () =>
  new Option('-r, --role <role>', 'the role in the project').choices(ROLES).default('viewer');

/** `jobdeck users …` and `jobdeck members …`: who signs in to the console, from the server's shell. */
export function addUserCommands(program: Command): void {
  const users = program
    .command('users')
    .description("the console's local users (passwords hashed with scrypt)");

  configured(users.command('add <email>'))
    .description('add a local user (the password is read from the terminal, or stdin)')
    .option('-n, --name <name>', 'the name the console shows')
    .option('-p, --project <project>', 'also make it a member of this project')
    .addOption(roleOption())
    .action(
      async (
        email: string,
        options: CommonOptions & { name?: string; project?: string; role: Role },
      ) => {
        const identity = identityArgument(email, '<email>');
        if (identity.startsWith('sub:'))
          throw new ConfigError('<email>: a local user is named by e-mail');
        await withStore(options, async (store, config) => {
          if (options.project) checkProject(config, options.project);
          if (await store.users.get(identity)) {
            throw new ConfigError(
              `<email>: ${identity} exists; change its password with jobdeck users passwd`,
            );
          }
          await store.users.putLocal(identity, options.name ?? null, await newPasswordHash());
          if (options.project)
            await store.members.put(options.project, identity, options.role, null);
          const membership = options.project ? `, ${options.role} in ${options.project}` : '';
          process.stderr.write(`added ${identity}${membership}\n`);
        });
      },
    );

  configured(users.command('passwd <email>'))
    .description("set a local user's password; its sessions end")
    .action(async (email: string, options: CommonOptions) => {
      const identity = identityArgument(email, '<email>');
      await withStore(options, async (store) => {
        const user = await store.users.get(identity);
        if (user?.source !== 'local') throw new ConfigError(`<email>: no local user ${identity}`);
        await store.users.putLocal(identity, user.name, await newPasswordHash());
        const ended = await store.sessions.endAllOf(identity);
        process.stderr.write(`changed the password of ${identity}; ended ${ended} session(s)\n`);
      });
    });

  configured(users.command('remove <email>'))
    .description('remove a user and end its sessions (its memberships stay until removed)')
    .action(async (email: string, options: CommonOptions) => {
      const identity = identityArgument(email, '<email>');
      await withStore(options, async (store) => {
        if (!(await store.users.remove(identity)))
          throw new ConfigError(`<email>: no user ${identity}`);
        process.stderr.write(`removed ${identity}\n`);
      });
    });

  configured(users.command('list'))
    .description('list users (never their password hashes)')
    .action(async (options: CommonOptions) => {
      await withStore(options, async (store) => {
        for (const user of await store.users.list()) {
          const last = user.lastSignInAt ? new Date(user.lastSignInAt).toISOString() : 'never';
          process.stdout.write(
            `${user.identity}\t${user.source}\tlast sign-in ${last}\t${user.name ?? ''}\n`,
          );
        }
      });
    });

  const members = program
    .command('members')
    .description('who may sign in to a project, and with which role (e-mail or sub:<subject>)');

  configured(members.command('add <identity>'))
    .description('add a member, or change its role')
    .requiredOption('-p, --project <project>', 'the project')
    .addOption(roleOption())
    .action(async (identity: string, options: CommonOptions & { project: string; role: Role }) => {
      const member = identityArgument(identity, '<identity>');
      await withStore(options, async (store, config) => {
        checkProject(config, options.project);
        const change = await store.members.put(options.project, member, options.role, null);
        if (change === 'last-admin') {
          throw new ConfigError(
            `--role: ${member} is the only admin of ${options.project}; make another one admin first`,
          );
        }
        process.stderr.write(`${change} ${member}: ${options.role} in ${options.project}\n`);
      });
    });

  configured(members.command('remove <identity>'))
    .description('remove a member from a project')
    .requiredOption('-p, --project <project>', 'the project')
    .action(async (identity: string, options: CommonOptions & { project: string }) => {
      const member = identityArgument(identity, '<identity>');
      await withStore(options, async (store) => {
        const change = await store.members.remove(options.project, member);
        if (change === 'last-admin') {
          throw new ConfigError(
            `<identity>: ${member} is the only admin of ${options.project}; make another one admin first`,
          );
        }
        if (change === 'absent')
          throw new ConfigError(`<identity>: ${member} is not a member of ${options.project}`);
        process.stderr.write(`removed ${member} from ${options.project}\n`);
      });
    });

  configured(members.command('list'))
    .description("list a project's members")
    .requiredOption('-p, --project <project>', 'the project')
    .action(async (options: CommonOptions & { project: string }) => {
      await withStore(options, async (store) => {
        for (const member of await store.members.list(options.project)) {
          process.stdout.write(`${member.identity}\t${member.role}\n`);
        }
      });
    });
}
