import type { AttributeType } from '../../../domain/read-rules/attribute-filters';
import type { AttributeCatalog, AttributeCatalogQuery } from '../../../core/store/telemetry/logs';
import { catalogHours, catalogTally } from '../../rows/attribute-catalog';
import { raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/** Every indexed leaf of a log as (type, path), for reads of the logs themselves. */
const LEAVES = raw(`arrayConcat(
  arrayMap(k -> ('string', k), mapKeys(attr_string)),
  arrayMap(k -> ('number', k), mapKeys(attr_number)),
  arrayMap(k -> ('boolean', k), mapKeys(attr_bool)))`);

/**
 * The catalog over [since, ∞): whole hours from the rollups the materialized views keep
 * (`log_attribute_hours`, `log_coverage_hours`), the first, partial hour from the logs
 * themselves, so the counts are exact to the millisecond without a scan of the range.
 */
export async function readCatalog(db: ChDb, q: AttributeCatalogQuery): Promise<AttributeCatalog> {
  const tally = catalogTally();
  if (q.projectIds.length === 0) return tally.finish(q);
  const { firstWholeHour, partialEnd } = catalogHours(q.since);
  const severity = (column: string): SqlFragment =>
    q.severity === null ? raw('') : sql`AND ${raw(column)} = ${q.severity}`;
  const hours = sql`project_id IN ${q.projectIds}
    AND hour >= toDateTime(${typed(firstWholeHour * 3600, 'Int64')}, 'UTC') ${severity('severity')}`;

  const [paths, coverage] = await Promise.all([
    db.rows<{ type: AttributeType; path: string; n: number; last: number }>(
      sql`SELECT toString(type) AS type, path, sum(observed) AS n,
          toUnixTimestamp64Milli(max(last_seen_at)) AS last
        FROM log_attribute_hours WHERE ${hours}
        GROUP BY type, path HAVING n > 0`,
    ),
    db.one<{ indexed: number; partial: number; unindexed: number }>(
      sql`SELECT sum(indexed) AS indexed, sum(partial) AS partial, sum(unindexed) AS unindexed
        FROM log_coverage_hours WHERE ${hours}`,
    ),
  ]);
  for (const p of paths) tally.count(p.path, p.type, p.n, p.last);
  tally.addCoverage(coverage?.indexed ?? 0, coverage?.partial ?? 0, coverage?.unindexed ?? 0);

  if (q.since < partialEnd) {
    const range = sql`project_id IN ${q.projectIds}
      AND occurred_at >= ${time(q.since)} AND occurred_at < ${time(partialEnd)} ${severity('severity')}`;
    const [partialPaths, partialCoverage] = await Promise.all([
      db.rows<{ type: AttributeType; path: string; n: number; last: number }>(
        sql`SELECT leaf.1 AS type, leaf.2 AS path, count() AS n,
            max(toUnixTimestamp64Milli(occurred_at)) AS last
          FROM logs ARRAY JOIN ${LEAVES} AS leaf WHERE ${range} GROUP BY type, path`,
      ),
      db.one<{ indexed: number; partial: number; unindexed: number }>(
        sql`SELECT countIf(attr_coverage = 'indexed') AS indexed,
            countIf(attr_coverage = 'partial') AS partial,
            countIf(attr_coverage = 'unindexed') AS unindexed
          FROM logs WHERE ${range}`,
      ),
    ]);
    for (const p of partialPaths) tally.count(p.path, p.type, p.n, p.last);
    tally.addCoverage(
      partialCoverage?.indexed ?? 0,
      partialCoverage?.partial ?? 0,
      partialCoverage?.unindexed ?? 0,
    );
  }
  return tally.finish(q);
}
