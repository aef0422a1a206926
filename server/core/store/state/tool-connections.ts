/**
 * Tool connections: the spec's delegated credential. Read-only bearers an account creates for
 * some of its projects; only the token's hash is kept.
 */
export interface ToolConnectionsStore {
  insert(row: ToolConnectionRow & { tokenHash: string }): Promise<void>;
  byTokenHash(tokenHash: string): Promise<ToolConnectionRow | null>;
  /** The account's connections, newest first, revoked ones included. */
  ofAccount(accountId: string): Promise<ToolConnectionRow[]>;
  /** Connections of any account that cover at least one of these projects. */
  onProjects(projectIds: readonly string[]): Promise<ToolConnectionRow[]>;
  byId(id: string): Promise<ToolConnectionRow | null>;
  /** Sets `revoked_at` once; false when there is no such connection. */
  revoke(id: string, at: number): Promise<boolean>;
  /** Adds coalesced uses: per UTC day (epoch day number), and the latest use. */
  recordUses(uses: readonly ToolConnectionUses[]): Promise<void>;
  /** Uses per UTC day from `fromDay` on, of these connections. */
  usesByDay(ids: readonly string[], fromDay: number): Promise<ToolConnectionDayUses[]>;
}

export type ToolConnectionRow = {
  id: string;
  accountId: string;
  name: string;
  /** The token's first characters, shown in lists so a connection can be recognised. */
  tokenPrefix: string;
  projectIds: string[];
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
  lastUsedAt: number | null;
};

export type ToolConnectionUses = { id: string; day: number; uses: number; lastUsedAt: number };

export type ToolConnectionDayUses = { id: string; day: number; uses: number };
