import type {
  AccessTokenRow,
  AccountRow,
  BrowserSessionRow,
  IdempotencyRecord,
  IngestKeyRow,
  LoginFamilyRow,
  MembershipRow,
  OrganizationRow,
  OrgRole,
  ProjectRow,
  ReadableProject,
  RefreshTokenRow,
  TeamRow,
} from './records';

/**
 * Everything the service asks of storage. Methods are async so that a PostgreSQL adapter
 * can implement the same interface; the SQLite one answers synchronously inside.
 * All SQL lives behind this interface (server/store/).
 */
export interface Store {
  accounts: AccountsStore;
  credentials: CredentialsStore;
  projects: ProjectsStore;
  idempotency: IdempotencyStore;
  close(): void;
}

export interface AccountsStore {
  create(row: AccountRow): Promise<void>;
  byId(id: string): Promise<AccountRow | null>;
  byEmail(email: string): Promise<AccountRow | null>;
  setRevokedBefore(accountId: string, at: number): Promise<void>;
  createOrganization(row: OrganizationRow): Promise<void>;
  addMember(row: MembershipRow): Promise<void>;
  membershipsOf(accountId: string): Promise<(MembershipRow & { organizationName: string })[]>;
  createTeam(row: TeamRow, memberIds: string[]): Promise<void>;
  count(): Promise<number>;
}

export interface CredentialsStore {
  createFamily(row: LoginFamilyRow): Promise<void>;
  family(id: string): Promise<LoginFamilyRow | null>;
  revokeFamily(id: string, at: number): Promise<void>;
  insertRefreshToken(row: RefreshTokenRow): Promise<void>;
  refreshToken(tokenHash: string): Promise<RefreshTokenRow | null>;
  /** Marks the token replaced; false when it was already replaced (a reuse). */
  markRefreshTokenReplaced(tokenHash: string, at: number): Promise<boolean>;
  insertAccessToken(row: AccessTokenRow): Promise<void>;
  accessToken(tokenHash: string): Promise<AccessTokenRow | null>;
  insertBrowserSession(row: BrowserSessionRow): Promise<void>;
  browserSession(tokenHash: string): Promise<BrowserSessionRow | null>;
  revokeBrowserSession(tokenHash: string, at: number): Promise<void>;
  /** Whether a token hash belongs to an ingest key (to refuse it clearly on account routes). */
  isIngestKeyHash(tokenHash: string): Promise<boolean>;
}

export interface ProjectsStore {
  create(row: ProjectRow): Promise<void>;
  readableBy(accountId: string): Promise<ReadableProject[]>;
  readable(accountId: string, projectId: string): Promise<ReadableProject | null>;
  slugTaken(organizationId: string, slug: string): Promise<boolean>;
  createIngestKey(row: IngestKeyRow & { keyHash: string }): Promise<void>;
  ingestKeyByHash(keyHash: string): Promise<IngestKeyRow | null>;
}

export interface IdempotencyStore {
  /** The record stored for the key after `notBefore` (epoch ms); older ones are forgotten. */
  get(scope: string, key: string, notBefore: number): Promise<IdempotencyRecord | null>;
  put(scope: string, key: string, record: IdempotencyRecord, at: number): Promise<void>;
}

export type { OrgRole };
