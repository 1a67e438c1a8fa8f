import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DefinitionSummary } from '../../../contract';
import { capabilities, renderWithService, requestedPaths, stubService } from '../../test/service';
import { fill, previewBody } from '../../test/submit-form';
import SubmitPage from './SubmitPage';

const sleep: DefinitionSummary = {
  job_definition: 'demo::sleep:1',
  name: 'sleep',
  version: '1',
  image: 'alpine:3.20',
  command: ['sleep', 'Param::seconds'],
  parameters: { seconds: '60' },
  env_names: [],
  timeout_seconds: 600,
  stop_grace_seconds: 10,
  cpus: 0.5,
  memory_bytes: 64 * 1024 * 1024,
  network: 'none',
  retry: { attempts: 2 },
};

afterEach(() => vi.unstubAllGlobals());

const definitionField = () => screen.getByRole('combobox', { name: 'Job definition' });

describe('the definition named in the submit form', () => {
  it('typed whole, loads its command and parameters as picking it does, and shows what it runs', async () => {
    stubService([
      [/\/v1\/client\/definitions$/, { items: [sleep] }],
      [/\/v1\/client\/queues$/, []],
    ]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fill(user, definitionField(), 'demo::sleep:1');
    expect(
      await screen.findByRole('combobox', { name: 'Command word 2' }, { timeout: 10_000 }),
    ).toHaveValue('Param::seconds');
    expect(screen.getByRole('combobox', { name: 'Command word 1' })).toHaveValue('sleep');
    expect(screen.getByRole('textbox', { name: 'Parameter 1 key' })).toHaveValue('seconds');
    expect(screen.getByRole('textbox', { name: 'Parameter 1 value' })).toHaveValue('60');
    expect(previewBody()).toMatchObject({
      container_cmd: ['sleep', 'Param::seconds'],
      container_cmd_parameter: { seconds: '60' },
    });
    const details = screen.getByTestId('definition-details');
    expect(details).toHaveTextContent('alpine:3.20');
    expect(details).toHaveTextContent('CPUs0.5');
    expect(details).toHaveTextContent('Memory64 MiB');
    expect(details).toHaveTextContent('Timeout10 min');
    expect(details).toHaveTextContent('Stop grace10 s');
    expect(details).toHaveTextContent('Retries2 attempts');
    const parameters = within(details).getByRole('table', { name: 'Declared parameters' });
    expect(parameters).toHaveTextContent('seconds60');
  });

  it('shows its right-size hint from recent runs beside its limits, and its memory retries', async () => {
    const MiB = 2 ** 20;
    const summary = 'the last 50 runs peaked at 310 MiB p95 of 1 GiB asked: 0.3 efficiency';
    const fetch = stubService([
      [
        /\/v1\/client\/definitions$/,
        {
          items: [
            {
              ...sleep,
              retry: { attempts: 3, out_of_memory: { factor: 2, max_memory_bytes: 2048 * MiB } },
            },
          ],
        },
      ],
      [
        /\/v1\/client\/definitions\/demo%3A%3Asleep%3A1\/sizing$/,
        {
          job_definition: 'demo::sleep:1',
          runs: 50,
          enough_runs: true,
          asked: { memory_bytes: 1024 * MiB, cpus: 1 },
          memory: { p95_peak_bytes: 310 * MiB, max_peak_bytes: 400 * MiB, efficiency: 0.3 },
          cpu: null,
          summary,
        },
      ],
      [/\/v1\/client\/queues$/, []],
    ]);
    renderWithService(<SubmitPage />);
    await fill(userEvent.setup(), definitionField(), 'demo::sleep:1');
    expect(
      await screen.findByTestId('definition-sizing', {}, { timeout: 10_000 }),
    ).toHaveTextContent(`Right size (recent runs)${summary}`);
    expect(screen.getByTestId('definition-details')).toHaveTextContent(
      'out of memory: memory ×2 up to 2 GiB',
    );
    expect(requestedPaths(fetch)).toContainEqual(
      expect.stringMatching(/\/definitions\/demo%3A%3Asleep%3A1\/sizing$/),
    );
  });

  it('shows no hint where the service does not offer one', async () => {
    stubService([
      [/\/v1\/client\/definitions$/, { items: [sleep] }],
      [/\/v1\/client\/queues$/, []],
    ]);
    renderWithService(<SubmitPage />);
    await fill(userEvent.setup(), definitionField(), 'demo::sleep:1');
    expect(
      await screen.findByTestId('definition-details', {}, { timeout: 10_000 }),
    ).toHaveTextContent('Retries2 attempts');
    expect(screen.queryByTestId('definition-sizing')).toBeNull();
  });

  it('loads nothing for a name the service would not match (another case)', async () => {
    stubService([
      [/\/v1\/client\/definitions$/, { items: [sleep] }],
      [/\/v1\/client\/queues$/, []],
    ]);
    renderWithService(<SubmitPage />);
    const user = userEvent.setup();
    await fill(user, definitionField(), 'Demo::Sleep:1');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByRole('combobox', { name: 'Command word 1' })).toBeNull();
    expect(screen.queryByTestId('definition-details')).toBeNull();
  });

  it('on a service that declares no definitions, the form works as before', async () => {
    const fetch = stubService([]);
    renderWithService(<SubmitPage />, capabilities({ definitions: false, queues: false }));
    const user = userEvent.setup();
    await fill(user, definitionField(), 'demo::sleep:1');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(screen.queryByTestId('definition-details')).toBeNull();
    expect(previewBody()).toEqual({ job_definition: 'demo::sleep:1', job_queue: '' });
    expect(fetch.mock.calls.map(([input]) => String(input))).not.toContainEqual(
      expect.stringContaining('/definitions'),
    );
  });
});
