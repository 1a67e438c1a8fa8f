/**
 * Signs in at the test OpenID Provider (oidc-provider-server.ts) the way a browser would, with
 * plain fetch: follows its redirects by hand keeping its cookies, fills in and submits its real
 * login form, submits its consent form, and stops at the redirect back to the relying party.
 */

export interface ProviderSignIn {
  /** What to type into the login page's `login` field, e.g. alice@example.test. */
  login: string;
  /** The relying party's redirect URI: the walk ends at the first redirect there. */
  redirectUri: string;
  /** Follow the page's Cancel link instead of signing in (the provider answers access_denied). */
  cancel?: boolean;
}

/** A cookie jar of one host: enough for the provider's cookies, which are scoped by path. */
class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
      const path = attribute('path') ?? '/';
      const expires = attribute('expires');
      const gone =
        attribute('max-age') === '0' ||
        (expires !== undefined && Date.parse(expires) <= Date.now());
      if (gone) this.cookies.delete(`${name} ${path}`);
      else this.cookies.set(`${name} ${path}`, { name, value: pair.slice(at + 1), path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter(
        ({ path }) => url.pathname === path || url.pathname.startsWith(path.replace(/\/?$/, '/')),
      )
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const decode = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ENTITIES[entity]!);
const attributeOf = (tag: string, name: string) =>
  decode(new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? '');

/** The page's form as a request: its action and its fields, `login` and `password` filled in. */
function formRequest(html: string, page: URL, login: string): { url: URL; body: URLSearchParams } {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`the provider's page at ${page.pathname} has no form:\n${html}`);
  const body = new URLSearchParams();
  for (const [input] of form[1]!.matchAll(/<input\b[^>]*>/g)) {
    const name = attributeOf(input, 'name');
    if (name === 'login') body.set(name, login);
    else if (name === 'password') body.set(name, 'any password: the test provider checks none');
    else if (name) body.set(name, attributeOf(input, 'value'));
  }
  return { url: new URL(attributeOf(form[0], 'action'), page), body };
}

/**
 * From the authorization URL to the relying party's callback URL (with `code` and `state`, or
 * `error`), as the provider redirects there. Throws if it gets anywhere else.
 */
export async function signInAtProvider(
  authorizationUrl: string,
  sign: ProviderSignIn,
): Promise<URL> {
  const jar = new CookieJar();
  const callback = new URL(sign.redirectUri);
  let request: { url: URL; body?: URLSearchParams } = { url: new URL(authorizationUrl) };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(request.url, {
      method: request.body ? 'POST' : 'GET',
      body: request.body,
      headers: { cookie: jar.header(request.url) },
      redirect: 'manual',
    });
    jar.store(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, request.url);
      if (next.origin === callback.origin && next.pathname === callback.pathname) return next;
      request = { url: next };
      continue;
    }
    const html = await response.text();
    if (response.status !== 200) {
      throw new Error(
        `the provider answered ${response.status} at ${request.url.pathname}:\n${html}`,
      );
    }
    const cancel = /<a href="([^"]*\/abort)"/.exec(html)?.[1];
    request =
      sign.cancel && cancel
        ? { url: new URL(decode(cancel), request.url) }
        : formRequest(html, request.url, sign.login);
  }
  throw new Error('the provider did not redirect to the relying party within 20 steps');
}
