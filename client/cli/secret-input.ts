import { createInterface } from 'node:readline';
import { UsageError } from './usage-error';

/**
 * The values of `--secret NAME`s: typed at a terminal with nothing echoed, or, when stdin is not
 * a terminal (a pipeline), one line each from stdin in the order named. An empty value is refused:
 * a secret is never silently sent empty.
 */
export async function readSecrets(
  names: string[],
  input: NodeJS.ReadStream = process.stdin,
  prompt: NodeJS.WriteStream = process.stderr,
): Promise<Record<string, string>> {
  if (names.length === 0) return {};
  const values: Record<string, string> = {};
  const lines = input.isTTY ? undefined : linesOf(input);
  for (const name of names) {
    const value = lines ? (await lines.next()).value : await typed(name, input, prompt);
    if (typeof value !== 'string' || value === '') {
      throw new UsageError(
        `--secret ${name}: no value ${input.isTTY ? 'typed' : 'on stdin (one line per --secret, in order)'}; a secret is never sent empty`,
      );
    }
    values[name] = value;
  }
  return values;
}

async function* linesOf(input: NodeJS.ReadStream): AsyncGenerator<string> {
  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) yield line;
}

/** A prompt that shows nothing of what is typed, as passwd does. */
function typed(
  name: string,
  input: NodeJS.ReadStream,
  prompt: NodeJS.WriteStream,
): Promise<string> {
  return new Promise((resolve, reject) => {
    prompt.write(`${name} (sensitive, not shown): `);
    input.setRawMode(true);
    input.resume();
    let value = '';
    const done = (result: string | Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      prompt.write('\n');
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n') return done(value);
        if (char === '\u0003') return done(new UsageError(`--secret ${name}: interrupted`));
        if (char === '\u007f') value = value.slice(0, -1);
        else value += char;
      }
    };
    input.on('data', onData);
  });
}
