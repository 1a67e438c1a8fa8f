import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState } from '../../../contract';
import { arrayChild, childId, notInArray, parentAnswer } from '../../test/array';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { rowTexts } from '../../test/table';
import { JobView } from './JobView';

const PARENT = '01a20274-e614-709d-917d-d51b4dc7e757';

const record = (state: JobState, fields: Partial<JobRecord> = {}): JobRecord => ({
  id: PARENT,
  name: 'fan-out',
  state,
  system_note: '1 of 3 completed, 1 failed, 1 running',
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:00.000Z',
  ...fields,
});

const runningChild = arrayChild(1, { state: 'running', exit_code: null, finished_at: null });
const failedChild = arrayChild(2, { state: 'failed', exit_code: 3, system_note: 'exited with 3' });
const children = [arrayChild(0), runningChild, failedChild];

afterEach(() => vi.unstubAllGlobals());

/** The page's address, to see what the filter put in it. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{location.pathname + location.search}</output>;
}

/** Each row of the children's table as its cells' text, the checkbox's cell left out. */
const rowsOf = (table: HTMLElement) => rowTexts(table, 1);

/** The children as a table (the section opens on its grid). */
const showTable = async () => fireEvent.click(await screen.findByRole('radio', { name: 'Table' }));

const arrayRequests = (fetch: ReturnType<typeof stubService>) =>
  requestedPaths(fetch).filter((path) => path.includes('/array'));

const cancelRequests = (fetch: ReturnType<typeof stubService>) =>
  fetch.mock.calls.filter(([, init]) => init?.method === 'POST').map(([input]) => String(input));

describe("an array's parent", () => {
  it('counts its children by state and lists them: index, linked name, state, exit code, duration, note', async () => {
    stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('running')} />);
    const section = await screen.findByRole('region', { name: 'Array' });
    expect(within(section).getByTestId('array-progress')).toHaveTextContent(
      '3 children, 1 not ended',
    );
    const chips = within(section).getByRole('group', { name: 'Show the children in a state' });
    expect(
      within(chips)
        .getAllByRole('checkbox')
        .map((chip) => chip.closest('div')?.textContent),
    ).toEqual(['All 3', '1 completed', '1 failed', '1 running']);
    expect(within(chips).getByRole('checkbox', { name: 'All 3' })).toBeChecked();
    await showTable();
    const table = within(section).getByRole('table', { name: 'Children' });
    expect(rowsOf(table)).toEqual([
      ['0', 'fan-out:0', 'completed', '0', '0:07', ''],
      ['1', 'fan-out:1', 'running', '—', expect.stringMatching(/^\d+:\d\d/), ''],
      ['2', 'fan-out:2', 'failed', '3', '0:07', 'exited with 3'],
    ]);
    expect(within(table).getByRole('link', { name: 'fan-out:2' })).toHaveAttribute(
      'href',
      `/jobs/${childId(2)}`,
    );
    expect(within(section).getByTestId('children-shown')).toHaveTextContent('3 of 3 shown');
    expect(within(section).queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("counts its children as its note does, state by state in the note's order", async () => {
    const items = [
      ...[0, 1, 2].map((i) => arrayChild(i)),
      ...[3, 4, 5, 6, 7].map((i) => arrayChild(i, { state: 'failed', exit_code: 1 })),
      arrayChild(8, { state: 'error', exit_code: null }),
      arrayChild(9, { state: 'running', exit_code: null, finished_at: null }),
    ];
    // The note as the service writes it from the same counts (server/jobs/arrays.test.ts).
    const note = '3 of 10 completed, 5 failed, 1 error, 1 running';
    stubService([[/\/array\?/, parentAnswer(10, items)]]);
    renderWithService(<JobView job={record('running', { system_note: note })} />);
    const chips = await screen.findByRole('group', { name: 'Show the children in a state' });
    const counted = within(chips)
      .getAllByRole('checkbox')
      .slice(1)
      .map((chip) => chip.closest('div')?.textContent);
    expect(screen.getByTestId('system-note')).toHaveTextContent(note);
    expect(note).toBe(`3 of 10 completed, ${counted.slice(1).join(', ')}`);
    expect(counted[0]).toBe('3 completed');
  });

  it('filters by the states clicked, in the URL, and clears the filter with All', async () => {
    const fetch = stubService([
      [
        /state=failed/,
        parentAnswer(3, [failedChild], { counts: { completed: 1, running: 1, failed: 1 } }),
      ],
      [/\/array\?/, parentAnswer(3, children)],
    ]);
    renderWithService(
      <>
        <JobView job={record('running')} />
        <Address />
      </>,
      capabilities(),
      `/jobs/${PARENT}`,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '1 failed' }));
    expect(screen.getByTestId('address')).toHaveTextContent(`/jobs/${PARENT}?children=failed`);
    await showTable();
    const table = screen.getByRole('table', { name: 'Children' });
    await vi.waitFor(() => expect(rowsOf(table).map((row) => row[1])).toEqual(['fan-out:2']));
    expect(screen.getByTestId('children-shown')).toHaveTextContent('1 of 1 shown');
    expect(screen.getByRole('checkbox', { name: 'All 3' })).not.toBeChecked();
    expect(arrayRequests(fetch)).toContain(`/v1/client/job/${PARENT}/array?state=failed&limit=100`);

    await user.click(screen.getByRole('checkbox', { name: '1 running' }));
    expect(screen.getByTestId('address')).toHaveTextContent('?children=failed&children=running');
    await user.click(screen.getByRole('checkbox', { name: 'All 3' }));
    expect(screen.getByTestId('address').textContent).toBe(`/jobs/${PARENT}`);
    await vi.waitFor(() => expect(rowsOf(table)).toHaveLength(3));
  });

  it("keeps the last filter's rows while the new one's are read, saying so instead of a count", async () => {
    const answer = stubService([
      [/state=failed/, parentAnswer(3, [failedChild], { counts: { completed: 2, failed: 1 } })],
      [/\/array\?/, parentAnswer(3, children)],
    ]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes('state=failed')) await held;
      return answer(input, init);
    });
    renderWithService(<JobView job={record('running')} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: '1 failed' }));
    await showTable();
    const table = screen.getByRole('table', { name: 'Children' });
    expect(table).toHaveAttribute('aria-busy', 'true');
    expect(rowsOf(table)).toHaveLength(3);
    expect(screen.getByRole('status')).toHaveTextContent('Reading the children in these states');
    expect(screen.queryByTestId('children-shown')).not.toBeInTheDocument();
    release();
    await vi.waitFor(() => expect(table).toHaveAttribute('aria-busy', 'false'));
    expect(rowsOf(table).map((row) => row[1])).toEqual(['fan-out:2']);
    expect(screen.getByTestId('children-shown')).toHaveTextContent('1 of 1 shown');
  });

  it('opens on the filter its URL holds', async () => {
    const fetch = stubService([
      [/\/array\?/, parentAnswer(3, [failedChild], { counts: { completed: 2, failed: 1 } })],
    ]);
    renderWithService(
      <JobView job={record('failed')} />,
      capabilities(),
      `/jobs/${PARENT}?children=failed`,
    );
    expect(await screen.findByRole('checkbox', { name: '1 failed' })).toBeChecked();
    expect(arrayRequests(fetch)).toEqual([`/v1/client/job/${PARENT}/array?state=failed&limit=100`]);
  });

  it('loads more children by the cursor, after those shown', async () => {
    const fetch = stubService([
      [/cursor=99/, parentAnswer(150, [arrayChild(100)], { counts: { completed: 150 } })],
      [
        /\/array\?/,
        parentAnswer(150, [arrayChild(0), arrayChild(99)], {
          counts: { completed: 150 },
          next_cursor: '99',
        }),
      ],
    ]);
    renderWithService(<JobView job={record('completed')} />);
    const user = userEvent.setup();
    expect(await screen.findByTestId('children-shown')).toHaveTextContent('2 of 150 shown');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await showTable();
    const table = screen.getByRole('table', { name: 'Children' });
    await vi.waitFor(() => expect(rowsOf(table).map((row) => row[0])).toEqual(['0', '99', '100']));
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(arrayRequests(fetch).at(-1)).toBe(`/v1/client/job/${PARENT}/array?cursor=99&limit=100`);
  });

  it('cancels the selected children that have not ended, saying first what becomes of each', async () => {
    const fetch = stubService([
      [/\/cancel$/, null],
      [/\/array\?/, parentAnswer(3, children)],
    ]);
    renderWithService(<JobView job={record('running')} />);
    const user = userEvent.setup();
    await showTable();
    await user.click(await screen.findByRole('checkbox', { name: 'Select fan-out:0' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select fan-out:1' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('2 selected');
    await user.click(screen.getByRole('button', { name: 'Cancel selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the selected jobs?' });
    expect(within(dialog).getByTestId('plan-stopping')).toHaveTextContent('fan-out:1');
    expect(within(dialog).getByTestId('plan-final')).toHaveTextContent('fan-out:0');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel 1 job' }));
    expect(await screen.findByTestId('bulk-cancel-results')).toHaveTextContent(
      /fan-out:1 …0+1accepted/,
    );
    expect(cancelRequests(fetch)).toEqual([`/v1/client/job/${childId(1)}/cancel`]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByTestId('selection-count')).toHaveTextContent('0 selected');
  });

  it('shows a cell per child coloured by state, the failures first on asking', async () => {
    stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('running')} />);
    const grid = await screen.findByRole('listbox', { name: 'Children by index' });
    const cells = () =>
      within(grid)
        .getAllByRole('option')
        .map((cell) => cell.textContent);
    expect(cells()).toEqual(['0', '1', '2']);
    expect(within(grid).getByRole('option', { name: '2: failed' })).toHaveAttribute(
      'data-state',
      'failed',
    );
    fireEvent.click(screen.getByRole('switch', { name: 'Failures first' }));
    expect(cells()).toEqual(['2', '0', '1']);
  });

  it('selects a range with shift-click and with Shift and the arrows, then cancels those not ended', async () => {
    const many = [
      arrayChild(0),
      arrayChild(1, { state: 'running', exit_code: null, finished_at: null }),
      arrayChild(2, { state: 'runnable', exit_code: null, started_at: null, finished_at: null }),
      arrayChild(3, { state: 'running', exit_code: null, finished_at: null }),
      arrayChild(4),
    ];
    const fetch = stubService([
      [/\/cancel$/, null],
      [/\/array\?/, parentAnswer(5, many)],
    ]);
    renderWithService(<JobView job={record('running')} />);
    const user = userEvent.setup();
    const grid = await screen.findByRole('listbox', { name: 'Children by index' });
    const cell = (index: number) =>
      within(grid).getByRole('option', { name: new RegExp(`^${index}:`) });
    await user.click(cell(1));
    await user.keyboard('{Shift>}');
    await user.click(cell(3));
    await user.keyboard('{/Shift}');
    expect(screen.getByTestId('selection-count')).toHaveTextContent('3 selected');
    expect([0, 1, 2, 3, 4].map((i) => cell(i).getAttribute('aria-selected'))).toEqual([
      'false',
      'true',
      'true',
      'true',
      'false',
    ]);
    // Space switches the child in focus off; Shift+→ selects from the last switched to the next.
    await user.keyboard(' ');
    expect(cell(3)).toHaveAttribute('aria-selected', 'false');
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(cell(4)).toHaveAttribute('aria-selected', 'true');
    expect(cell(4)).toHaveFocus();
    expect(screen.getByTestId('focused-child')).toHaveTextContent('fan-out:4');
    expect(screen.getByTestId('selection-count')).toHaveTextContent('4 selected');

    await user.click(screen.getByRole('button', { name: 'Cancel selected…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the selected jobs?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel 3 jobs' }));
    await screen.findByTestId('bulk-cancel-results');
    expect(cancelRequests(fetch).sort()).toEqual(
      [1, 2, 3].map((i) => `/v1/client/job/${childId(i)}/cancel`),
    );
  });

  it('submits the chosen indexes again as a new array, from the form filled as for Submit again', async () => {
    const many = [0, 1, 2, 3, 4].map((i) =>
      arrayChild(i, i % 2 === 1 ? { state: 'failed', exit_code: 1 } : {}),
    );
    stubService([[/\/array\?/, parentAnswer(5, many)]]);
    renderWithService(<JobView job={record('failed')} />);
    const user = userEvent.setup();
    const grid = await screen.findByRole('listbox', { name: 'Children by index' });
    expect(screen.queryByRole('link', { name: /again$/ })).not.toBeInTheDocument();
    await user.click(within(grid).getByRole('option', { name: /^3:/ }));
    expect(screen.getByRole('link', { name: 'Submit this index again' })).toHaveAttribute(
      'href',
      `/submit?from=${PARENT}&indexes=3`,
    );
    await user.click(within(grid).getByRole('option', { name: /^1:/ }));
    expect(screen.getByRole('link', { name: 'Submit these indexes again' })).toHaveAttribute(
      'href',
      `/submit?from=${PARENT}&indexes=1,3`,
    );
  });

  it('offers no resubmit to a role that may not submit', async () => {
    stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('failed')} />, capabilities(), undefined, 'viewer');
    const grid = await screen.findByRole('listbox', { name: 'Children by index' });
    await userEvent.click(within(grid).getByRole('option', { name: /^2:/ }));
    expect(screen.queryByRole('link', { name: /again$/ })).not.toBeInTheDocument();
  });

  it('counts the children of an array of some indexes: those alone, not its size', async () => {
    const some = [arrayChild(1), arrayChild(3, { state: 'running', exit_code: null })];
    stubService([[/\/array\?/, parentAnswer(5, some, { indexes: [1, 3] })]]);
    renderWithService(<JobView job={record('running')} />);
    const section = await screen.findByRole('region', { name: 'Array' });
    expect(within(section).getByTestId('array-progress')).toHaveTextContent(
      '2 children, 1 not ended',
    );
    expect(within(section).getByTestId('child-count-all')).toHaveTextContent('All 2');
    expect(within(section).getByTestId('children-shown')).toHaveTextContent('2 of 2 shown');
  });

  it('says, before its own cancel, that its children that have not ended are cancelled with it', async () => {
    stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('running')} />);
    const user = userEvent.setup();
    await screen.findByRole('region', { name: 'Array' });
    await user.click(screen.getByRole('button', { name: 'Cancel job' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    expect(within(dialog).getByTestId('cancel-array')).toHaveTextContent(
      'Its 1 child that has not ended is cancelled with it',
    );
    expect(
      within(dialog)
        .getAllByTestId('state-badge')
        .map((b) => b.dataset.state),
    ).toEqual(['running', 'cancelling']);
  });

  it('reads no output of its own: it runs nothing', async () => {
    const fetch = stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('running')} />);
    expect(await screen.findByTestId('array-logs')).toHaveTextContent(
      "An array's parent runs nothing itself",
    );
    const logReads = requestedPaths(fetch).filter((path) => path.includes('/logs'));
    // At most the one read begun before the answer said it is a parent.
    expect(logReads.length).toBeLessThanOrEqual(1);
  });
});

describe("an array's child", () => {
  it('says which child of which array it is, the parent linked, and shows no array section', async () => {
    stubService([[/\/array\?/, { ...notInArray, parent_id: PARENT, index: 2 }]]);
    const child = record('failed', { id: childId(2), name: 'fan-out:2', system_note: null });
    renderWithService(<JobView job={child} />);
    const place = await screen.findByTestId('array-place');
    expect(place).toHaveTextContent('Child 2 of array fan-out');
    expect(within(place).getByRole('link', { name: 'fan-out' })).toHaveAttribute(
      'href',
      `/jobs/${PARENT}`,
    );
    expect(screen.queryByRole('region', { name: 'Array' })).not.toBeInTheDocument();
  });
});

describe('a job in no array', () => {
  it('shows nothing of arrays, and reads once', async () => {
    const fetch = stubService([[/\/array\?/, notInArray]]);
    renderWithService(<JobView job={record('running', { system_note: null })} />);
    await vi.waitFor(() => expect(arrayRequests(fetch)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(arrayRequests(fetch)).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Array' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('array-place')).not.toBeInTheDocument();
  });

  it('gets no request from a service without arrays', async () => {
    const fetch = stubService([[/\/array\?/, parentAnswer(3, children)]]);
    renderWithService(<JobView job={record('running')} />, capabilities({ arrays: false }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrayRequests(fetch)).toEqual([]);
    expect(screen.queryByRole('region', { name: 'Array' })).not.toBeInTheDocument();
  });
});
