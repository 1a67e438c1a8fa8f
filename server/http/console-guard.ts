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

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Why a request that could change state must not be forwarded, or null when it may. Browsers send
 * Sec-Fetch-Site and Origin with every such request; a page of another site gets refused here
 * instead of cancelling jobs with the operator's key. Clients that send neither (curl, scripts)
 * are not browsers, so no other site can be driving them.
 */
export function crossSiteRefusal(request: {
  method?: string;
  headers: IncomingHttpHeaders;
}): string | null {
  if (SAFE_METHODS.includes(request.method ?? 'GET')) return null;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `Sec-Fetch-Site: a ${site} request cannot change jobs through the console; call the API with your own key`;
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !sameHost(origin, request.headers.host)) {
    return 'Origin: another site cannot change jobs through the console; call the API with your own key';
  }
  return null;
}

function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return new URL(origin).host === host?.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, file:) and garbage are never the console.
  }
}
