import type { IndexedAttributes } from '../../../domain/attribute-index';
import type { AttributeType } from '../../../domain/read-rules/attribute-filters';
import { logIndexRows, type LeafRow, type LogToIndex } from '../../rows/log-index-rows';
import { byKey } from '../../postgres/key-order';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { asStoredText } from '../../postgres/pg-text';
import { sql } from '../../rows/sql';

// Keyed as stored: a path sent with a lone surrogate reads back with U+FFFD in its place.
const pathKey = (path: string, type: AttributeType) => `${type}\u0000${asStoredText(path)}`;

/**
 * `log_attributes.key` as its two PostgreSQL columns: a number (booleans are 1 or 0) goes to
 * `key_num`, a folded string to `key_text`; the other is null.
 */
export const keyColumns = (key: LeafRow['key']): { num: number | null; text: string | null } =>
  typeof key === 'number' ? { num: key, text: null } : { num: null, text: key };

/**
 * The write side of the log attribute index on PostgreSQL. Project numbers and path ids are
 * created by `ensureIds` before the ingest transaction, each in a statement of its own that
 * commits at once (`ON CONFLICT DO NOTHING`, so instances creating the same path agree on
 * its id); ids are cached per store since a row of `project_numbers` or `attribute_paths`
 * never changes. `write` runs inside the ingest transaction.
 */
export function pgLogAttributeWrites(db: PgDb) {
  const projectNumbers = new Map<string, number>();
  const pathIds = new Map<string, number>();

  return {
    /** Creates (or finds) the number of the project and the ids of the logs' paths. */
    async ensureIds(projectId: string, logs: readonly IndexedAttributes[]): Promise<number> {
      let n = projectNumbers.get(projectId);
      if (n === undefined) {
        await db.run(
          sql`INSERT INTO project_numbers (project_id) VALUES (${projectId}) ON CONFLICT (project_id) DO NOTHING`,
        );
        const row = await db.one<{ n: number }>(
          sql`SELECT n FROM project_numbers WHERE project_id = ${projectId}`,
        );
        if (!row) throw new Error('project number missing after insert');
        n = row.n;
        projectNumbers.set(projectId, n);
      }
      const missing = new Map<string, { path: string; type: AttributeType }>();
      for (const l of logs)
        for (const leaf of l.leaves) {
          const k = pathKey(leaf.path, leaf.type);
          if (!pathIds.has(k)) missing.set(k, { path: leaf.path, type: leaf.type });
        }
      if (missing.size > 0) {
        const list = [...missing.values()].sort(byKey((p) => [p.path, p.type]));
        const paths = list.map((p) => p.path);
        const types = list.map((p) => p.type);
        await db.run(sql`INSERT INTO attribute_paths (path, type)
           SELECT * FROM unnest(${paths}::text[], ${types}::text[]) ON CONFLICT (path,
           type) DO NOTHING`);
        const rows = await db.rows<{
          id: number;
          path: string;
          type: AttributeType;
        }>(sql`SELECT a.id, a.path, a.type FROM attribute_paths a
           JOIN unnest(${paths}::text[], ${types}::text[]) AS u(path, type)
             ON a.path = u.path AND a.type = u.type`);
        for (const r of rows) pathIds.set(pathKey(r.path, r.type), r.id);
      }
      return n;
    },

    /**
     * Writes the leaves and rollups of stored logs in three statements; call inside the
     * transaction that stored them, after `ensureIds` for the same logs.
     */
    async write(tx: Sql, projectId: string, logs: readonly LogToIndex[]): Promise<void> {
      const n = projectNumbers.get(projectId);
      if (n === undefined) throw new Error('ensureIds must run before write');
      const rows = logIndexRows(logs, (path, type) => pathIds.get(pathKey(path, type)));
      if (rows.leaves.length > 0) {
        const keys = rows.leaves.map((l) => keyColumns(l.key));
        await tx.run(sql`INSERT INTO log_attributes (path_id, project_n, occurred_at, log_seq, key_num, key_text, raw)
           SELECT u.path_id, ${n}, u.occurred_at, u.log_seq, u.key_num, u.key_text, u.raw
           FROM unnest(${rows.leaves.map((l) => l.pathId)}::bigint[],
           ${rows.leaves.map((l) => l.occurredAt)}::bigint[],
           ${rows.leaves.map((l) => l.seq)}::bigint[], ${keys.map((k) => k.num)}::float8[],
           ${keys.map((k) => k.text)}::text[], ${rows.leaves.map((l) => l.raw)}::text[])
             AS u(path_id, occurred_at, log_seq, key_num, key_text, raw)
           ON CONFLICT DO NOTHING`);
      }
      const hours = rows.pathHours.sort(byKey((h) => [h.hour, h.severity, h.pathId]));
      if (hours.length > 0)
        await tx.run(sql`INSERT INTO log_attribute_hours (project_n, hour, severity, path_id, observed, last_seen_at)
           SELECT ${n}, * FROM unnest(${hours.map((h) => h.hour)}::bigint[],
           ${hours.map((h) => h.severity)}::text[], ${hours.map((h) => h.pathId)}::bigint[],
           ${hours.map((h) => h.observed)}::bigint[], ${hours.map((h) => h.last)}::bigint[])
           ON CONFLICT (project_n, hour, severity, path_id) DO UPDATE SET
             observed = log_attribute_hours.observed + excluded.observed,
             last_seen_at = GREATEST(log_attribute_hours.last_seen_at, excluded.last_seen_at)`);
      const coverage = rows.coverageHours.sort(byKey((c) => [c.hour, c.severity]));
      if (coverage.length > 0)
        await tx.run(sql`INSERT INTO log_index_hours (project_n, hour, severity, indexed, partial, unindexed)
           SELECT ${n}, * FROM unnest(${coverage.map((c) => c.hour)}::bigint[],
           ${coverage.map((c) => c.severity)}::text[], ${coverage.map((c) => c.indexed)}::bigint[],
           ${coverage.map((c) => c.partial)}::bigint[],
           ${coverage.map((c) => c.unindexed)}::bigint[])
           ON CONFLICT (project_n, hour, severity) DO UPDATE SET
             indexed = log_index_hours.indexed + excluded.indexed,
             partial = log_index_hours.partial + excluded.partial,
             unindexed = log_index_hours.unindexed + excluded.unindexed`);
    },
  };
}

export type PgLogAttributeWrites = ReturnType<typeof pgLogAttributeWrites>;
