import { expect, test } from './fixtures';
import {
  confirmCancel,
  openCancelDialog,
  submitViaApi,
  waitForStateViaApi,
  watchCspViolations,
} from './helpers';

test('a shell in a running job answers what is typed, and closes when the job is cancelled', async ({
  page,
  extensions,
}) => {
  const violations = await watchCspViolations(page);
  const id = await submitViaApi(page, {
    job_definition: 'demo::sleep:1',
    container_cmd_parameter: { seconds: '600' },
  });
  await waitForStateViaApi(page, id, 'running');
  await page.goto(`/jobs/${id}`);
  await expect(page.getByRole('heading', { name: 'Execution' })).toBeVisible();
  if (!extensions) {
    // No whoami, so nothing says a shell could open: none is offered.
    await expect(page.getByRole('heading', { name: 'Shell' })).toHaveCount(0);
    await confirmCancel(await openCancelDialog(page));
    return;
  }

  // What the console sends: the size it opens with (in the URL) and each resize (text frames).
  // The command's own view of it cannot be read here: this machine's container runtime answers
  // no terminal-size ioctl (`stty size` fails in any container).
  const sizes: { cols: number; rows: number }[] = [];
  page.on('websocket', (socket) => {
    const url = new URL(socket.url());
    sizes.push({
      cols: Number(url.searchParams.get('cols')),
      rows: Number(url.searchParams.get('rows')),
    });
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string')
        sizes.push(JSON.parse(payload) as { cols: number; rows: number });
    });
  });
  const loadedBefore = await page.evaluate(() =>
    performance.getEntriesByType('resource').some((entry) => entry.name.includes('JobTerminal')),
  );
  expect(loadedBefore, 'xterm.js loads with the first terminal, not with the page').toBe(false);
  await page.getByRole('button', { name: 'Open a shell' }).click();
  await expect(page.getByTestId('terminal-status')).toHaveText(/^Connected/);
  const terminal = page.getByRole('region', { name: 'Terminal' });

  await page.keyboard.type('echo hi-$((6*7))');
  await page.keyboard.press('Enter');
  await expect(terminal.getByText('hi-42', { exact: true })).toBeVisible();

  // It opened at the size the panel fits, and follows the panel when the window narrows.
  const shownRows = await terminal.locator('.xterm-rows > div').count();
  expect(sizes[0]).toMatchObject({ rows: shownRows });
  const opened = sizes[0]!;
  const viewport = page.viewportSize()!;
  await page.setViewportSize({ width: viewport.width - 300, height: viewport.height });
  await expect.poll(() => sizes.at(-1)).toMatchObject({ type: 'resize', rows: opened.rows });
  expect(sizes.at(-1)!.cols).toBeLessThan(opened.cols);
  await page.keyboard.type('echo still-$((2*3))');
  await page.keyboard.press('Enter');
  await expect(terminal.getByText('still-6', { exact: true })).toBeVisible();

  await confirmCancel(await openCancelDialog(page));
  await expect(page.getByTestId('terminal-end')).toHaveText(
    'The job ended, and the terminal with it.',
  );
  await expect(page.getByTestId('terminal-status')).toHaveText('Closed');
  await page.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Shell' })).toHaveCount(0);
  expect(await violations()).toEqual([]);
});
