import { foldCase } from '../../../domain/attribute-index';
import type { Severity } from '../../../domain/severity';
import { catalogHours, catalogTally } from '../../rows/attribute-catalog';
import { inDriverOrder } from '../../rows/log-filter-driver';
import { bucketsRange, countRange, countsByBucket } from '../../rows/log-count';
import {
  EFFECTIVE_SEVERITY,
  LOG_COLUMNS,
  LOG_FROM,
  logStatusCondition,
  toLog,
  type LogDbRow,
  type LogHead,
} from '../../rows/log-record';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import type {
  AttributeCatalog,
  AttributeCatalogQuery,
  LogCountEachQuery,
  LogCountFilters,
  LogCountQuery,
  LogListQuery,
  LogRule,
  LogsStore,
} from '../../../core/store/telemetry/logs';
import type { AttributeType } from '../../../domain/read-rules/attribute-filters';
import { filterIds, pgLeafCondition } from './log-attribute-filters';
import type { PgDb } from '../../postgres/pg-database';
import type { PgContext } from '../../postgres/pg-context';
import { walkNewestFirst } from './ordered-walk';
import { and, join, raw, sql, type SqlFragment } from '../../rows/sql';
import { exactConditions } from '../../rows/conditions';

/** Logs of the catalog's partial hour read per page (keeps a busy hour out of memory at once). */
const CATALOG_PAGE = 2_000;

/**
 * The message, case-folded as JavaScript's `toLowerCase` folds the search text (SQLite calls
 * it through `lookout_fold`). Under `COLLATE "C"` PostgreSQL's lower() folds ASCII only, so
 * the ICU root collation does the folding where the server has ICU.
 */
async function messageFolding(db: PgDb): Promise<string> {
  const icu = await db.one<{ ok: boolean }>(
    sql`SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu' AND collprovider = 'i') AS ok`,
  );
  return icu?.ok ? 'lower(l.message COLLATE "und-x-icu")' : 'lower(l.message)';
}

export function pgLogs({ db }: PgContext): LogsStore {
  let folding: Promise<string> | null = null;
  const foldedMessage = () =>
    (folding ??= messageFolding(db).catch((e: unknown) => {
      folding = null;
      throw e;
    }));

  /** Conditions on the log row and its rule (everything but attribute filters and the range). */
  async function logConditions(q: LogListQuery): Promise<SqlFragment[]> {
    const status = logStatusCondition(q.status);
    return [
      ...(status === null ? [] : [raw(status)]),
      ...(q.severity === null ? [] : [sql`${raw(EFFECTIVE_SEVERITY)} = ${q.severity}`]),
      ...(q.search === null
        ? []
        : [sql`strpos(${raw(await foldedMessage())}, ${foldCase(q.search)}::text) > 0`]),
      ...exactConditions([
        ['l.trace_id', q.traceId],
        ['l.service_name', q.serviceName],
        ['l.release', q.release],
        ['l.environment', q.environment],
      ]),
    ];
  }

  /** Range and cursor on a time column `t` (the log's, or an index row's copy of it). */
  function timeConditions(q: LogListQuery, t: string): SqlFragment[] {
    const time = raw(t);
    const where: SqlFragment[] = [];
    if (q.since !== null) where.push(sql`${time} >= ${q.since}::bigint`);
    if (q.until !== null) where.push(sql`${time} < ${q.until}::bigint`);
    if (q.after !== null)
      // The plain bound lets the index range stop; the pair decides ties by id.
      where.push(
        sql`${time} <= ${q.after.time}::bigint`,
        sql`(${time} < ${q.after.time}::bigint OR l.id < ${q.after.id}::text)`,
      );
    return where;
  }

  /**
   * Where one project's matching logs are read from: the tables, the conditions (range and
   * cursor included) and the time column they are ordered and ranged by. Without attribute
   * filters the read follows the logs' time index; with them it follows the attribute index
   * of one filter (by value for `eq`, else by time among logs having the path) and checks
   * the others on the same log's index rows, so no log without the path is ever read. Null:
   * nothing can match. The list and the count both read with it.
   */
  async function sourceOf(
    projectId: string,
    q: LogListQuery,
    ids: { projectNumber: number; pathIds: number[] } | null,
  ): Promise<{ from: SqlFragment; where: SqlFragment[]; time: string } | null> {
    if (ids === null)
      return {
        from: raw(LOG_FROM),
        where: [
          sql`l.project_id = ${projectId}`,
          ...timeConditions(q, 'l.occurred_at'),
          ...(await logConditions(q)),
        ],
        time: 'l.occurred_at',
      };
    const filters = inDriverOrder(
      q.attributeFilters.map((f, i) => ({ f, pathId: ids.pathIds[i] ?? 0 })),
    );
    const [driver, ...others] = filters;
    if (driver === undefined) return null;
    // The log is found by its time and row: the time prunes the join to one partition.
    return {
      from: raw(`log_attributes a
        JOIN logs l ON l.occurred_at = a.occurred_at AND l.seq = a.log_seq
        LEFT JOIN log_triage_rules r ON r.project_id = l.project_id AND r.triage_key = l.triage_key`),
      where: [
        sql`a.path_id = ${driver.pathId}`,
        sql`a.project_n = ${ids.projectNumber}`,
        pgLeafCondition(driver.f, 'a'),
        ...timeConditions(q, 'a.occurred_at'),
        ...others.map(
          (o) => sql`EXISTS (SELECT 1 FROM log_attributes b WHERE b.path_id = ${o.pathId} AND
            b.project_n = a.project_n AND b.occurred_at = a.occurred_at AND b.log_seq = a.log_seq
            AND ${pgLeafCondition(o.f, 'b')})`,
        ),
        ...(await logConditions(q)),
      ],
      time: 'a.occurred_at',
    };
  }

  /** Up to `limit` positions of one project's matching logs, newest first. */
  async function headsOf(
    projectId: string,
    q: LogListQuery,
    ids: { projectNumber: number; pathIds: number[] } | null,
  ): Promise<LogHead[]> {
    const source = await sourceOf(projectId, q, ids);
    if (source === null) return [];
    return walkNewestFirst<LogHead>(
      db,
      sql`SELECT l.seq, l.occurred_at, l.id FROM ${source.from} WHERE ${and(source.where)}
        ORDER BY ${raw(source.time)} DESC, l.id DESC LIMIT ${q.limit}`,
    );
  }

  /**
   * Each project's attribute index ids for the query's filters: null for every project when
   * it has none; a project is absent when a filter can match nothing there (a path never
   * indexed matches nothing, whatever the operator, and so does a project never indexed).
   */
  async function indexIdsOf(
    q: LogListQuery,
  ): Promise<Map<string, { projectNumber: number; pathIds: number[] } | null>> {
    if (q.attributeFilters.length === 0) return new Map(q.projectIds.map((p) => [p, null]));
    const ids = await filterIds(db, q.projectIds, q.attributeFilters);
    const pathIds = ids.pathIds.filter((id): id is number => id !== undefined);
    const found = new Map<string, { projectNumber: number; pathIds: number[] }>();
    if (pathIds.length < q.attributeFilters.length) return found;
    for (const projectId of q.projectIds) {
      const projectNumber = ids.projectNumbers.get(projectId);
      if (projectNumber !== undefined) found.set(projectId, { projectNumber, pathIds });
    }
    return found;
  }

  /**
   * One project's matching logs counted per bucket in one read: the list's source over the
   * range covering the buckets, joined to the buckets holding each log's time.
   */
  async function countOf(
    projectId: string,
    q: LogCountQuery,
    ids: { projectNumber: number; pathIds: number[] } | null,
  ): Promise<number[]> {
    const source = await sourceOf(projectId, countRange(q), ids);
    if (source === null) return q.buckets.map(() => 0);
    const time = raw(source.time);
    const rows = await db.rows<{ bucket_index: number; n: number }>(
      sql`SELECT b.i - 1 AS bucket_index, COUNT(*)::int AS n FROM ${source.from}
        JOIN unnest(${q.buckets.map((b) => b.start)}::bigint[], ${q.buckets.map((b) => b.end)}::bigint[])
          WITH ORDINALITY AS b(s, e, i) ON ${time} >= b.s AND ${time} < b.e
        WHERE ${and(source.where)} GROUP BY b.i`,
    );
    return countsByBucket(q, rows);
  }

  /**
   * One project's counts of the filter sets without attribute filters in one read: the range
   * covering the buckets is read once along the logs' time index and each set is a `FILTER`
   * of its own conditions. By set, in the order given.
   */
  async function plainCountsOf(
    projectId: string,
    q: LogCountEachQuery,
    sets: LogCountFilters[],
  ): Promise<number[][]> {
    const range = bucketsRange(q.buckets);
    const conditions = await Promise.all(
      sets.map((f) =>
        logConditions({ ...f, projectIds: [projectId], ...range, after: null, limit: 0 }),
      ),
    );
    const rows = await db.rows<Record<string, number>>(
      sql`SELECT b.i - 1 AS bucket_index, ${join(
        conditions.map(
          (c, k) =>
            sql`(COUNT(*) FILTER (WHERE ${c.length === 0 ? raw('true') : and(c)}))::int AS ${raw(`n${String(k)}`)}`,
        ),
        ', ',
      )}
        FROM ${raw(LOG_FROM)}
        JOIN unnest(${q.buckets.map((b) => b.start)}::bigint[], ${q.buckets.map((b) => b.end)}::bigint[])
          WITH ORDINALITY AS b(s, e, i) ON l.occurred_at >= b.s AND l.occurred_at < b.e
        WHERE l.project_id = ${projectId} AND l.occurred_at >= ${range.since}::bigint
          AND l.occurred_at < ${range.until}::bigint
        GROUP BY b.i`,
    );
    return sets.map((_, k) =>
      countsByBucket(
        q,
        rows.map((r) => ({ bucket_index: r.bucket_index ?? 0, n: r[`n${String(k)}`] ?? 0 })),
      ),
    );
  }

  async function count(q: LogCountQuery): Promise<number[]> {
    if (q.projectIds.length === 0 || q.buckets.length === 0) return q.buckets.map(() => 0);
    const ids = await indexIdsOf(countRange(q));
    const perProject = await Promise.all(
      q.projectIds.map((projectId) => {
        const projectIds = ids.get(projectId);
        return projectIds === undefined
          ? q.buckets.map(() => 0)
          : countOf(projectId, q, projectIds);
      }),
    );
    return q.buckets.map((_, i) => perProject.reduce((sum, c) => sum + (c[i] ?? 0), 0));
  }

  async function readCatalog(q: AttributeCatalogQuery): Promise<AttributeCatalog> {
    const tally = catalogTally();
    const numbers = (
      await db.rows<{ n: number }>(
        sql`SELECT n FROM project_numbers WHERE project_id = ANY(${q.projectIds}::text[])`,
      )
    ).map((r) => r.n);
    if (numbers.length > 0) {
      const { firstWholeHour, partialEnd } = catalogHours(q.since);
      const where = and([
        sql`h.project_n = ANY(${numbers}::bigint[])`,
        sql`h.hour >= ${firstWholeHour}`,
        ...(q.severity === null ? [] : [sql`h.severity = ${q.severity}`]),
      ]);
      const [paths, cov] = await Promise.all([
        db.rows<{ path: string; type: AttributeType; observed: number; last: number }>(
          sql`SELECT p.path, p.type, SUM(h.observed) AS observed, MAX(h.last_seen_at) AS last
            FROM log_attribute_hours h JOIN attribute_paths p ON p.id = h.path_id
            WHERE ${where}
            GROUP BY p.id`,
        ),
        db.one<{ indexed: number | null; partial: number | null; unindexed: number | null }>(
          sql`SELECT SUM(indexed) AS indexed, SUM(partial) AS partial, SUM(unindexed) AS unindexed
            FROM log_index_hours h WHERE ${where}`,
        ),
      ]);
      for (const p of paths) tally.count(p.path, p.type, p.observed, p.last);
      tally.addCoverage(cov?.indexed ?? 0, cov?.partial ?? 0, cov?.unindexed ?? 0);
      if (q.since < partialEnd)
        for (const projectId of q.projectIds)
          await readPartialHour(projectId, q.since, partialEnd, q.severity, (r) =>
            tally.addLog(r.attributes, r.occurred_at),
          );
    }
    return tally.finish(q);
  }

  /** One project's logs in [from, to), newest first, a page at a time. */
  async function readPartialHour(
    projectId: string,
    from: number,
    to: number,
    severity: Severity | null,
    each: (r: { occurred_at: number; attributes: string }) => void,
  ): Promise<void> {
    let after: { occurred_at: number; id: string } | null = null;
    for (;;) {
      const where = [
        sql`project_id = ${projectId}`,
        sql`occurred_at >= ${from}`,
        sql`occurred_at < ${to}`,
        ...(severity === null ? [] : [sql`severity = ${severity}`]),
        ...(after === null
          ? []
          : [sql`(occurred_at, id) < (${after.occurred_at}::bigint, ${after.id}::text)`]),
      ];
      const rows: { occurred_at: number; id: string; attributes: string }[] = await db.rows(
        sql`SELECT occurred_at, id, attributes FROM logs WHERE ${and(where)}
          ORDER BY occurred_at DESC, id DESC LIMIT ${CATALOG_PAGE}`,
      );
      for (const r of rows) each(r);
      const last = rows[rows.length - 1];
      if (rows.length < CATALOG_PAGE || last === undefined) return;
      after = last;
    }
  }

  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      const ids = await indexIdsOf(q);
      const pages = await Promise.all(
        q.projectIds.map((projectId) => {
          const projectIds = ids.get(projectId);
          return projectIds === undefined ? [] : headsOf(projectId, q, projectIds);
        }),
      );
      // Each project was read on its own along an index in newest-first order, so a page
      // stops after `limit` rows instead of sorting every match; the pages are merged here.
      const heads = mergeNewestFirstPages(pages, q.limit);
      if (heads.length === 0) return [];
      // The times prune the read to the months the page covers; seq is unique on its own.
      const rows = await db.rows<
        LogDbRow & { seq: number }
      >(sql`SELECT l.seq, ${raw(LOG_COLUMNS)} FROM ${raw(LOG_FROM)}
         WHERE l.occurred_at = ANY(${[...new Set(heads.map((h) => h.occurred_at))]}::bigint[]) AND l.seq = ANY(${heads.map((h) => h.seq)}::bigint[])`);
      const bySeq = new Map(rows.map((r) => [r.seq, r]));
      return heads.flatMap((h) => {
        const r = bySeq.get(h.seq);
        return r ? [toLog(r)] : [];
      });
    },

    count,

    async countEach(q) {
      if (q.buckets.length === 0) return q.filters.map(() => []);
      if (q.projectIds.length === 0) return q.filters.map(() => q.buckets.map(() => 0));
      const counts: number[][] = q.filters.map(() => q.buckets.map(() => 0));
      const add = (f: number, c: number[]) =>
        c.forEach((n, i) => ((counts[f] as number[])[i] = ((counts[f] as number[])[i] ?? 0) + n));
      // Sets with attribute filters are read through the attribute index, one count each
      // (reading the range once and checking their filters on every log would read more).
      const plain = q.filters.flatMap((f, i) => (f.attributeFilters.length === 0 ? [i] : []));
      const indexed = q.filters.flatMap((f, i) => (f.attributeFilters.length > 0 ? [i] : []));
      await Promise.all([
        ...(plain.length === 0
          ? []
          : q.projectIds.map(async (p) => {
              const c = await plainCountsOf(
                p,
                q,
                plain.map((i) => q.filters[i] as LogCountFilters),
              );
              plain.forEach((f, k) => add(f, c[k] ?? []));
            })),
        ...indexed.map(async (f) =>
          add(
            f,
            await count({
              ...(q.filters[f] as LogCountFilters),
              projectIds: q.projectIds,
              buckets: q.buckets,
            }),
          ),
        ),
      ]);
      return counts;
    },

    catalog: readCatalog,

    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = await db.one<LogDbRow>(sql`SELECT ${raw(LOG_COLUMNS)} FROM ${raw(LOG_FROM)}
         WHERE l.id = ${id} AND l.project_id = ANY(${projectIds}::text[])
         ORDER BY l.occurred_at DESC, l.project_id LIMIT 1`);
      return row ? toLog(row) : null;
    },

    async rulesFor(projectId, logIds) {
      const rules = new Map<string, LogRule>();
      if (logIds.length === 0) return rules;
      const rows = await db.rows<{
        id: string;
        severity: Severity | null;
        ignored: number;
      }>(sql`SELECT l.id, r.severity_override AS severity, r.ignored FROM ${raw(LOG_FROM)}
         WHERE l.project_id = ${projectId} AND l.id = ANY(${logIds}::text[]) AND r.ignored IS NOT NULL`);
      for (const r of rows) rules.set(r.id, { severity: r.severity, ignored: r.ignored === 1 });
      return rules;
    },

    async setRule({ projectId, logId, rule, at, by }) {
      const key = (
        await db.one<{ triage_key: string | null }>(
          sql`SELECT triage_key FROM logs WHERE project_id = ${projectId} AND id = ${logId} LIMIT 1`,
        )
      )?.triage_key;
      if (!key) return false;
      if (rule === null)
        await db.run(
          sql`DELETE FROM log_triage_rules WHERE project_id = ${projectId} AND triage_key = ${key}`,
        );
      else
        await db.run(sql`INSERT INTO log_triage_rules
             (project_id, triage_key, severity_override, ignored, updated_at, updated_by)
           VALUES (${projectId}, ${key}, ${rule.severity}, ${rule.ignored ? 1 : 0}, ${at}, ${by})
           ON CONFLICT (project_id, triage_key) DO UPDATE SET
             severity_override = excluded.severity_override, ignored = excluded.ignored,
             updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
      return true;
    },
  };
}
