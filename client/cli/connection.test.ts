import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionOf } from './connection';

function profileFile(mode: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'jobdeck-cli-')), 'profiles.yaml');
  writeFileSync(
    file,
    'profiles:\n  default: { url: "http://a:1", api_key: "k-default" }\n  ci: { url: "http://b:2", api_key: "k-ci" }\n',
  );
  chmodSync(file, mode);
  return file;
}

describe('where the client finds its service and key', () => {
  it('takes JOBDECK_URL and JOBDECK_API_KEY first', () => {
    const env = {
      JOBDECK_URL: 'http://e:3',
      JOBDECK_API_KEY: 'k-env',
      JOBDECK_PROFILE_FILE: '/nonexistent',
    };
    expect(connectionOf({}, env)).toMatchObject({ url: 'http://e:3', apiKey: 'k-env' });
  });

  it('reads the named profile of a file only its owner may read', () => {
    const file = profileFile(0o600);
    expect(connectionOf({ profile: 'ci' }, { JOBDECK_PROFILE_FILE: file })).toMatchObject({
      url: 'http://b:2',
      apiKey: 'k-ci',
    });
    expect(connectionOf({}, { JOBDECK_PROFILE_FILE: file })).toMatchObject({ apiKey: 'k-default' });
  });

  it('refuses a profile file others may read, and says how to fix it', () => {
    const file = profileFile(0o644);
    expect(() => connectionOf({}, { JOBDECK_PROFILE_FILE: file })).toThrow(
      `profile file ${file} may be read by others (mode 644): chmod 600 ${file}`,
    );
  });

  it('says what is missing', () => {
    expect(() => connectionOf({}, { JOBDECK_PROFILE_FILE: '/nonexistent' })).toThrow(
      /^no service address: set JOBDECK_URL/,
    );
    expect(() =>
      connectionOf({}, { JOBDECK_URL: 'http://x:1', JOBDECK_PROFILE_FILE: '/nonexistent' }),
    ).toThrow(/^no API key: set JOBDECK_API_KEY/);
    expect(() =>
      connectionOf({ profile: 'nope' }, { JOBDECK_PROFILE_FILE: profileFile(0o600) }),
    ).toThrow(/^--profile: no profile "nope"/);
  });
});
