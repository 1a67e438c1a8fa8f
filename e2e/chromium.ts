/**
 * Debian's Chromium, never a downloaded browser; the flags keep it off this machine's closed
 * network (without them it retries Google's hosts at every start). JOBDECK_CHROMIUM names
 * another browser for both the bench and the e2e suite.
 */
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The full browser: the bench's figures (a first load, Lighthouse's scores) are a browser's. */
export const chromiumLaunchOptions = {
  executablePath: process.env.JOBDECK_CHROMIUM ?? '/usr/bin/chromium',
  args,
};

/**
 * The e2e suite's: Debian's headless shell (package chromium-headless-shell), the same Chromium
 * and renderer without the browser's own interface, which full Chromium still builds when
 * headless. The suite is mostly Chromium's CPU. The shell has no window: to watch a test, run
 * `JOBDECK_CHROMIUM=/usr/bin/chromium npx playwright test --headed <file>`.
 */
export const e2eLaunchOptions = {
  executablePath: process.env.JOBDECK_CHROMIUM ?? '/usr/bin/chromium-headless-shell',
  args,
};
