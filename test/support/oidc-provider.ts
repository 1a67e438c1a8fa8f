import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';

const SERVER = resolve(import.meta.dirname, 'oidc-provider-server.ts');

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: an http issuer on loopback (allowInsecureIssuer). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * Starts a real OpenID Provider (oidc-provider-server.ts) as a child process with one
 * confidential client, and waits until it listens. Call `stop()` in an afterAll/finally; should
 * the test process end without it, the provider sees its stdin close and exits on its own.
 */
export async function startOidcProvider(options: {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
}): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'jobdeck-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...process.env,
      OIDC_PROVIDER_CLIENT: JSON.stringify({
        clientId,
        clientSecret,
        redirectUris: options.redirectUris,
      }),
    },
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stderr.write(chunk);
  });
  try {
    const issuer = await new Promise<string>((ready, fail) => {
      // Loaded through tsx: beside CI's other suites on two cores that took past 20 s once.
      const timer = setTimeout(
        () => fail(new Error(`OpenID Provider did not start:\n${output}`)),
        60_000,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = /^\{.*\}$/m.exec(output)?.[0];
        if (!line) return;
        clearTimeout(timer);
        ready((JSON.parse(line) as { issuer: string }).issuer);
      });
      void exited.then(() => {
        clearTimeout(timer);
        fail(new Error(`OpenID Provider exited with ${child.exitCode}:\n${output}`));
      });
    });
    return { issuer, clientId, clientSecret, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
