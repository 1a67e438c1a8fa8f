import type { z } from 'zod';

/** `container_cmd[2]`, `container_env.TOKEN.value`: the path as a user would write it. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else text += text ? `.${String(key)}` : String(key);
  }
  return text;
}

/** One message naming every field at fault, each as `field: reason` once, joined by "; ". */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const clauses = issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map(
        (key) => `${formatPath([...issue.path, key])}: is not a field of this payload`,
      );
    }
    const where = formatPath(issue.path);
    // A bad record key carries its own reason inside; the record's generic message says less.
    const reason =
      issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return [where ? `${where}: ${reason}` : reason];
  });
  // Checks that share a message (an integer from 1 to 10: 1e308 fails two) say it once.
  return [...new Set(clauses)].join('; ');
}

/** Splits a message made by formatIssues (or any `field: reason` text) back into fields. */
export function fieldErrorsOf(message: string): { field: string; reason: string }[] {
  const found: { field: string; reason: string }[] = [];
  for (const part of message.split('; ')) {
    const match = /^([A-Za-z_][\w.[\]-]*): (.+)$/.exec(part);
    if (match?.[1] && match[2]) found.push({ field: match[1], reason: match[2] });
  }
  return found;
}
