import type { Generated } from 'kysely';

/** The tables of who may act: API keys, users, members, console sessions and sign-ins. */
export interface ApiKeysTable {
  id: string;
  project: string;
  /** SHA-256 of the key: keys are 256 random bits, so a slow hash buys nothing. */
  key_hash: string;
  label: string | null;
  /** viewer, operator or admin (contract/roles.ts); keys older than roles are admin. */
  role: Generated<string>;
  created_at: number;
  created_by: string | null;
  revoked_at: number | null;
  expires_at: number | null;
  last_used_at: number | null;
}

export interface UsersTable {
  /** A lowercased e-mail address, or sub:<subject> (contract/members.ts). */
  identity: string;
  name: string | null;
  /** local (a password) or oidc (an identity provider's). */
  source: string;
  /** scrypt, with its parameters and salt (server/auth/passwords.ts); null for oidc users. */
  password_hash: string | null;
  created_at: number;
  last_sign_in_at: number | null;
}

export interface MembersTable {
  project: string;
  identity: string;
  role: string;
  added_by: string | null;
  added_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: the table alone signs nobody in. */
  token_hash: string;
  identity: string;
  /** sub:<subject> of an identity provider's user signed in by e-mail: members may name either. */
  subject_identity: string | null;
  name: string | null;
  source: string;
  /** The roles the provider's groups gave at sign-in (auth.oidc.group_roles): [{project, role}]. */
  group_roles_json: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface SignInFailuresTable {
  /** SHA-256 of the lowercased e-mail tried, known user or not. */
  email_hash: string;
  failures: number;
  window_start: number;
}

export interface OidcSignInsTable {
  state_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires_at: number;
}
