import { z } from 'zod';

/** Extension: a command run in a running job's container, over a WebSocket (docs/guides/exec.md). */
export const EXEC_LIMITS = { maxWords: 64, maxWordLength: 4096, maxTerminalSide: 1000 } as const;

/** The subprotocol a client offers; a console session offers its CSRF token as a second one. */
export const EXEC_SUBPROTOCOL = 'jobdeck.exec';
export const CSRF_SUBPROTOCOL_PREFIX = 'jobdeck.csrf.';

const terminalSide = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(EXEC_LIMITS.maxTerminalSide, `must be at most ${EXEC_LIMITS.maxTerminalSide}`);

export const execQuerySchema = z.strictObject({
  // One parameter per word, given once or repeated: a list either way (never split at commas).
  command: z
    .preprocess(
      (words) => (words === undefined ? [] : [words].flat()),
      z
        .array(
          z
            .string()
            .max(
              EXEC_LIMITS.maxWordLength,
              `must be at most ${EXEC_LIMITS.maxWordLength} characters`,
            ),
        )
        .min(1, 'must name the program to run, as command=sh')
        .max(EXEC_LIMITS.maxWords, `must be at most ${EXEC_LIMITS.maxWords} words`),
    )
    .meta({
      description:
        'The program and its arguments, one word per parameter, in order (command=sh&command=-c&command=ls%20/); run as exec runs it, without a shell unless it names one',
    }),
  tty: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((value) => value === 'true')
    .meta({
      description:
        'true: a terminal (one output stream, line editing, resizable) for a person; false (default): stdin, stdout and stderr apart, for a script',
    }),
  cols: terminalSide.optional().meta({ description: "The terminal's width in columns, with tty" }),
  rows: terminalSide.optional().meta({ description: "The terminal's height in rows, with tty" }),
});
export type ExecQuery = z.input<typeof execQuerySchema>;

/**
 * The frames of a session. The client sends its stdin as binary frames and these as text; the
 * service sends output as binary frames whose first byte names the stream (1 stdout, 2 stderr),
 * then one `exit` or `closed` text frame, then closes.
 */
export const EXEC_STREAM_BYTE = { stdout: 1, stderr: 2 } as const;

export const execClientFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('resize'), cols: terminalSide, rows: terminalSide }),
  /** The client's stdin ended: the command's ends too (a `cat` finishes). */
  z.object({ type: z.literal('eof') }),
]);
export type ExecClientFrame = z.infer<typeof execClientFrameSchema>;

export type ExecServerFrame =
  /** The command ended by itself; null when the engine could not tell its code. */
  | { type: 'exit'; exit_code: number | null }
  /** The session was ended for it: the job ended, the service stops, a frame was wrong. */
  | { type: 'closed'; message: string };
