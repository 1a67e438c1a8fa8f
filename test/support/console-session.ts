import { execFile } from 'node:child_process';
import type { Session } from '../../contract';
import { CLI, type TestService } from './service';

/** `jobdeck users add`, the password piped on stdin as a script would. */
export function addUser(
  service: TestService,
  email: string,
  password: string,
  membership?: { project: string; role: string },
): Promise<void> {
  const project = membership ? ['--project', membership.project, '--role', membership.role] : [];
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [...CLI, 'users', 'add', email, ...project, '--config', service.configFile],
      (error, _stdout, stderr) => (error ? reject(new Error(stderr)) : resolve()),
    );
    child.stdin!.end(`${password}\n`);
  });
}

/** A browser's side of a console session, against the API directly: its cookie and CSRF token. */
export interface SignedIn {
  cookie: string;
  csrf: string;
  session: Session;
  setCookie: string;
}

export async function signIn(
  baseUrl: string,
  email: string,
  password: string,
  cookie?: string,
): Promise<SignedIn | { status: number; message: string; retryAfter: string | null }> {
  const response = await fetch(`${baseUrl}/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data?: Session; message?: string };
  if (response.status !== 200) {
    return {
      status: response.status,
      message: body.message ?? '',
      retryAfter: response.headers.get('retry-after'),
    };
  }
  const setCookie = response.headers.get('set-cookie') ?? '';
  return {
    cookie: setCookie.split(';')[0]!,
    csrf: body.data!.csrf_token!,
    session: body.data!,
    setCookie,
  };
}

/** A request as the signed-in console page makes it. */
export async function asSignedIn(
  baseUrl: string,
  who: Pick<SignedIn, 'cookie' | 'csrf'>,
  method: string,
  path: string,
  options: { body?: unknown; project?: string; csrf?: string | null } = {},
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    cookie: who.cookie,
  };
  const csrf = options.csrf === undefined ? who.csrf : options.csrf;
  if (csrf !== null) headers['x-csrf-token'] = csrf;
  if (options.project) headers['x-jobdeck-project'] = options.project;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json()) as { ok: boolean; message?: string; data?: unknown };
  return { status: response.status, body };
}
