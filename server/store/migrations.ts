/**
 * Schema migrations, applied in order inside one transaction each. Never edit a shipped
 * migration: add a new one. `user_version` records how many have run.
 */
export const migrations: readonly string[] = [
  /* 1: accounts, organizations, projects and every credential */ `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name TEXT,
    password_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    revoked_before INTEGER
  );
  CREATE TABLE organizations (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE TABLE memberships (
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
    PRIMARY KEY (organization_id, account_id)
  );
  CREATE INDEX memberships_account ON memberships(account_id);
  CREATE TABLE teams (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (organization_id, slug)
  );
  CREATE TABLE team_members (
    team_id TEXT NOT NULL REFERENCES teams(id),
    account_id TEXT NOT NULL REFERENCES accounts(id),
    PRIMARY KEY (team_id, account_id)
  );
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (organization_id, slug)
  );
  CREATE TABLE ingest_keys (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    key_prefix TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER,
    revoked_at INTEGER
  );
  CREATE INDEX ingest_keys_project ON ingest_keys(project_id);
  -- One row per sign-in: refresh tokens and browser sessions of that sign-in share it.
  CREATE TABLE login_families (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    login_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    family_id TEXT NOT NULL REFERENCES login_families(id),
    issued_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    replaced_at INTEGER
  );
  CREATE INDEX refresh_tokens_family ON refresh_tokens(family_id);
  CREATE TABLE access_tokens (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('session', 'personal')),
    family_id TEXT REFERENCES login_families(id),
    login_at INTEGER NOT NULL,
    issued_at INTEGER NOT NULL,
    expires_at INTEGER
  );
  CREATE TABLE browser_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    family_id TEXT NOT NULL REFERENCES login_families(id),
    login_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER
  );
  CREATE TABLE idempotency_keys (
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (scope, key)
  );
  `,
];
