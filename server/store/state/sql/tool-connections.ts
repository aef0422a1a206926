import type { ToolConnectionsStore } from '../../../core/store/state/tool-connections';
import { join, sql, type SqlRunner } from '../../rows/sql';

type Row = {
  id: string;
  account_id: string;
  name: string;
  token_prefix: string;
  project_ids: string;
  created_at: number | string;
  expires_at: number | string | null;
  revoked_at: number | string | null;
  last_used_at: number | string | null;
};

const COLUMNS = sql`id, account_id, name, token_prefix, project_ids, created_at, expires_at,
  revoked_at, last_used_at`;

// PostgreSQL hands BIGINT back as text.
const num = (v: number | string) => Number(v);
const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));

const toRow = (r: Row) => ({
  id: r.id,
  accountId: r.account_id,
  name: r.name,
  tokenPrefix: r.token_prefix,
  projectIds: JSON.parse(r.project_ids) as string[],
  createdAt: num(r.created_at),
  expiresAt: numOrNull(r.expires_at),
  revokedAt: numOrNull(r.revoked_at),
  lastUsedAt: numOrNull(r.last_used_at),
});

/** Tool connections and their daily use counts: the same SQL on both engines. */
export function sqlToolConnections(db: SqlRunner): ToolConnectionsStore {
  return {
    async insert(t) {
      await db.run(sql`INSERT INTO tool_connections (id, account_id, name, token_hash,
          token_prefix, project_ids, created_at, expires_at, revoked_at, last_used_at)
        VALUES (${t.id}, ${t.accountId}, ${t.name}, ${t.tokenHash}, ${t.tokenPrefix},
          ${JSON.stringify(t.projectIds)}, ${t.createdAt}, ${t.expiresAt}, ${t.revokedAt},
          ${t.lastUsedAt})`);
    },
    async byTokenHash(hash) {
      const r = await db.one<Row>(
        sql`SELECT ${COLUMNS} FROM tool_connections WHERE token_hash = ${hash}`,
      );
      return r ? toRow(r) : null;
    },
    async ofAccount(accountId) {
      const rows = await db.rows<Row>(sql`SELECT ${COLUMNS} FROM tool_connections
        WHERE account_id = ${accountId} ORDER BY created_at DESC, id`);
      return rows.map(toRow);
    },
    async onProjects(projectIds) {
      if (projectIds.length === 0) return [];
      // project_ids is a JSON array of UUIDs: a quoted id matches that element only.
      const covers = join(
        projectIds.map((id) => sql`project_ids LIKE ${`%"${id}"%`}`),
        ' OR ',
      );
      const rows = await db.rows<Row>(sql`SELECT ${COLUMNS} FROM tool_connections
        WHERE ${covers} ORDER BY created_at DESC, id`);
      return rows.map(toRow);
    },
    async byId(id) {
      const r = await db.one<Row>(sql`SELECT ${COLUMNS} FROM tool_connections WHERE id = ${id}`);
      return r ? toRow(r) : null;
    },
    async revoke(id, at) {
      const n = await db.run(sql`UPDATE tool_connections
        SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`);
      return n === 1;
    },
    async recordUses(uses) {
      for (const u of uses) {
        await db.run(sql`INSERT INTO tool_connection_days (connection_id, day, uses)
          VALUES (${u.id}, ${u.day}, ${u.uses})
          ON CONFLICT (connection_id, day) DO UPDATE
            SET uses = tool_connection_days.uses + ${u.uses}`);
        await db.run(sql`UPDATE tool_connections SET last_used_at = ${u.lastUsedAt}
          WHERE id = ${u.id} AND (last_used_at IS NULL OR last_used_at < ${u.lastUsedAt})`);
      }
    },
    async usesByDay(ids, fromDay) {
      if (ids.length === 0) return [];
      const list = join(
        ids.map((id) => sql`${id}`),
        ', ',
      );
      const rows = await db.rows<{
        connection_id: string;
        day: number | string;
        uses: number | string;
      }>(
        sql`SELECT connection_id, day, uses FROM tool_connection_days
          WHERE connection_id IN (${list}) AND day >= ${fromDay} ORDER BY day`,
      );
      return rows.map((r) => ({ id: r.connection_id, day: num(r.day), uses: num(r.uses) }));
    },
  };
}
