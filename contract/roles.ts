import { z } from 'zod';

/**
 * What a key or a member may do in its project, each role including the one before: a viewer
 * reads jobs, logs and queues; an operator also submits and cancels; an admin also changes
 * queues and schedules, webhooks, keys and members.
 */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES, { error: `must be one of ${ROLES.join(', ')}` }).meta({
  description:
    'viewer: reads; operator: also submits and cancels; admin: also queues, schedules, webhooks, keys and members',
});

export function roleAllows(held: Role, needed: Role): boolean {
  return ROLES.indexOf(held) >= ROLES.indexOf(needed);
}

/** Each project once, with the highest role any entry gives it, by project name. */
export function highestPerProject<T extends { project: string; role: Role }>(
  entries: readonly T[],
): { project: string; role: Role }[] {
  const best = new Map<string, Role>();
  for (const { project, role } of entries) {
    const held = best.get(project);
    if (!held || roleAllows(role, held)) best.set(project, role);
  }
  return [...best]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([project, role]) => ({ project, role }));
}
