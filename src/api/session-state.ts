import { useSyncExternalStore } from 'react';
import type { Session } from '../../contract';

/**
 * What a signed-in tab sends with its requests: the project it works in and the session's CSRF
 * token. The token stays in memory (never in any browser storage); the chosen project is not
 * secret and is remembered for the next visit, but each tab keeps its own once loaded: another
 * tab's switch must not send this tab's requests, and its cached data, to another project.
 */
const PROJECT_KEY = 'jobdeck.project';

let signedIn: { csrf: string | null; projects: string[] } | null = null;
let chosen = localStorage.getItem(PROJECT_KEY);
const listeners = new Set<() => void>();

/** Kept from each session read: null when nobody is signed in (local mode, or signed out). */
export function rememberSession(session: Session | null): void {
  signedIn = session?.user
    ? { csrf: session.csrf_token, projects: session.projects.map((p) => p.project) }
    : null;
}

/** The chosen project when the user is still a member of it, else their first one. */
export function activeProject(projects: readonly string[]): string | null {
  return chosen !== null && projects.includes(chosen) ? chosen : (projects[0] ?? null);
}

/** The project and CSRF token to send, or null without a signed-in session. */
export function sessionCredentials(): { project: string | null; csrf: string | null } | null {
  return signedIn && { project: activeProject(signedIn.projects), csrf: signedIn.csrf };
}

export function chooseProject(project: string): void {
  chosen = project;
  localStorage.setItem(PROJECT_KEY, project);
  listeners.forEach((listener) => listener());
}

/** Called after a switch of project (the event stream starts over with it). */
export function onProjectChosen(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useChosenProject = () => useSyncExternalStore(onProjectChosen, () => chosen);
