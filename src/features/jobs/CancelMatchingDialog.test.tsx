import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkAction, BulkDryRun } from '../../../contract';
import { renderWithService } from '../../test/service';
import { CancelMatchingDialog } from './CancelMatchingDialog';

const dryRun: BulkDryRun = {
  dry_run: true,
  action: 'cancel',
  matched: 3012,
  plan: { cancelled_at_once: 3000, stopped: 2, already_cancelling: 0, skipped: 10 },
  sample: [{ job_id: 'j-1', job_name: 'nightly-3012', state: 'runnable' }],
};

const action = (fields: Partial<BulkAction>): BulkAction => ({
  id: 'b-1',
  action: 'cancel',
  state: 'running',
  filter: { label: ['release=4.2'] },
  matched: 3012,
  processed: 0,
  accepted: 0,
  refused: 0,
  created_by: 'key-1',
  created_at: '2026-11-27T08:00:00.000Z',
  finished_at: null,
  ...fields,
});

/** The service: a dry run answers the plan, a start the action, a read the action as it went. */
function stubBulk(progress: BulkAction[]) {
  const bodies: unknown[] = [];
  const reads: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const answer = (data: unknown, status = 200) =>
      new Response(JSON.stringify({ ok: true, data }), { status });
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { dry_run?: boolean };
      bodies.push(body);
      return body.dry_run ? answer(dryRun) : answer(action({}), 202);
    }
    reads.push(String(input));
    return answer(progress.length > 1 ? progress.shift() : progress[0]);
  });
  vi.stubGlobal('fetch', fetch);
  return { bodies, reads };
}

afterEach(() => vi.unstubAllGlobals());

describe('cancelling every matching job', () => {
  it('shows the dry run, starts the action with the same filter, and follows it to the end', async () => {
    const { bodies, reads } = stubBulk([
      action({ processed: 1000, accepted: 1000 }),
      action({ state: 'done', processed: 3012, accepted: 3002, refused: 10 }),
    ]);
    const filter = { label: ['release=4.2'], state: ['runnable' as const] };
    const onFinished = vi.fn();
    const onClose = vi.fn();
    renderWithService(
      <CancelMatchingDialog filter={filter} opened onClose={onClose} onFinished={onFinished} />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Cancel every matching job?' });
    expect(await within(dialog).findByText('3,012 jobs match these filters.')).toBeVisible();
    const plan = within(dialog).getByRole('table', { name: 'What cancelling them does' });
    expect(
      within(plan)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual([
      'Cancelled at once3,000',
      "Stopped: cancelling until the container exits (SIGKILL after its definition's grace period)2",
      'Already ended: skipped10',
    ]);
    expect(within(dialog).getByText('nightly-3012')).toBeVisible();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel 3,002 jobs' }));
    expect(bodies).toEqual([
      { action: 'cancel', filter, dry_run: true },
      { action: 'cancel', filter },
    ]);
    const progress = await screen.findByTestId('bulk-progress');
    await vi.waitFor(() => expect(progress).toHaveTextContent('Done: 3,012 of 3,012 jobs'), {
      timeout: 5000,
    });
    expect(progress).toHaveTextContent('3,002 accepted, 10 refused');
    expect(new Set(reads)).toEqual(new Set(['/v1/client/bulk-actions/b-1']));
    expect(screen.getByRole('button', { name: 'Download results (CSV)' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(onFinished).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect([onClose.mock.calls.length, onFinished.mock.calls.length]).toEqual([1, 1]);
  });

  it('offers nothing to cancel when every matching job has ended', async () => {
    const ended = { ...dryRun, plan: { ...dryRun.plan, cancelled_at_once: 0, stopped: 0 } };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ ok: true, data: ended }), { status: 200 })),
    );
    renderWithService(
      <CancelMatchingDialog filter={{}} opened onClose={() => {}} onFinished={() => {}} />,
    );
    expect(await screen.findByRole('button', { name: 'Cancel 0 jobs' })).toBeDisabled();
  });
});
