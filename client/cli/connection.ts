import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { JobdeckClientOptions } from '../src';
import { UsageError } from './usage-error';

/** Where profiles are read from unless JOBDECK_PROFILE_FILE says otherwise. */
export const defaultProfileFile = () => join(homedir(), '.config', 'jobdeck', 'profiles.yaml');

interface Profile {
  url?: string;
  api_key?: string;
}

/**
 * A profile file holds keys, so it is read only when no one else may read it (as ssh does with
 * its keys): a key readable by the group or others is refused, not used.
 */
function readProfiles(file: string): Record<string, Profile> {
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return {};
  }
  if ((mode & 0o077) !== 0) {
    throw new UsageError(
      `profile file ${file} may be read by others (mode ${(mode & 0o777).toString(8)}): chmod 600 ${file}`,
    );
  }
  const parsed = parse(readFileSync(file, 'utf8')) as { profiles?: Record<string, Profile> } | null;
  return parsed?.profiles ?? {};
}

export interface ConnectionOptions {
  profile?: string;
}

/**
 * The service and key to use: JOBDECK_URL and JOBDECK_API_KEY first, then the profile (named by
 * --profile or JOBDECK_PROFILE, else `default`) of the profile file. A key is never taken from
 * the command line, where other users of the machine could read it in the process list.
 */
export function connectionOf(
  options: ConnectionOptions,
  env: NodeJS.ProcessEnv = process.env,
): JobdeckClientOptions {
  const file = env.JOBDECK_PROFILE_FILE ?? defaultProfileFile();
  const name = options.profile ?? env.JOBDECK_PROFILE;
  const profiles = env.JOBDECK_URL && env.JOBDECK_API_KEY && !name ? {} : readProfiles(file);
  const profile = profiles[name ?? 'default'];
  if (name && !profile) throw new UsageError(`--profile: no profile "${name}" in ${file}`);
  const url = env.JOBDECK_URL ?? profile?.url;
  const apiKey = env.JOBDECK_API_KEY ?? profile?.api_key;
  if (!url) {
    throw new UsageError(
      `no service address: set JOBDECK_URL (e.g. http://127.0.0.1:8080) or add a profile to ${file}`,
    );
  }
  if (!apiKey) {
    throw new UsageError(`no API key: set JOBDECK_API_KEY or add a profile to ${file}`);
  }
  return { url, apiKey, headers: { 'user-agent': 'jobdeck-cli' } };
}
