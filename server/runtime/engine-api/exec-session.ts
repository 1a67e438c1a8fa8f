import { Writable, type Duplex } from 'node:stream';
import type Docker from 'dockerode';
import type { ExecOutput, ExecRequest, ExecSession, TerminalSize } from '../../jobs/ports';

// After its stream ends the engine may still say the exec runs for a moment: how long to ask.
const EXIT_CODE_TRIES = 20;
const EXIT_CODE_POLL_MS = 50;
/** Ctrl-D: what a terminal sends for the end of input. */
const END_OF_TRANSMISSION = Buffer.of(4);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The Engine API's exec: create, then start with the connection hijacked for both directions. */
export async function startEngineExec(
  container: Docker.Container,
  request: ExecRequest,
): Promise<ExecSession> {
  const exec = await container.exec({
    Cmd: request.command,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: request.tty,
    ...(request.tty && request.size && { ConsoleSize: [request.size.rows, request.size.cols] }),
  });
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: request.tty })) as Duplex;
  return new EngineExecSession(exec, stream, request.tty, container.modem as DemuxingModem);
}

interface DemuxingModem {
  demuxStream(stream: Duplex, stdout: Writable, stderr: Writable): void;
}

/** Output held until someone listens: the first prompt may come before the route is ready. */
class EngineExecSession implements ExecSession {
  private listener: ((output: ExecOutput) => void) | null = null;
  private readonly held: ExecOutput[] = [];
  readonly exited: Promise<number | null>;

  constructor(
    private readonly exec: Docker.Exec,
    private readonly stream: Duplex,
    private readonly tty: boolean,
    modem: DemuxingModem,
  ) {
    if (tty) {
      stream.on('data', (bytes: Buffer) => this.deliver({ stream: 'stdout', bytes }));
    } else {
      // Without a terminal the engine frames each chunk with the stream it came from.
      modem.demuxStream(stream, this.sink('stdout'), this.sink('stderr'));
    }
    this.exited = new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', () => resolve());
    }).then(() => this.exitCode());
  }

  onOutput(listener: (output: ExecOutput) => void): void {
    this.listener = listener;
    for (const output of this.held.splice(0)) listener(output);
  }

  write(bytes: Buffer): void {
    if (this.stream.writable) this.stream.write(bytes);
  }

  endInput(): void {
    if (!this.stream.writable) return;
    // A terminal's end of input is its EOF character: a half-close would make the engine drop
    // the terminal's output. Without one, the half-close closes the command's stdin alone.
    if (this.tty) this.stream.write(END_OF_TRANSMISSION);
    else this.stream.end();
  }

  async resize({ cols, rows }: TerminalSize): Promise<void> {
    await this.exec.resize({ w: cols, h: rows });
  }

  close(): void {
    this.stream.destroy();
  }

  private sink(stream: ExecOutput['stream']): Writable {
    return new Writable({
      write: (bytes: Buffer, _encoding, done) => {
        this.deliver({ stream, bytes });
        done();
      },
    });
  }

  private deliver(output: ExecOutput): void {
    if (this.listener) this.listener(output);
    else this.held.push(output);
  }

  private async exitCode(): Promise<number | null> {
    for (let tries = 0; tries < EXIT_CODE_TRIES; tries += 1) {
      try {
        const info = await this.exec.inspect();
        if (!info.Running) return info.ExitCode ?? null;
      } catch {
        return null; // the container went with it, or the engine: nobody can tell the code
      }
      await sleep(EXIT_CODE_POLL_MS);
    }
    return null; // still running: the session was closed from this side
  }
}
