import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JobSecrets } from '../../server/jobs/job-secrets';
import { AesGcmSecretBox } from '../../server/secrets/secret-box';

const box = new AesGcmSecretBox(randomBytes(32));
const SECRET = 'correct-horse-battery-staple';
const secrets = new JobSecrets(
  {
    env: [
      { name: 'TOKEN', sealed: box.seal(SECRET) },
      { name: 'PLAIN', value: 'visible' },
    ],
  },
  box,
);

describe('secrets in what the engine says', () => {
  it('are scrubbed from messages raw, JSON-escaped and Go-quoted', () => {
    const withControl = new JobSecrets(
      { env: [{ name: 'K', sealed: box.seal('a"b\tc\u0001') }] },
      box,
    );
    expect(withControl.scrub('raw a"b\tc\u0001 json a\\"b\\tc\\u0001 go a\\"b\\tc\\x01')).toBe(
      'raw [K redacted] json [K redacted] go [K redacted]',
    );
    expect(secrets.scrub('visible stays')).toBe('visible stays');
  });
});
