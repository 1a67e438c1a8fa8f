import type { Command } from 'commander';
import { execInJob, type ExecSession } from '../../src';
import { UsageError } from '../usage-error';
import type { VerbContext } from './context';

// What `jobdeck exec` exits with when the command's own code is unknown (the job ended under
// it, the session was cut): a shell's "not found" codes and 1 are the command's to use.
const NO_EXIT_CODE = 255;

interface ExecFlags {
  tty?: boolean;
}

/**
 * Runs a command in a running job, stdin and stdout joined to it, and resolves with its exit
 * code. With a terminal the keys go to it raw (Ctrl-C included) and a resize follows the window.
 */
async function execCommand(context: VerbContext, id: string, command: string[], flags: ExecFlags) {
  if (command.length === 0) {
    throw new UsageError('exec: name the command after --, as: jobdeck exec ID -- sh');
  }
  const tty = flags.tty ?? (process.stdin.isTTY === true && process.stdout.isTTY === true);
  const size = () => ({ cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 });
  const session = await execInJob(
    context.connection(),
    id,
    { command, tty, ...(tty && { size: size() }) },
    (stream, bytes) => (stream === 'stderr' ? process.stderr : process.stdout).write(bytes),
  );
  const stopInput = joinInput(session, tty, () => session.resize(size()));
  const end = await session.ended;
  stopInput();
  if ('closed' in end) {
    process.stderr.write(`jobdeck: ${end.closed}\n`);
    return NO_EXIT_CODE;
  }
  return end.exitCode ?? NO_EXIT_CODE;
}

/** Sends stdin to the session until it ends; returns what puts the terminal back. */
function joinInput(session: ExecSession, tty: boolean, onResize: () => void): () => void {
  const stdin = process.stdin;
  const raw = tty && stdin.isTTY === true;
  if (raw) stdin.setRawMode(true);
  const onData = (bytes: Buffer) => session.write(bytes);
  const onEnd = () => session.endInput();
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  if (tty) process.stdout.on('resize', onResize);
  return () => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    process.stdout.off('resize', onResize);
    if (raw) stdin.setRawMode(false);
    // An open stdin (a terminal, a pipe nobody closes) would keep the process alive.
    stdin.destroy();
  };
}

export function addExec(program: Command, context: VerbContext): void {
  program
    .command('exec <id> [command...]')
    .description(
      'run a command in a running job (jobdeck exec ID -- cmd args…) and exit with its exit code',
    )
    .option('-t, --tty', 'a terminal for the command (the default when stdin and stdout are one)')
    .option('-T, --no-tty', 'no terminal: stdout and stderr apart, for a script')
    .action(async (id: string, command: string[], flags: ExecFlags) => {
      context.exit(await execCommand(context, id, command, flags));
    });
}
