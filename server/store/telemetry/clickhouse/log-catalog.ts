import type { AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { AttributeCatalog, AttributeCatalogQuery } from '../../../core/store/telemetry/logs';
import { catalogHours, catalogTally } from '../../rows/attribute-catalog';
import { join, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/**
 * Every indexed leaf of a log as (type, path), for reads of the logs themselves. The maps'
 * `keys` subcolumns: the paths are read without the values (a third of the bytes).
 */
const LEAVES = raw(`arrayConcat(
  arrayMap(k -> ('string', k), attr_string.keys),
  arrayMap(k -> ('number', k), attr_number.keys),
  arrayMap(k -> ('boolean', k), attr_bool.keys))`);

/**
 * A row of the catalog's read: a path's count and last time (`type` a leaf type), or one of
 * the coverage counts (`type` 'coverage', `path` which one).
 */
type CatalogRow = { type: AttributeType | 'coverage'; path: string; n: number; last: number };

/** The three coverage counts of `counts` (one row of `indexed, partial, unindexed`) as rows. */
const coverageRows = (counts: SqlFragment): SqlFragment =>
  sql`SELECT 'coverage' AS type, c.1 AS path, c.2 AS n, toInt64(0) AS last FROM (${counts})
    ARRAY JOIN [('indexed', indexed), ('partial', partial), ('unindexed', unindexed)] AS c`;

/**
 * The catalog over [since, ∞): whole hours from the rollups the materialized views keep
 * (`log_attribute_hours`, `log_coverage_hours`), the first, partial hour from the logs
 * themselves, so the counts are exact to the millisecond without a scan of the range. One
 * statement (each costs the embedded engine a few ms of its own).
 */
export async function readCatalog(db: ChDb, q: AttributeCatalogQuery): Promise<AttributeCatalog> {
  const tally = catalogTally();
  if (q.projectIds.length === 0) return tally.finish(q);
  const { firstWholeHour, partialEnd } = catalogHours(q.since);
  const severity = (column: string): SqlFragment =>
    q.severity === null ? raw('') : sql`AND ${raw(column)} = ${q.severity}`;
  const hours = sql`project_id IN ${q.projectIds}
    AND hour >= toDateTime(${typed(firstWholeHour * 3600, 'Int64')}, 'UTC') ${severity('severity')}`;

  const parts: SqlFragment[] = [
    sql`SELECT toString(type) AS type, path, toInt64(sum(observed)) AS n,
        toInt64(toUnixTimestamp64Milli(max(last_seen_at))) AS last
      FROM log_attribute_hours WHERE ${hours}
      GROUP BY type, path HAVING n > 0`,
    coverageRows(
      sql`SELECT toInt64(sum(indexed)) AS indexed, toInt64(sum(partial)) AS partial,
          toInt64(sum(unindexed)) AS unindexed
        FROM log_coverage_hours WHERE ${hours}`,
    ),
  ];
  if (q.since < partialEnd) {
    const range = sql`project_id IN ${q.projectIds}
      AND occurred_at >= ${time(q.since)} AND occurred_at < ${time(partialEnd)} ${severity('severity')}`;
    parts.push(
      sql`SELECT leaf.1 AS type, leaf.2 AS path, toInt64(count()) AS n,
          toInt64(max(toUnixTimestamp64Milli(occurred_at))) AS last
        FROM logs ARRAY JOIN ${LEAVES} AS leaf WHERE ${range} GROUP BY type, path`,
      coverageRows(
        sql`SELECT toInt64(countIf(attr_coverage = 'indexed')) AS indexed,
            toInt64(countIf(attr_coverage = 'partial')) AS partial,
            toInt64(countIf(attr_coverage = 'unindexed')) AS unindexed
          FROM logs WHERE ${range}`,
      ),
    );
  }
  const rows = await db.rows<CatalogRow>(join(parts, ' UNION ALL '));
  const coverage = { indexed: 0, partial: 0, unindexed: 0 };
  for (const r of rows) {
    if (r.type !== 'coverage') tally.count(r.path, r.type, r.n, r.last);
    else if (r.path === 'indexed' || r.path === 'partial' || r.path === 'unindexed')
      coverage[r.path] += r.n;
  }
  tally.addCoverage(coverage.indexed, coverage.partial, coverage.unindexed);
  return tally.finish(q);
}
