import { describe, expect, it } from 'vitest';
import { execProtocols, execSocketUrl, projectCookie } from './exec-socket';

describe('the exec socket', () => {
  it('is on the page’s origin, wss under https, with the size kept within the service’s bounds', () => {
    expect(
      execSocketUrl({ protocol: 'https:', host: 'jobs.example.com' }, 'a b', {
        cols: 0,
        rows: 4000,
      }),
    ).toBe('wss://jobs.example.com/v1/client/job/a%20b/exec?command=sh&tty=true&cols=1&rows=1000');
  });

  it('offers a session’s CSRF token as a second subprotocol, and names its project in a cookie', () => {
    expect(execProtocols('t0k')).toEqual(['jobdeck.exec', 'jobdeck.csrf.t0k']);
    expect(execProtocols(null)).toEqual(['jobdeck.exec']);
    expect(projectCookie('ml team')).toBe('jobdeck_project=ml%20team; path=/; samesite=strict');
  });
});
