/**
 * Where to go after signing in: a path of this console only. Anything else (another origin,
 * `//host`, `/\host`) would let a crafted link send a freshly signed-in user to another site.
 */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\'))
    return '/';
  if (value.startsWith('/sign-in')) return '/';
  return value;
}
