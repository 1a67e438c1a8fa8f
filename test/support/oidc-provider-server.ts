/**
 * A real OpenID Provider (oidc-provider, certified) for the tests, run as its own process by
 * oidc-provider.ts: `node --import tsx test/support/oidc-provider-server.ts` with
 * OIDC_PROVIDER_CLIENT={"clientId","clientSecret","redirectUris"} in the environment. It listens
 * on 127.0.0.1 on a port from freePort (free-port.ts) and prints {"issuer": "http://127.0.0.1:<port>"} as one
 * line on stdout when it is ready. Sign-in is its development login page: any login name is an
 * account (see ACCOUNTS), no password is checked.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './free-port';

// The two warnings that a provider made for tests is expected to give (its in-memory store and
// its development login page) would be printed by every run: dropped. Any other warning still
// reaches stderr.
const EXPECTED_WARNINGS = [
  'development-only in-memory adapter',
  'development-only feature devInteractions',
];
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  const text = args.map(String).join(' ');
  if (!EXPECTED_WARNINGS.some((expected) => text.includes(expected))) warn(...args);
};

interface ClientSettings {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}
const client = JSON.parse(process.env.OIDC_PROVIDER_CLIENT ?? '') as ClientSettings;

/**
 * Known accounts; any other login is an account too, its email the login and no groups. Their
 * claims are in the ID token and at userinfo, but carol's ID token holds only `sub`, as OpenID
 * Connect has it for a code flow and many providers do: the rest of hers is at userinfo only.
 */
const ACCOUNTS: Record<string, { name: string; groups: string[]; atUserinfoOnly?: boolean }> = {
  'alice@example.test': { name: 'Alice Example', groups: ['jobdeck-admins'] },
  'bob@example.test': { name: 'Bob Example', groups: ['jobdeck-viewers'] },
  'carol@example.test': {
    name: 'Carol Example',
    groups: ['jobdeck-viewers'],
    atUserinfoOnly: true,
  },
};

// Its own signing key and cookie keys, so that nothing falls back to the package's shared
// development ones (which it also warns about). P-256: made in a millisecond, where RSA takes
// up to a second.
const signingKey = {
  ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
  kid: 'test-signing-key',
  use: 'sig',
  alg: 'ES256',
};

let handler: RequestListener = (_request, response) => response.writeHead(503).end();
const server = createServer((request, response) => handler(request, response));
const port = await freePort();
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
    },
  ],
  pkce: { methods: ['S256'], required: () => true },
  // Each scope and the claims it releases (`groups` is not a standard scope: mapped here).
  claims: {
    openid: ['sub'],
    email: ['email', 'email_verified'],
    profile: ['name'],
    groups: ['groups'],
  },
  // Claims released by the scopes go in the ID token too (oidc-provider's default keeps them to
  // userinfo): findAccount decides, account by account.
  conformIdTokenClaims: false,
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: (use) =>
      use === 'id_token' && ACCOUNTS[id]?.atUserinfoOnly
        ? { sub: id }
        : {
            sub: id,
            email: id,
            email_verified: true,
            name: ACCOUNTS[id]?.name ?? id,
            groups: ACCOUNTS[id]?.groups ?? [],
          },
  }),
  jwks: { keys: [signingKey] },
  cookies: { keys: [randomBytes(32).toString('hex')] },
  features: { devInteractions: { enabled: true } },
});
handler = provider.callback();

// The parent holds our stdin: when it goes, whatever way it ended, so does this provider.
process.stdin.on('close', () => process.exit(0)).resume();
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
