import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { highestPerProject } from '../../contract';
import type {
  MemberStore,
  ProjectRole,
  SessionRecord,
  SessionStore,
  UserSource,
  UserStore,
} from '../store/ports';
import { systemClock, type Clock } from './clock';
import { verifyPassword } from './passwords';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
  /** Failed password sign-ins per e-mail address within `failureWindowMs`, then refused. */
  failuresAllowed: number;
  failureWindowMs: number;
}

export interface SignedInUser {
  identity: string;
  subjectIdentity: string | null;
  name: string | null;
  source: UserSource;
  groupRoles: ProjectRole[];
}

export type PasswordSignIn =
  | { ok: true; token: string }
  | { ok: false; reason: 'not-recognised' }
  | { ok: false; reason: 'too-many'; retryAfterS: number };

/**
 * A session's last use is written at most this often, and at least ten times per idle period:
 * a use that is not written ends the session that much early, never more.
 */
const TOUCH_EVERY_MS = 60_000;
const TOUCHES_PER_IDLE = 10;

const sha256 = (text: string) => hash('sha256', text, 'hex');

/**
 * The console's sign-ins and sessions. The browser holds a random 256-bit token; the store only
 * its hash. A session ends when idle too long, at its absolute end, at sign-out, or when its
 * user is removed; a sign-in always starts a new one (no fixation).
 */
export class ConsoleSessions {
  private readonly touchEveryMs: number;

  constructor(
    private readonly users: UserStore,
    private readonly members: MemberStore,
    private readonly sessions: SessionStore,
    private readonly settings: SessionSettings,
    private readonly now: Clock = systemClock,
  ) {
    this.touchEveryMs = Math.min(TOUCH_EVERY_MS, settings.idleMs / TOUCHES_PER_IDLE);
  }

  /**
   * Unknown e-mail and wrong password are one answer after the same work, and the failure limit
   * counts by the e-mail tried whether or not such a user exists: neither tells who has an account.
   */
  async withPassword(email: string, password: string): Promise<PasswordSignIn> {
    const identity = email.trim().toLowerCase();
    const emailHash = sha256(identity);
    const now = this.now();
    const { failuresAllowed, failureWindowMs } = this.settings;
    const user = await this.users.get(identity);
    const matches = await verifyPassword(
      password,
      user?.source === 'local' ? user.passwordHash : null,
    );
    if ((await this.users.failures(emailHash, failureWindowMs, now)) >= failuresAllowed) {
      return { ok: false, reason: 'too-many', retryAfterS: Math.ceil(failureWindowMs / 1000) };
    }
    if (!user || !matches) {
      await this.users.noteFailure(emailHash, failureWindowMs, now);
      return { ok: false, reason: 'not-recognised' };
    }
    await this.users.clearFailures(emailHash);
    return {
      ok: true,
      token: await this.start({ ...user, subjectIdentity: null, groupRoles: [] }),
    };
  }

  /** Starts a session for a user whose identity is proven (a password, a provider's token). */
  async start(user: SignedInUser): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await this.sessions.create(sha256(token), {
      ...user,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: now + this.settings.maxMs,
    });
    await this.users.noteSignIn(user.identity, user.name, user.source, now);
    return token;
  }

  /** The live session of a token, or undefined (unknown, idle too long, past its end). */
  async resolve(token: string): Promise<SessionRecord | undefined> {
    const tokenHash = sha256(token);
    const session = await this.sessions.get(tokenHash);
    const now = this.now();
    if (!session) return undefined;
    if (session.expiresAt <= now || now - session.lastSeenAt >= this.settings.idleMs) {
      await this.sessions.end(tokenHash);
      return undefined;
    }
    if (now - session.lastSeenAt >= this.touchEveryMs) await this.sessions.touch(tokenHash, now);
    return session;
  }

  /** The projects the session's user is a member of, with the role in each. */
  async projectsOf(session: SessionRecord): Promise<ProjectRole[]> {
    const identities = [session.identity, session.subjectIdentity].filter((i) => i !== null);
    const members = await this.members.rolesOf(identities);
    return highestPerProject([...members, ...session.groupRoles]);
  }

  async signOut(token: string, everywhere: boolean): Promise<void> {
    const session = await this.sessions.get(sha256(token));
    if (everywhere && session) await this.sessions.endAllOf(session.identity);
    else await this.sessions.end(sha256(token));
  }

  prune(): Promise<void> {
    return this.sessions.prune(this.now(), this.settings.idleMs);
  }
}

/**
 * The CSRF token of a session: derived from its token, so it needs no storage, and readable
 * only by the console's own page (it is in the session's JSON answer, never in a cookie).
 */
export const csrfTokenOf = (token: string) =>
  createHmac('sha256', token).update('jobdeck csrf').digest('base64url');

export function csrfMatches(token: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenOf(token));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
