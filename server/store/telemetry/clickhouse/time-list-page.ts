import type { TimeListQuery } from '../../../core/store/telemetry/time-list-query';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import { and, raw, sql, type SqlFragment } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/**
 * A newest-first page of a time-ordered table (`occurred_at`, then `id` descending) for a
 * `TimeListQuery`, as every store answers its lists: each project read on its own and the
 * pages merged (one read over several projects would sort every row in range). `columns`
 * must select `occurred_ms` (the row's time in epoch ms) and `id`.
 */
export async function timeListPage<R extends { occurred_ms: number; id: string }>(
  db: ChDb,
  table: string,
  columns: SqlFragment,
  q: TimeListQuery,
  /** Exact filters of the table's own beyond the query's (column, value or null: any). */
  exact: [string, string | null][] = [],
): Promise<R[]> {
  if (q.projectIds.length === 0) return [];
  const pageOf = (projectId: string) => {
    const where: SqlFragment[] = [sql`project_id = ${projectId}`];
    if (q.since !== null) where.push(sql`occurred_at >= ${time(q.since)}`);
    if (q.after !== null)
      // The plain bound lets the primary key range stop; the pair decides ties by id.
      where.push(
        sql`occurred_at <= ${time(q.after.time)}`,
        sql`(occurred_at < ${time(q.after.time)} OR id < ${q.after.id})`,
      );
    const filters: [string, string | null][] = [
      ['name', q.name],
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
      ...exact,
    ];
    for (const [column, value] of filters)
      if (value !== null) where.push(sql`${raw(column)} = ${value}`);
    return db.rows<R>(
      sql`SELECT ${columns} FROM ${raw(table)} WHERE ${and(where)}
        ORDER BY occurred_at DESC, id DESC LIMIT ${q.limit}`,
    );
  };
  const pages = await Promise.all(q.projectIds.map(pageOf));
  const heads = pages.map((page) => page.map((r) => ({ occurred_at: r.occurred_ms, id: r.id, r })));
  return mergeNewestFirstPages(heads, q.limit).map((h) => h.r);
}
