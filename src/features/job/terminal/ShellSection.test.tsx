import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState, WhoAmI } from '../../../../contract';
import { serviceKeys } from '../../../api/keys';
import { writeApiKey } from '../../../lib/api-key';
import { capabilities, renderWithService, stubService, whoAmI } from '../../../test/service';
import { ShellSection } from './ShellSection';

/** xterm.js stands in for a terminal that prints what it is given into its box (jsdom has no canvas). */
const fake = vi.hoisted(() => ({
  terminals: [] as {
    typed(data: string): void;
    resizedTo(size: { cols: number; rows: number }): void;
    options: Record<string, unknown>;
  }[],
}));
vi.mock('@xterm/xterm', () => ({
  Terminal: class {
    cols = 80;
    rows = 24;
    options: Record<string, unknown> = {};
    private box: HTMLElement | null = null;
    private onDataHandler = (_: string) => undefined as void;
    private onResizeHandler = (_: { cols: number; rows: number }) => undefined as void;
    constructor() {
      fake.terminals.push({
        typed: (data) => this.onDataHandler(data),
        resizedTo: (size) => this.onResizeHandler(size),
        options: this.options,
      });
    }
    loadAddon() {}
    open(box: HTMLElement) {
      this.box = box;
    }
    write(bytes: Uint8Array) {
      this.box!.append(new TextDecoder().decode(bytes));
    }
    onData(handler: (data: string) => void) {
      this.onDataHandler = handler;
      return { dispose: () => undefined };
    }
    onResize(handler: (size: { cols: number; rows: number }) => void) {
      this.onResizeHandler = handler;
      return { dispose: () => undefined };
    }
    focus() {}
    dispose() {}
  },
}));
vi.mock('@xterm/addon-fit', () => ({
  FitAddon: class {
    fit() {}
  },
}));

/** A WebSocket the test opens, feeds and closes. */
class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  binaryType = 'blob';
  sent: unknown[] = [];
  closedByClient = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(
    readonly url: string,
    readonly protocols: string[],
  ) {
    FakeSocket.all.push(this);
  }
  send(data: unknown) {
    this.sent.push(data);
  }
  close() {
    this.closedByClient = true;
    this.readyState = 3;
  }
  accept() {
    act(() => {
      this.readyState = 1;
      this.onopen?.();
    });
  }
  print(text: string) {
    const frame = new Uint8Array([1, ...new TextEncoder().encode(text)]);
    act(() => this.onmessage?.({ data: frame.buffer }));
  }
  /** The service's last text frame (if any), then its close. */
  end(frame?: object) {
    act(() => {
      if (frame) this.onmessage?.({ data: JSON.stringify(frame) });
      this.readyState = 3;
      this.onclose?.();
    });
  }
}

const job = (state: JobState): JobRecord => ({
  id: '01a20274-e614-709d-917d-d51b4dc7e757',
  name: 'train',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
});

const identity = (role: WhoAmI['role'], exec: WhoAmI['exec']): WhoAmI => ({
  ...whoAmI(role),
  ...(exec && { exec }),
});
const ON = { enabled: true, supported: true };

/** Renders the section with whoami read from the (stubbed) service, as the console does. */
function renderShell(state: JobState, who: WhoAmI) {
  stubService([[/\/v1\/client\/whoami$/, who]]);
  return renderWithService(<ShellSection job={job(state)} />, capabilities(), '/', null);
}

async function openShell(): Promise<FakeSocket> {
  const [terminals, sockets] = [fake.terminals.length, FakeSocket.all.length];
  await userEvent.setup().click(await screen.findByRole('button', { name: 'Open a shell' }));
  await screen.findByRole('region', { name: 'Terminal' });
  // The terminal (its module loaded lazily) and its socket come a moment after the region, later
  // on a loaded machine.
  await vi.waitFor(() => {
    expect(fake.terminals.length).toBeGreaterThan(terminals);
    expect(FakeSocket.all.length).toBeGreaterThan(sockets);
  });
  return FakeSocket.all.at(-1)!;
}

beforeEach(() => {
  FakeSocket.all = [];
  fake.terminals.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => vi.unstubAllGlobals());

describe('the shell of a running job', () => {
  it('opens a terminal on the exec route, relays keys and sizes, prints output, and says when the job ended', async () => {
    const { rerender } = renderShell('running', identity('operator', ON));
    const socket = await openShell();
    expect(socket.url).toBe(
      `ws://${window.location.host}/v1/client/job/${job('running').id}/exec?command=sh&tty=true&cols=80&rows=24`,
    );
    expect(socket.protocols).toEqual(['jobdeck.exec']);
    expect(screen.getByTestId('terminal-status')).toHaveTextContent('Connecting…');
    socket.accept();
    expect(screen.getByTestId('terminal-status')).toHaveTextContent(/^Connected/);

    const [terminal] = fake.terminals;
    terminal!.typed('echo hi\r');
    terminal!.resizedTo({ cols: 100, rows: 30 });
    expect(socket.sent).toEqual([
      new TextEncoder().encode('echo hi\r'),
      JSON.stringify({ type: 'resize', cols: 100, rows: 30 }),
    ]);
    socket.print('hi-42\r\n');
    expect(screen.getByTestId('job-terminal')).toHaveTextContent('hi-42');

    socket.end({ type: 'closed', message: 'job: the job ended, and the session with it' });
    rerender(<ShellSection job={job('cancelled')} />);
    expect(screen.getByTestId('terminal-end')).toHaveTextContent(
      'The job ended, and the terminal with it.',
    );
    expect(screen.getByTestId('terminal-status')).toHaveTextContent('Closed');
    expect(terminal!.options.disableStdin).toBe(true);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('heading', { name: 'Shell' })).toBeNull();
  });

  it("says the shell's exit code when it exits by itself", async () => {
    renderShell('running', identity('admin', ON));
    const socket = await openShell();
    socket.accept();
    socket.end({ type: 'exit', exit_code: 3 });
    expect(screen.getByTestId('terminal-end')).toHaveTextContent('The shell exited with code 3.');
  });

  it('says a connection lost, and one refused because the job stopped running', async () => {
    const { rerender } = renderShell('running', identity('operator', ON));
    const lost = await openShell();
    lost.accept();
    lost.end();
    expect(screen.getByTestId('terminal-end')).toHaveTextContent(
      'The connection to the terminal was lost; the shell was ended. Open it again to go on.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));

    const refused = await openShell();
    refused.end();
    expect(screen.getByTestId('terminal-end')).toHaveTextContent(
      'The terminal could not connect: the service refused it or could not be reached. Try again.',
    );
    rerender(<ShellSection job={job('completed')} />);
    expect(screen.getByTestId('terminal-end')).toHaveTextContent(
      'The job is completed: a shell runs only in a running job.',
    );
  });

  it('leaves the session when closed by the reader, without an end to report', async () => {
    renderShell('running', identity('operator', ON));
    const socket = await openShell();
    socket.accept();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close the shell' }));
    expect(socket.closedByClient).toBe(true);
    expect(screen.getByRole('button', { name: 'Open a shell' })).toBeVisible();
  });
});

describe('where no shell can open', () => {
  it('shows a viewer the button disabled, naming the role it needs', async () => {
    renderShell('running', identity('viewer', ON));
    const button = await screen.findByRole('button', { name: 'Open a shell' });
    await vi.waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.getByTestId('shell-refused')).toHaveTextContent('Needs the operator role');
    await userEvent.setup().click(button);
    expect(FakeSocket.all).toEqual([]);
  });

  it.each([
    [
      'the project does not enable it',
      { enabled: false, supported: true },
      'A shell is off in project "demo": its configuration enables it with projects.demo.exec: true.',
    ],
    [
      'the engine cannot',
      { enabled: true, supported: false },
      'The docker engine cannot run a command in a job; only the local docker engine can.',
    ],
  ])('says so when %s', async (_, exec, words) => {
    renderShell('running', identity('admin', exec));
    expect(await screen.findByTestId('shell-refused')).toHaveTextContent(words);
    expect(screen.getByRole('button', { name: 'Open a shell' })).toHaveAttribute('aria-disabled');
  });

  it('says a key typed in Settings cannot open one (a WebSocket cannot carry it)', async () => {
    writeApiKey('jd_typed');
    renderShell('running', identity('admin', ON));
    expect(await screen.findByTestId('shell-refused')).toHaveTextContent(
      /A key typed in Settings cannot open a shell/,
    );
  });

  it('offers nothing where whoami says nothing of exec (an older service)', async () => {
    const { client } = renderShell('running', identity('admin', undefined));
    await vi.waitFor(() =>
      expect(client.getQueryState(serviceKeys.identity())?.status).toBe('success'),
    );
    expect(screen.queryByRole('heading', { name: 'Shell' })).toBeNull();
  });

  it('goes once the job no longer runs, unless a terminal is open in it', async () => {
    const { rerender } = renderShell('running', identity('admin', ON));
    expect(await screen.findByRole('heading', { name: 'Shell' })).toBeVisible();
    rerender(<ShellSection job={job('completed')} />);
    expect(screen.queryByRole('heading', { name: 'Shell' })).toBeNull();
  });
});
