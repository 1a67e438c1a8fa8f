import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JobRecord, JobState, RetryStrategy } from '../../../contract';
import { attemptsAnswerSchema, type AttemptsAnswer } from '../../api/attempts';
import { jobKeys } from '../../api/keys';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { AttemptsSection } from './AttemptsSection';
import { ExecutionPanel } from './ExecutionPanel';
import { JobHeader } from './JobHeader';

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';

const job = (state: JobState, fields: Partial<JobRecord> = {}): JobRecord => ({
  id: ID,
  name: 'flaky',
  state,
  system_note: null,
  schedule_at: null,
  created_at: '2026-11-26T10:40:00.000Z',
  updated_at: '2026-11-26T10:41:57.000Z',
  ...fields,
});

const strategy: RetryStrategy = {
  attempts: 3,
  backoff: { initial_seconds: 10, factor: 2, max_seconds: 300, jitter: 0.2 },
  on_exit: [
    { exit_codes: [137, '1-5'], action: 'retry' },
    { reason: 'timeout', action: 'exit' },
  ],
};

const firstAttempt = {
  attempt: 1,
  state: 'failed',
  exit_code: 137,
  reason: 'oom_killed',
  note: 'exited 137: killed, out of memory?',
  node: 'node-2',
  started_at: '2026-11-26T10:41:15.000Z',
  finished_at: '2026-11-26T10:41:57.000Z',
  retried: true,
} as const;

/** Waiting for attempt 2, which starts `inMs` from now. */
const waiting = (inMs: number): AttemptsAnswer => ({
  attempt: 2,
  attempts_max: 3,
  retry: strategy,
  next_attempt_at: new Date(Date.now() + inMs).toISOString(),
  items: [firstAttempt],
});

afterEach(() => vi.unstubAllGlobals());

describe('the attempts answer', () => {
  it('parses the service’s answer, and refuses one without its items', () => {
    const parsed = attemptsAnswerSchema.parse({ ...waiting(10_000), extra: 'ignored' });
    expect(parsed.items[0]).toMatchObject({ attempt: 1, reason: 'oom_killed', retried: true });
    expect(parsed.retry?.on_exit?.[0]?.exit_codes).toEqual([137, '1-5']);
    expect(
      attemptsAnswerSchema.safeParse({ attempt: 1, attempts_max: 1, retry: null }).success,
    ).toBe(false);
    expect(
      attemptsAnswerSchema.safeParse({
        attempt: 1,
        attempts_max: 1,
        retry: null,
        next_attempt_at: null,
        items: [{ ...firstAttempt, state: 'exploded' }],
      }).success,
    ).toBe(false);
  });
});

describe('AttemptsSection', () => {
  it('shows each ended attempt and counts down to the next while the job waits', async () => {
    const fetch = stubService([[/\/attempts$/, waiting(65_000)]]);
    renderWithService(
      <AttemptsSection job={job('runnable')} onShowCurrentOutput={() => undefined} />,
    );
    expect(await screen.findByTestId('attempt-countdown')).toHaveTextContent(
      /^Attempt 2 of 3 starts in 1:0\d$/,
    );
    const [first, second] = screen.getAllByTestId('attempt-item');
    expect(within(first!).getByText('Attempt 1')).toBeInTheDocument();
    expect(within(first!).getByTestId('state-badge')).toHaveTextContent('failed');
    expect(within(first!).getByTestId('attempt-facts')).toHaveTextContent(
      'Exit code 137Reason out of memoryNode node-2Duration 0:42',
    );
    expect(within(first!).getByText('exited 137: killed, out of memory?')).toBeInTheDocument();
    expect(within(first!).getByText(/^Retried/)).toBeInTheDocument();
    expect(within(second!).getByText('Attempt 2')).toBeInTheDocument();
    expect(within(second!).getByTestId('state-badge')).toHaveTextContent('runnable');
    expect(within(second!).getByText(/Waits for its backoff/)).toBeInTheDocument();
    expect(requestedPaths(fetch)).toEqual([`/v1/client/job/${ID}/attempts`]);
  });

  it('shows a preempted attempt as preempted, not as failed or cancelled', async () => {
    const preempted = {
      ...firstAttempt,
      state: 'cancelled',
      exit_code: 143,
      reason: 'preempted',
      note: 'preempted: team-a reclaimed 1 job it lent; will run again',
    } as const;
    stubService([
      [
        /\/attempts$/,
        { ...waiting(0), retry: null, attempts_max: 2, next_attempt_at: null, items: [preempted] },
      ],
    ]);
    renderWithService(
      <AttemptsSection job={job('running')} onShowCurrentOutput={() => undefined} />,
    );
    const [first] = await screen.findAllByTestId('attempt-item');
    expect(within(first!).getByTestId('preempted-badge')).toHaveTextContent('preempted');
    expect(within(first!).queryByTestId('state-badge')).toBeNull();
    expect(within(first!).getByTestId('attempt-facts')).toHaveTextContent(
      'Exit code 143Reason preempted: quota reclaimed',
    );
    expect(within(first!).getByText(preempted.note)).toBeInTheDocument();
  });

  it("opens an earlier attempt's own output; the current one points to the page's logs", async () => {
    const fetch = stubService([
      [
        /\/attempts\/1\/logs$/,
        {
          text: 'loading\nKilled\n',
          truncated: false,
          lines: [
            { stream: 'stdout', at: '2026-11-26T10:41:16.000Z', text: 'loading' },
            { stream: 'stderr', at: '2026-11-26T10:41:57.000Z', text: 'Killed' },
          ],
          next_since: null,
        },
      ],
      [/\/attempts$/, { ...waiting(0), next_attempt_at: null }],
    ]);
    const onShowCurrentOutput = vi.fn();
    renderWithService(
      <AttemptsSection job={job('running')} onShowCurrentOutput={onShowCurrentOutput} />,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Output of attempt 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Output of attempt 1' });
    expect(await within(dialog).findByTestId('log-line-count')).toHaveTextContent('2 lines');
    expect(requestedPaths(fetch)).toContain(`/v1/client/job/${ID}/attempts/1/logs`);
    await user.keyboard('{Escape}');

    expect(screen.queryByTestId('attempt-countdown')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Output (logs below), attempt 2' }));
    expect(onShowCurrentOutput).toHaveBeenCalled();
  });

  it('once final, lists every attempt, the last one with the page’s logs', async () => {
    stubService([
      [
        /\/attempts$/,
        {
          attempt: 2,
          attempts_max: 2,
          retry: { attempts: 2 },
          next_attempt_at: null,
          items: [
            firstAttempt,
            {
              ...firstAttempt,
              attempt: 2,
              state: 'completed',
              exit_code: 0,
              reason: 'completed',
              note: null,
              retried: false,
            },
          ],
        },
      ],
    ]);
    renderWithService(
      <AttemptsSection job={job('completed')} onShowCurrentOutput={() => undefined} />,
    );
    expect(await screen.findByTestId('attempt-of')).toHaveTextContent('Attempt 2 of 2');
    const items = screen.getAllByTestId('attempt-item');
    expect(items).toHaveLength(2);
    expect(within(items[1]!).getByTestId('state-badge')).toHaveTextContent('completed');
    expect(
      within(items[1]!).getByRole('link', { name: 'Output (logs below), attempt 2' }),
    ).toBeInTheDocument();
    expect(within(items[1]!).queryByText(/^Retried/)).not.toBeInTheDocument();
  });

  it('shows nothing for a job run once by its strategy', async () => {
    const fetch = stubService([
      [
        /\/attempts$/,
        { attempt: 1, attempts_max: 1, retry: null, next_attempt_at: null, items: [] },
      ],
    ]);
    const running = job('running');
    const { client } = renderWithService(
      <AttemptsSection job={running} onShowCurrentOutput={() => undefined} />,
    );
    await vi.waitFor(() =>
      expect(client.getQueryData(jobKeys.attempts(ID, running.updated_at))).toBeDefined(),
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('heading', { name: 'Attempts' })).not.toBeInTheDocument();
  });
});

describe('a service without retries', () => {
  it('gets no request, no attempts, no strategy and no Retry button', async () => {
    const fetch = stubService([
      [
        /\/execution$/,
        {
          job_definition: 'demo::flaky:1',
          job_queue: 'demo::default',
          image: 'alpine',
          command: ['false'],
          env: [],
          limits: { cpus: 1, memory_bytes: 64 * 1024 * 1024, timeout_seconds: 60 },
          exit_code: 1,
          started_at: '2026-11-26T10:41:15.000Z',
          finished_at: '2026-11-26T10:41:57.000Z',
          duration_ms: 42_000,
          engine: 'docker',
          instance: null,
          node: null,
        },
      ],
      [/\/attempts$/, waiting(10_000)],
    ]);
    const { container } = renderWithService(
      <>
        <JobHeader job={job('failed')} array={null} />
        <AttemptsSection job={job('failed')} onShowCurrentOutput={() => undefined} />
        <ExecutionPanel job={job('failed')} />
      </>,
      capabilities({ attempts: false }),
    );
    expect(await screen.findByTestId('execution-exit-code')).toHaveTextContent('1');
    expect(screen.getByRole('link', { name: 'Submit again' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Retry' })).not.toBeInTheDocument();
    expect(container.querySelector('[data-testid^="attempt"]')).toBeNull();
    expect(screen.queryByTestId('execution-attempt')).not.toBeInTheDocument();
    expect(screen.queryByTestId('retry-strategy')).not.toBeInTheDocument();
    expect(requestedPaths(fetch).filter((path) => path.includes('attempts'))).toEqual([]);
  });
});

describe('a failed job on a service with retries', () => {
  it('offers Retry (the submit-again form) and shows its attempt and strategy', async () => {
    stubService([
      [
        /\/execution$/,
        {
          job_definition: 'demo::flaky:1',
          job_queue: 'demo::default',
          image: 'alpine',
          command: ['false'],
          env: [],
          limits: { cpus: 1, memory_bytes: 64 * 1024 * 1024, timeout_seconds: 60 },
          exit_code: 137,
          started_at: '2026-11-26T10:41:15.000Z',
          finished_at: '2026-11-26T10:41:57.000Z',
          duration_ms: 42_000,
          engine: 'docker',
          instance: null,
          node: 'node-2',
          attempt: 3,
          attempts_max: 3,
        },
      ],
      [
        /\/attempts$/,
        {
          attempt: 3,
          attempts_max: 3,
          retry: strategy,
          next_attempt_at: null,
          items: [1, 2, 3].map((attempt) => ({ ...firstAttempt, attempt, retried: attempt < 3 })),
        },
      ],
    ]);
    renderWithService(
      <>
        <JobHeader job={job('failed')} array={null} />
        <ExecutionPanel job={job('failed')} />
      </>,
    );
    const retry = screen.getByRole('link', { name: 'Retry' });
    expect(retry).toHaveAttribute('href', `/submit?from=${ID}`);
    expect(screen.queryByRole('link', { name: 'Submit again' })).not.toBeInTheDocument();
    expect(await screen.findByTestId('execution-attempt')).toHaveTextContent('Attempt 3 of 3');
    expect(screen.getByTestId('retry-strategy')).toHaveTextContent(
      '3 attempts, backoff 10 s ×2 up to 5 min (±20% jitter); rules: exit 137, 1-5 → retry; timeout → exit',
    );
  });

  it('keeps "Submit again" for a job that completed', () => {
    stubService([]);
    renderWithService(<JobHeader job={job('completed')} array={null} />);
    expect(screen.getByRole('link', { name: 'Submit again' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Retry' })).not.toBeInTheDocument();
  });
});
