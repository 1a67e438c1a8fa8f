import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Vite writes this into the built index.html (html.cspNonce); each response gets its own. */
export const CSP_NONCE_PLACEHOLDER = 'JOBDECK_CSP_NONCE';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD_HOSTS = ['0.0.0.0', '::', '[::]'];

export const newNonce = () => randomBytes(16).toString('base64');

/**
 * The page policy. Scripts only from the console's own files; Mantine writes `<style>` elements
 * (theme variables, responsive props), which carry the per-response nonce, and sets `style`
 * attributes on nearly every element, which no nonce can cover: that is the one inline allowance,
 * and it admits CSS only, never script.
 */
export function consolePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONSOLE_PAGE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

/**
 * Host names the console answers to: loopback, the configured listen address (unless it is a
 * wildcard) and any the operator lists. A DNS-rebinding page reaches the proxy under its own
 * name, which is none of these, so it never acts with the injected key.
 */
export function allowedHostNames(listenHost: string, extra: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...extra.map((h) => h.toLowerCase())]);
  if (!WILDCARD_HOSTS.includes(listenHost)) names.add(listenHost.toLowerCase());
  return names;
}

/** The host name of a Host header, without the port (IPv6 literals keep their brackets). */
export function hostNameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(hostHeader.trim().toLowerCase());
  return match?.[1] ?? '';
}

/**
 * Why a request to the proxy must not be forwarded, or null when it may. The proxy adds the
 * console's key, so a page of another site must not reach it by any method: a cross-site GET (an
 * image, a no-cors fetch) would spend the key's rate limit or hold an event-stream slot. Browsers
 * mark what they send: Sec-Fetch-Site, else Origin or Referer. Clients that send none of them
 * (curl, scripts) are not browsers, so no other site can be driving them.
 */
export function crossSiteRefusal(request: { headers: IncomingHttpHeaders }): string | null {
  const { headers } = request;
  const site = headers['sec-fetch-site'];
  if (site !== undefined) {
    return site === 'same-origin' || site === 'none'
      ? null
      : `Sec-Fetch-Site: a ${site} request cannot use the console's key; call the API with your own`;
  }
  if (headers.origin !== undefined && !sameHost(headers.origin, headers.host)) {
    return "Origin: another site cannot use the console's key; call the API with your own";
  }
  const referer = headers.referer;
  if (referer !== undefined && !sameHost(referer, headers.host)) {
    return "Referer: another site cannot use the console's key; call the API with your own";
  }
  return null;
}

/**
 * The Authorization the proxy sends on: a Bearer key the user typed in Settings replaces the
 * console's own; anything else (a reverse proxy's Basic credentials, which the browser repeats on
 * every request) is the proxy's business, not the API's, and gives way to the console's key.
 */
export function authorizationFor(
  sent: string | string[] | undefined,
  consoleKey: string | undefined,
): string | undefined {
  if (typeof sent === 'string' && /^Bearer\s/i.test(sent)) return sent;
  return consoleKey === undefined ? undefined : `Bearer ${consoleKey}`;
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host?.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, file:) and garbage are never the console.
  }
}
