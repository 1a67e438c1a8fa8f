import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../../test/service';
import { fill, fillBasics, posted, refusingSubmit, sentBody } from '../../test/submit-form';
import SubmitPage from './SubmitPage';

const definition = {
  job_definition: 'demo::flaky:1',
  name: 'flaky',
  version: '1',
  image: 'alpine',
  command: ['false'],
  parameters: {},
  env_names: [],
  timeout_seconds: 60,
  stop_grace_seconds: 10,
  cpus: null,
  memory_bytes: null,
  network: 'none',
  retry: {
    attempts: 3,
    backoff: { initial_seconds: 10, factor: 2, max_seconds: 300, jitter: 0.2 },
    on_exit: [{ exit_codes: [137], action: 'retry' }],
  },
};

afterEach(() => vi.unstubAllGlobals());

describe('the Retries section of the submit form', () => {
  it('is not there on a service without retries', () => {
    stubService([]);
    renderWithService(<SubmitPage />, capabilities({ attempts: false }));
    expect(screen.queryByText('Retries (retry)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set retries' })).not.toBeInTheDocument();
  });

  it("is folded and says the definition's default, which an empty section leaves in force", async () => {
    stubService([
      [/\/v1\/client\/definitions$/, { items: [definition] }],
      [/\/v1\/client\/queues$/, []],
    ]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user, 'demo::flaky:1');
    expect(await screen.findByTestId('definition-retry')).toHaveTextContent(
      'Definition default: 3 attempts, backoff 10 s ×2 up to 5 min (±20% jitter); rules: exit 137 → retry',
    );
    expect(screen.getByTestId('retry-summary')).toHaveTextContent(
      "Left empty, the definition's strategy applies.",
    );
    expect(screen.getByRole('button', { name: 'Set retries' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.queryByRole('textbox', { name: 'Attempts' })).not.toBeInTheDocument();
    expect(screen.getByTestId('payload-preview')).not.toHaveTextContent('retry');
  });

  it('adds retry to the body once set, and takes it out again once emptied', async () => {
    stubService([]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Set retries' }));
    await fill(user, screen.getByRole('textbox', { name: 'Attempts' }), '5');
    await fill(user, screen.getByRole('textbox', { name: 'Longest delay (seconds)' }), '60');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await fill(user, screen.getByRole('textbox', { name: 'Rule 1 exit codes' }), '1-5, 137');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rule 1 action' }), 'exit');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rule 2 reason' }), 'timeout');
    const body = JSON.parse(screen.getByTestId('payload-preview').textContent ?? '') as unknown;
    expect(body).toMatchObject({
      retry: {
        attempts: 5,
        backoff: { max_seconds: 60 },
        on_exit: [
          { exit_codes: ['1-5', 137], action: 'exit' },
          { reason: 'timeout', action: 'retry' },
        ],
      },
    });
    expect(screen.getByTestId('retry-summary')).toHaveTextContent(
      'Set: 5 attempts, backoff 10 s ×2 up to 1 min (±20% jitter); rules: exit 1-5, 137 → exit; timeout → retry.',
    );

    await user.click(screen.getByRole('button', { name: 'Remove rule 2' }));
    await user.click(screen.getByRole('button', { name: 'Remove rule 1' }));
    await user.clear(screen.getByRole('textbox', { name: 'Attempts' }));
    await user.clear(screen.getByRole('textbox', { name: 'Longest delay (seconds)' }));
    expect(screen.getByTestId('payload-preview')).not.toHaveTextContent('retry');
  });

  it('shows faults at their fields and sends nothing', async () => {
    const fetch = stubService([]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user, 'demo::flaky:1');
    await user.click(screen.getByRole('button', { name: 'Set retries' }));
    await fill(user, screen.getByRole('textbox', { name: 'Attempts' }), '12');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    const attempts = screen.getByRole('textbox', { name: 'Attempts' });
    expect(await screen.findByText('must be an integer from 1 to 10')).toBeInTheDocument();
    expect(attempts).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Rule 1 exit codes' })).toHaveAccessibleDescription(
      'must have at least one matcher: exit_codes, reason or status',
    );
    expect(posted(fetch)).toEqual([]);
  });

  it("puts the service's refusal of a rule at the rule's field", async () => {
    const fetch = refusingSubmit('retry.on_exit[0].status: no such status on this engine');
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user, 'demo::flaky:1');
    await user.click(screen.getByRole('button', { name: 'Set retries' }));
    await fill(user, screen.getByRole('textbox', { name: 'Attempts' }), '2');
    await user.click(screen.getByRole('button', { name: 'Add rule' }));
    await fill(user, screen.getByRole('textbox', { name: 'Rule 1 status glob' }), 'Exploded*');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    const status = screen.getByRole('textbox', { name: 'Rule 1 status glob' });
    await vi.waitFor(() => expect(status).toHaveAttribute('aria-invalid', 'true'));
    expect(status).toHaveAccessibleDescription('no such status on this engine');
    expect(sentBody(fetch).retry).toEqual({
      attempts: 2,
      on_exit: [{ status: 'Exploded*', action: 'retry' }],
    });
    expect(
      within(screen.getByRole('alert')).getByText('See the highlighted fields.'),
    ).toBeInTheDocument();
  });
});
