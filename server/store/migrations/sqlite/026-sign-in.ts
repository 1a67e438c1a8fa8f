import { sql, type Kysely } from 'kysely';

/**
 * Sign-in for the console: users (local ones with a password hash; those of an identity
 * provider recorded at their first sign-in), each project's members with their role, sessions
 * (only a hash of each token), failed sign-ins per e-mail address, and the OpenID Connect
 * sign-ins under way (a browser leaves for its provider and may come back at another instance).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE users (
    identity text PRIMARY KEY,
    name text,
    source text NOT NULL,
    password_hash text,
    created_at bigint NOT NULL,
    last_sign_in_at bigint
  )`.execute(db);
  await sql`CREATE TABLE members (
    project text NOT NULL,
    identity text NOT NULL,
    role text NOT NULL,
    added_by text,
    added_at bigint NOT NULL,
    PRIMARY KEY (project, identity)
  )`.execute(db);
  await sql`CREATE INDEX members_by_identity ON members (identity)`.execute(db);
  await sql`CREATE TABLE sessions (
    token_hash text PRIMARY KEY,
    identity text NOT NULL,
    subject_identity text,
    name text,
    source text NOT NULL,
    group_roles_json text NOT NULL,
    created_at bigint NOT NULL,
    last_seen_at bigint NOT NULL,
    expires_at bigint NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX sessions_by_identity ON sessions (identity)`.execute(db);
  await sql`CREATE TABLE sign_in_failures (
    email_hash text PRIMARY KEY,
    failures integer NOT NULL,
    window_start bigint NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE oidc_sign_ins (
    state_hash text PRIMARY KEY,
    nonce text NOT NULL,
    code_verifier text NOT NULL,
    return_to text NOT NULL,
    expires_at bigint NOT NULL
  )`.execute(db);
}
