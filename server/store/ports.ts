import type { JobState, Role } from '../../contract';
import type { StoredEnvVar } from '../jobs/model';
import type {
  AuditStore,
  BulkActionStore,
  InstanceRegistry,
  JobStore,
  LeaseStore,
  QueueControlStore,
  RetentionStore,
  TrendStore,
  IncidentStore,
  ScheduleStore,
  Signals,
  WebhookStore,
} from '../jobs/ports';

export interface ApiKeyInfo {
  id: string;
  project: string;
  label: string | null;
  role: Role;
  createdAt: number;
  createdBy: string | null;
  revokedAt: number | null;
  expiresAt: number | null;
  /** Within a minute: the time is written at most once a minute per key. */
  lastUsedAt: number | null;
}

export interface NewApiKey {
  label: string | null;
  role: Role;
  expiresAt: number | null;
  /** The actor who created it; null from the command line. */
  createdBy: string | null;
}

export interface Principal {
  /** What rate limits and stream bounds count by: the key's id, or the signed-in user's session. */
  keyId: string;
  project: string;
  role: Role;
  /** Who acts, as the audit trail and a job's page name them: `key:<id>` or `user:<identity>`. */
  actor: string;
}

/** API keys: shown once at creation, stored only as a hash. */
export interface KeyStore {
  create(project: string, key: NewApiKey): Promise<{ id: string; key: string }>;
  /**
   * Creates it unless the project already has `activeAtMost` active keys (undefined then): the
   * count and the insert are one step, however many creates run at once on any instance.
   */
  createWithin(
    project: string,
    key: NewApiKey,
    activeAtMost: number,
  ): Promise<{ id: string; key: string } | undefined>;
  /** Every project's keys, or one's. */
  list(project?: string): Promise<ApiKeyInfo[]>;
  /** Returns false when no such key exists (revoking twice is fine). */
  revoke(id: string, project?: string): Promise<boolean>;
  /** The key's principal, unless it is unknown, revoked or expired at `now`. */
  authenticate(key: string): Promise<Principal | undefined>;
}

export type UserSource = 'local' | 'oidc';

export interface UserRecord {
  /** A lowercased e-mail address, or sub:<subject>. */
  identity: string;
  name: string | null;
  source: UserSource;
  passwordHash: string | null;
  createdAt: number;
  lastSignInAt: number | null;
}

/** Local users (with a password hash) and those an identity provider signed in, and failed tries. */
export interface UserStore {
  /** Adds a local user, or replaces its name and password: 'created' or 'updated'. */
  putLocal(
    identity: string,
    name: string | null,
    passwordHash: string,
  ): Promise<'created' | 'updated'>;
  get(identity: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  /** Removes the user and ends its sessions; false when there was none. */
  remove(identity: string): Promise<boolean>;
  countLocal(): Promise<number>;
  /** Records a sign-in, adding a provider's user the first time it is seen. */
  noteSignIn(identity: string, name: string | null, source: UserSource, at: number): Promise<void>;
  /** Failed sign-ins for this e-mail's hash in the window that holds `now`. */
  failures(emailHash: string, windowMs: number, now: number): Promise<number>;
  noteFailure(emailHash: string, windowMs: number, now: number): Promise<void>;
  clearFailures(emailHash: string): Promise<void>;
}

export interface ProjectRole {
  project: string;
  role: Role;
}

export interface MemberRecord {
  project: string;
  identity: string;
  role: Role;
  addedBy: string | null;
  addedAt: number;
  /** The latest sign-in of the user with this identity. */
  lastSignInAt: number | null;
}

/** 'last-admin': refused, the project would be left with no admin member. */
export type MemberChange = 'added' | 'changed' | 'removed' | 'absent' | 'last-admin';

export interface MemberStore {
  list(project: string): Promise<MemberRecord[]>;
  put(project: string, identity: string, role: Role, addedBy: string | null): Promise<MemberChange>;
  remove(project: string, identity: string): Promise<MemberChange>;
  /** The projects any of these identities belongs to, each with the highest role among them. */
  rolesOf(identities: readonly string[]): Promise<ProjectRole[]>;
}

export interface SessionRecord {
  identity: string;
  /** sub:<subject> of a provider's user signed in by e-mail: a member may be named by either. */
  subjectIdentity: string | null;
  name: string | null;
  source: UserSource;
  /** Roles the provider's groups gave at sign-in, beside the projects' members. */
  groupRoles: ProjectRole[];
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export interface PendingOidcSignIn {
  nonce: string;
  codeVerifier: string;
  returnTo: string;
  expiresAt: number;
}

/** Console sessions, by the hash of their token, and OpenID Connect sign-ins under way. */
export interface SessionStore {
  create(tokenHash: string, session: SessionRecord): Promise<void>;
  get(tokenHash: string): Promise<SessionRecord | undefined>;
  touch(tokenHash: string, at: number): Promise<void>;
  end(tokenHash: string): Promise<void>;
  /** Ends every session of this identity (sign out everywhere, a removed user): how many. */
  endAllOf(identity: string): Promise<number>;
  /** Deletes sessions and pending sign-ins past their time. */
  prune(now: number, idleMs: number): Promise<void>;
  putPendingOidc(stateHash: string, pending: PendingOidcSignIn): Promise<void>;
  /** The pending sign-in of this state, deleted as it is read: a state serves once. */
  takePendingOidc(stateHash: string, now: number): Promise<PendingOidcSignIn | undefined>;
}

/** Facts about the store itself rather than about jobs or keys. */
export interface MetaStore {
  /**
   * A random id for this store, created on first use and put on every container it creates:
   * several Jobdeck stores (tests, staging) can share one engine without adopting each other's.
   */
  storeId(): Promise<string>;
  /**
   * A random 32-byte key for this store, created on first use and shared by every instance: it
   * makes event ids and list cursors opaque, so a project cannot read others' activity from them.
   */
  positionKey(): Promise<Buffer>;
  /**
   * Definition versions are immutable once used: of `current` (ref → fingerprint), the refs
   * whose content changed since a job first used them.
   */
  changedDefinitions(current: ReadonlyMap<string, string>): Promise<string[]>;
}

/** A view of the jobs table as a project shares it. */
export interface SavedViewRecord {
  name: string;
  search: string;
  createdBy: string;
  savedAt: number;
}

/** The jobs table's views each project shares, by name. */
export interface ViewStore {
  list(project: string): Promise<SavedViewRecord[]>;
  /**
   * Saves (or replaces) the view; a new one beyond `atMost` of the project is not stored:
   * `saved: false`.
   */
  save(project: string, view: SavedViewRecord, atMost: number): Promise<{ saved: boolean }>;
  /** Returns false when the project has no view of that name. */
  remove(project: string, name: string): Promise<boolean>;
}

/** Sealed env values as stored, for `jobdeck secrets rotate` (re-sealing with the current key). */
export interface SealedEnvStore {
  /** A page of jobs holding sealed values, in insert order after `afterSeq`. */
  jobsWithSealedEnv(
    afterSeq: number,
    limit: number,
  ): Promise<{ seq: number; id: string; envJson: string; env: StoredEnvVar[] }[]>;
  /** Replaces a job's env, only if it is still the text read (env is written once, at insert). */
  replaceEnv(id: string, readJson: string, env: StoredEnvVar[]): Promise<boolean>;
  /** The env of every unfinished job holding sealed values: what start-up checks it can open. */
  unfinishedSealedEnv(): Promise<{ id: string; env: StoredEnvVar[] }[]>;
}

/** What the metrics report about jobs, read at each scrape. */
export interface JobCounts {
  /** How many jobs are in each of `states`, per queue (states with none are left out). */
  countByStateAndQueue(
    states: readonly JobState[],
  ): Promise<{ state: JobState; queue: string; count: number }[]>;
}

/** Where a store's upkeep says what it changed (the service's logger). */
export interface UpkeepLog {
  info(message: string): void;
  warn(message: string): void;
}

/** One open store: what the service and the CLI use, whichever database is under it. */
export interface Store {
  jobs: JobStore;
  schedules: ScheduleStore;
  queues: QueueControlStore;
  views: ViewStore;
  bulkActions: BulkActionStore;
  webhooks: WebhookStore;
  keys: KeyStore;
  users: UserStore;
  members: MemberStore;
  sessions: SessionStore;
  meta: MetaStore;
  instances: InstanceRegistry;
  leases: LeaseStore;
  signals: Signals;
  sealedEnv: SealedEnvStore;
  counts: JobCounts;
  retention: RetentionStore;
  trends: TrendStore;
  incidents: IncidentStore;
  audit: AuditStore;
  /** Resolves when the database answers a trivial query (readiness). */
  ping(): Promise<void>;
  /** The migrations this open applied, oldest first (empty when the schema was up to date). */
  migrated: string[];
  /**
   * Starts what keeps the store fast while a service runs on it, until close(); `log` hears what
   * it changes. Commands that open the store for a moment do without.
   */
  startUpkeep?(log: UpkeepLog): void;
  /**
   * Rewrites the whole file so that retention can give space back while a service runs
   * (SQLite; absent where the database manages its files): the bytes before and after.
   */
  vacuum?(): Promise<{ beforeBytes: number; afterBytes: number }>;
  close(): Promise<void>;
}
