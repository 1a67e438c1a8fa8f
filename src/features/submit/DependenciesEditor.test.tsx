import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilities, renderWithService, stubService } from '../../test/service';
import {
  fill,
  fillBasics,
  posted,
  previewBody,
  refusingSubmit,
  sentBody,
} from '../../test/submit-form';
import SubmitPage from './SubmitPage';

const A = '01a20274-e614-709d-917d-d51b4dc7e757';
const B = '01a20274-e614-709d-917d-d51b4dc7e758';

afterEach(() => vi.unstubAllGlobals());

describe('the Dependencies section of the submit form', () => {
  it('is not there on a service without dependencies', () => {
    stubService([]);
    renderWithService(<SubmitPage />, capabilities({ dependencies: false }));
    expect(screen.queryByText('Dependencies (depends_on)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Set dependencies' })).not.toBeInTheDocument();
  });

  it('adds depends_on to the body once a row is there, each row as typed', async () => {
    stubService([]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Set dependencies' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('dependencies-summary')).toHaveTextContent(
      'Left empty, the job waits for no other job.',
    );
    await user.click(toggle);
    await user.click(screen.getByRole('button', { name: 'Add dependency' }));
    await fill(user, screen.getByRole('textbox', { name: 'Dependency 1 job id' }), A);
    await user.click(screen.getByRole('button', { name: 'Add dependency' }));
    await fill(user, screen.getByRole('textbox', { name: 'Dependency 2 job id' }), B);
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Dependency 2 type' }),
      'afternotok',
    );
    expect(previewBody()).toMatchObject({
      depends_on: [
        { job_id: A, type: 'afterok' },
        { job_id: B, type: 'afternotok' },
      ],
    });
    expect(screen.getByTestId('dependencies-summary')).toHaveTextContent(
      /waits for 2 jobs, pending until each has ended/,
    );
  });

  it('takes depends_on out of the body with the last row', async () => {
    stubService([]);
    renderWithService(<SubmitPage />, capabilities(), `/submit?after=${A}`);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Remove dependency 1' }));
    expect(screen.getByTestId('payload-preview')).not.toHaveTextContent('depends_on');
    expect(screen.getByTestId('dependencies-summary')).toHaveTextContent(
      'Left empty, the job waits for no other job.',
    );
  });

  it('comes open with the job to wait for from "Submit a job after this one"', () => {
    stubService([]);
    renderWithService(<SubmitPage />, capabilities(), `/submit?after=${A}`);
    expect(screen.getByRole('button', { name: 'Hide dependencies' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByRole('textbox', { name: 'Dependency 1 job id' })).toHaveValue(A);
    expect(screen.getByRole('combobox', { name: 'Dependency 1 type' })).toHaveValue('afterok');
    expect(previewBody()).toMatchObject({ depends_on: [{ job_id: A, type: 'afterok' }] });
  });

  it("puts the contract's faults and the service's refusal at the row, sending only a valid body", async () => {
    const fetch = refusingSubmit(
      `depends_on[0].job_id: job build (${A}) ended failed, so a job waiting for it to complete (afterok) could never start`,
    );
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user);
    await user.click(screen.getByRole('button', { name: 'Set dependencies' }));
    // Once the section has unfolded.
    await user.click(await screen.findByRole('button', { name: 'Add dependency' }));
    const jobId = screen.getByRole('textbox', { name: 'Dependency 1 job id' });
    await fill(user, jobId, 'build-42');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    await vi.waitFor(() => expect(jobId).toHaveAttribute('aria-invalid', 'true'));
    expect(jobId).toHaveAccessibleDescription(
      'must be a job id (a UUID, as Job Submit answers it)',
    );
    expect(posted(fetch)).toEqual([]);

    await user.clear(jobId);
    await fill(user, jobId, A);
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    await vi.waitFor(() =>
      expect(jobId).toHaveAccessibleDescription(
        `job build (${A}) ended failed, so a job waiting for it to complete (afterok) could never start`,
      ),
    );
    expect(sentBody(fetch).depends_on).toEqual([{ job_id: A, type: 'afterok' }]);
    expect(
      within(screen.getByRole('alert')).getByText('See the highlighted fields.'),
    ).toBeInTheDocument();
  });
});
