import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parentAnswer } from '../../test/array';
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

afterEach(() => vi.unstubAllGlobals());

const sizeField = () => screen.getByRole('textbox', { name: 'Array size' });

describe('the Array section of the submit form', () => {
  it('is not there on a service without arrays', () => {
    stubService([]);
    renderWithService(<SubmitPage />, capabilities({ arrays: false }));
    expect(screen.queryByRole('textbox', { name: 'Array size' })).not.toBeInTheDocument();
  });

  it('adds array to the body once a size is typed, says what it does, and takes it out when emptied', async () => {
    stubService([]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    expect(screen.getByTestId('array-summary')).toHaveTextContent('Left empty, the job runs once.');
    await fill(user, sizeField(), '1000');
    expect(previewBody()).toMatchObject({ array: { size: 1000 } });
    expect(screen.getByTestId('array-summary')).toHaveTextContent(
      "Set: 1,000 children run the job's container, each with JOBDECK_ARRAY_INDEX (0 to 999) and JOBDECK_ARRAY_SIZE=1000",
    );
    await user.clear(sizeField());
    expect(screen.getByTestId('payload-preview')).not.toHaveTextContent('array');
  });

  it("says the contract's limit at the field when the size is out of it, and sends nothing", async () => {
    const fetch = stubService([]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user);
    await fill(user, sizeField(), '10001');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    await vi.waitFor(() => expect(sizeField()).toHaveAttribute('aria-invalid', 'true'));
    // The fault first, then the field's own description.
    expect(sizeField()).toHaveAccessibleDescription(
      /^must be at most 10000 Optional: how many children/,
    );
    expect(screen.getByTestId('array-summary')).toHaveTextContent('Set, with a fault to fix.');
    expect(posted(fetch)).toEqual([]);
    // Fixed, the fault goes as it is typed.
    await user.clear(sizeField());
    await fill(user, sizeField(), '2');
    await vi.waitFor(() => expect(sizeField()).not.toHaveAttribute('aria-invalid', 'true'));
  });

  it("puts the service's refusal of the size at the field", async () => {
    const fetch = refusingSubmit('array.size: must be at most 5000 on this service');
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fillBasics(user);
    await fill(user, sizeField(), '6000');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    await vi.waitFor(() =>
      expect(sizeField()).toHaveAccessibleDescription(/^must be at most 5000 on this service /),
    );
    expect(sentBody(fetch).array).toEqual({ size: 6000 });
  });

  it("comes filled with an array's size when its parent is submitted again", async () => {
    stubService([
      [/\/execution$/, EXECUTION],
      [/\/array\?/, parentAnswer(40, [])],
    ]);
    renderWithService(<SubmitPage />, capabilities(), `/submit?from=${ID}`);
    await vi.waitFor(() => expect(sizeField()).toHaveValue('40'));
    expect(previewBody()).toMatchObject({
      job_definition: 'demo::shell:1',
      container_cmd: ['sh', '-c', 'echo $JOBDECK_ARRAY_INDEX'],
      array: { size: 40 },
    });
    expect(previewBody()).not.toHaveProperty('array.indexes');
  });

  it('comes filled with only the indexes chosen on the parent’s page, until asked to run every index', async () => {
    const fetch = stubService([
      [/\/execution$/, EXECUTION],
      [/\/array\?/, parentAnswer(40, [])],
    ]);
    renderWithService(<SubmitPage />, capabilities(), `/submit?from=${ID}&indexes=3,17`);
    await vi.waitFor(() =>
      expect(previewBody()).toMatchObject({ array: { size: 40, indexes: [3, 17] } }),
    );
    expect(screen.getByTestId('array-summary')).toHaveTextContent(
      "Set: only indexes 3, 17 again: 2 children run the job's container, each with its JOBDECK_ARRAY_INDEX and JOBDECK_ARRAY_SIZE=40, as in the array they come from.",
    );
    // An index the size no longer holds is refused at the size, in the contract's words.
    const user = userEvent.setup();
    await user.clear(sizeField());
    await fill(user, sizeField(), '10');
    await user.click(screen.getByRole('button', { name: 'Submit job' }));
    await vi.waitFor(() =>
      expect(sizeField()).toHaveAccessibleDescription(/^must be below array.size \(10\) /),
    );
    expect(posted(fetch)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Run every index' }));
    expect(previewBody()).toMatchObject({ array: { size: 10 } });
    expect(previewBody()).not.toHaveProperty('array.indexes');
  });

  it('keeps the indexes of a parent that ran only some, when it is submitted again', async () => {
    stubService([
      [/\/execution$/, EXECUTION],
      [/\/array\?/, parentAnswer(40, [], { indexes: [5, 9] })],
    ]);
    renderWithService(<SubmitPage />, capabilities(), `/submit?from=${ID}`);
    await vi.waitFor(() =>
      expect(previewBody()).toMatchObject({ array: { size: 40, indexes: [5, 9] } }),
    );
  });
});

const ID = '01a20274-e614-709d-917d-d51b4dc7e757';
const EXECUTION = {
  job_definition: 'demo::shell:1',
  job_queue: 'demo::default',
  image: 'busybox',
  command: ['sh', '-c', 'echo $JOBDECK_ARRAY_INDEX'],
  env: [],
  limits: { cpus: 1, memory_bytes: 64 * 1024 * 1024, timeout_seconds: 60 },
  exit_code: null,
  started_at: '2026-11-26T10:41:00.000Z',
  finished_at: '2026-11-26T10:41:09.000Z',
  duration_ms: 9000,
  engine: 'docker',
  instance: null,
  node: null,
};
