import { describe, expect, it } from 'vitest';
import { cronInWords } from './cron-words';

describe('cronInWords', () => {
  it.each([
    ['*/5 * * * * *', 'every 5 seconds'],
    ['* * * * * *', 'every second'],
    ['* * * * *', 'every minute'],
    ['*/15 * * * *', 'every 15 minutes'],
    ['0 */10 * * * *', 'every 10 minutes'],
    ['5 * * * *', 'every hour at :05'],
    ['30 */2 * * *', 'every 2 hours at :30'],
    ['30 2 * * *', 'every day at 02:30'],
    ['0 9 * * 1-5', 'weekdays at 09:00'],
    ['0 9 * * 0', 'every Sunday at 09:00'],
    ['0 9 * * 7', 'every Sunday at 09:00'],
    ['0 6 1 * *', 'every month on day 1 at 06:00'],
    ['0 0 1 1 *', 'every year on 1 January at 00:00'],
    ['30 8 24 12 *', 'every year on 24 December at 08:30'],
    ['@daily', 'every day at 00:00'],
    ['@HOURLY', 'every hour at :00'],
  ])('%s reads "%s"', (expression, words) => {
    expect(cronInWords(expression)).toBe(words);
  });

  it.each([
    '0 9 * 1 *',
    '0 9 1 13 *',
    '0 9 1 JAN *',
    '0,30 * * * *',
    '0 9-17 * * *',
    '10 0 9 * * *',
    '0 9 1 * 1',
    '@reboot',
    'not cron',
    '',
  ])('leaves %j to the expression itself', (expression) => {
    expect(cronInWords(expression)).toBeNull();
  });
});
