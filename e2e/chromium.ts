/**
 * Debian's Chromium, never a downloaded browser; the flags keep it off this machine's closed
 * network (without them it retries Google's hosts at every start). Shared by e2e and bench.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.JOBDECK_CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
