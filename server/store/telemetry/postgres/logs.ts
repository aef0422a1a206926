import { foldCase } from '../../../domain/attribute-index';
import type { Severity } from '../../../domain/severity';
import { catalogHours, catalogTally } from '../../rows/attribute-catalog';
import { inDriverOrder } from '../../rows/log-filter-driver';
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
  LogListQuery,
  LogRule,
  LogsStore,
} from '../../../core/store/telemetry/logs';
import type { AttributeType } from '../../../domain/read-rules/attribute-filters';
import { filterIds, pgLeafCondition } from './log-attribute-filters';
import type { PgDb } from '../../postgres/pg-database';
import type { PgContext } from '../../postgres/pg-context';
import { walkNewestFirst } from './ordered-walk';

/** Logs of the catalog's partial hour read per page (keeps a busy hour out of memory at once). */
const CATALOG_PAGE = 2_000;

/**
 * The message, case-folded as JavaScript's `toLowerCase` folds the search text (SQLite calls
 * it through `lookout_fold`). Under `COLLATE "C"` PostgreSQL's lower() folds ASCII only, so
 * the ICU root collation does the folding where the server has ICU.
 */
async function messageFolding(db: PgDb): Promise<string> {
  const icu = await db.one<{ ok: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu' AND collprovider = 'i') AS ok`,
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
  async function logConditions(q: LogListQuery, where: string[], params: unknown[]) {
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const status = logStatusCondition(q.status);
    if (status !== null) where.push(status);
    if (q.severity !== null) where.push(`${EFFECTIVE_SEVERITY} = ${p(q.severity)}`);
    if (q.search !== null)
      where.push(`strpos(${await foldedMessage()}, ${p(foldCase(q.search))}::text) > 0`);
    const exact: [string, string | null][] = [
      ['trace_id', q.traceId],
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ];
    for (const [column, value] of exact)
      if (value !== null) where.push(`l.${column} = ${p(value)}`);
  }

  /** Range and cursor on a time column `t` (the log's, or an index row's copy of it). */
  function timeConditions(q: LogListQuery, t: string, where: string[], params: unknown[]) {
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    if (q.since !== null) where.push(`${t} >= ${p(q.since)}::bigint`);
    if (q.until !== null) where.push(`${t} < ${p(q.until)}::bigint`);
    if (q.after !== null) {
      // The plain bound lets the index range stop; the pair decides ties by id.
      const time = p(q.after.time);
      where.push(
        `${t} <= ${time}::bigint`,
        `(${t} < ${time}::bigint OR l.id < ${p(q.after.id)}::text)`,
      );
    }
  }

  /**
   * Up to `limit` positions of one project's matching logs, newest first. Without attribute
   * filters the walk follows the logs' time index; with them it follows the attribute index
   * of one filter (by value for `eq`, else by time among logs having the path) and checks
   * the others on the same log's index rows, so no log without the path is ever read.
   */
  async function headsOf(
    projectId: string,
    q: LogListQuery,
    ids: { projectNumber: number; pathIds: number[] } | null,
  ): Promise<LogHead[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (ids === null) {
      params.push(projectId);
      where.push('l.project_id = $1');
      timeConditions(q, 'l.occurred_at', where, params);
      await logConditions(q, where, params);
      params.push(q.limit);
      return walkNewestFirst<LogHead>(
        db,
        `SELECT l.seq, l.occurred_at, l.id FROM ${LOG_FROM} WHERE ${where.join(' AND ')}
         ORDER BY l.occurred_at DESC, l.id DESC LIMIT $${params.length}`,
        params,
      );
    }
    const filters = inDriverOrder(
      q.attributeFilters.map((f, i) => ({ f, pathId: ids.pathIds[i] ?? 0 })),
    );
    const [driver, ...others] = filters;
    if (driver === undefined) return [];
    params.push(driver.pathId, ids.projectNumber);
    where.push('a.path_id = $1', 'a.project_n = $2');
    where.push(pgLeafCondition(driver.f, 'a', params));
    timeConditions(q, 'a.occurred_at', where, params);
    for (const o of others) {
      params.push(o.pathId);
      const path = `$${params.length}`;
      where.push(`EXISTS (SELECT 1 FROM log_attributes b WHERE b.path_id = ${path} AND
        b.project_n = a.project_n AND b.occurred_at = a.occurred_at AND b.log_seq = a.log_seq
        AND ${pgLeafCondition(o.f, 'b', params)})`);
    }
    await logConditions(q, where, params);
    params.push(q.limit);
    // The log is found by its time and row: the time prunes the join to one partition.
    return walkNewestFirst<LogHead>(
      db,
      `SELECT l.seq, l.occurred_at, l.id
       FROM log_attributes a
       JOIN logs l ON l.occurred_at = a.occurred_at AND l.seq = a.log_seq
       LEFT JOIN log_triage_rules r ON r.project_id = l.project_id AND r.triage_key = l.triage_key
       WHERE ${where.join(' AND ')}
       ORDER BY a.occurred_at DESC, l.id DESC LIMIT $${params.length}`,
      params,
    );
  }

  async function readCatalog(q: AttributeCatalogQuery): Promise<AttributeCatalog> {
    const tally = catalogTally();
    const numbers = (
      await db.rows<{ n: number }>(
        'SELECT n FROM project_numbers WHERE project_id = ANY($1::text[])',
        [q.projectIds],
      )
    ).map((r) => r.n);
    if (numbers.length > 0) {
      const { firstWholeHour, partialEnd } = catalogHours(q.since);
      const params: unknown[] = [numbers, firstWholeHour];
      if (q.severity !== null) params.push(q.severity);
      const severity = q.severity === null ? '' : 'AND h.severity = $3';
      const [paths, cov] = await Promise.all([
        db.rows<{ path: string; type: AttributeType; observed: number; last: number }>(
          `SELECT p.path, p.type, SUM(h.observed) AS observed, MAX(h.last_seen_at) AS last
           FROM log_attribute_hours h JOIN attribute_paths p ON p.id = h.path_id
           WHERE h.project_n = ANY($1::bigint[]) AND h.hour >= $2 ${severity}
           GROUP BY p.id`,
          params,
        ),
        db.one<{ indexed: number | null; partial: number | null; unindexed: number | null }>(
          `SELECT SUM(indexed) AS indexed, SUM(partial) AS partial, SUM(unindexed) AS unindexed
           FROM log_index_hours h
           WHERE h.project_n = ANY($1::bigint[]) AND h.hour >= $2 ${severity}`,
          params,
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
      const params: unknown[] = [projectId, from, to, CATALOG_PAGE];
      const where = ['project_id = $1', 'occurred_at >= $2', 'occurred_at < $3'];
      if (severity !== null) {
        params.push(severity);
        where.push(`severity = $${params.length}`);
      }
      if (after !== null) {
        params.push(after.occurred_at, after.id);
        where.push(`(occurred_at, id) < ($${params.length - 1}::bigint, $${params.length}::text)`);
      }
      const rows: { occurred_at: number; id: string; attributes: string }[] = await db.rows(
        `SELECT occurred_at, id, attributes FROM logs WHERE ${where.join(' AND ')}
         ORDER BY occurred_at DESC, id DESC LIMIT $4`,
        params,
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
      let pages: LogHead[][];
      if (q.attributeFilters.length === 0) {
        pages = await Promise.all(q.projectIds.map((projectId) => headsOf(projectId, q, null)));
      } else {
        const ids = await filterIds(db, q.projectIds, q.attributeFilters);
        const pathIds = ids.pathIds.filter((id): id is number => id !== undefined);
        // A path never indexed matches nothing, whatever the operator.
        if (pathIds.length < q.attributeFilters.length) return [];
        pages = await Promise.all(
          q.projectIds.map((projectId) => {
            const projectNumber = ids.projectNumbers.get(projectId);
            return projectNumber === undefined
              ? []
              : headsOf(projectId, q, { projectNumber, pathIds });
          }),
        );
      }
      // Each project was read on its own along an index in newest-first order, so a page
      // stops after `limit` rows instead of sorting every match; the pages are merged here.
      const heads = mergeNewestFirstPages(pages, q.limit);
      if (heads.length === 0) return [];
      // The times prune the read to the months the page covers; seq is unique on its own.
      const rows = await db.rows<LogDbRow & { seq: number }>(
        `SELECT l.seq, ${LOG_COLUMNS} FROM ${LOG_FROM}
         WHERE l.occurred_at = ANY($1::bigint[]) AND l.seq = ANY($2::bigint[])`,
        [[...new Set(heads.map((h) => h.occurred_at))], heads.map((h) => h.seq)],
      );
      const bySeq = new Map(rows.map((r) => [r.seq, r]));
      return heads.flatMap((h) => {
        const r = bySeq.get(h.seq);
        return r ? [toLog(r)] : [];
      });
    },

    catalog: readCatalog,

    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = await db.one<LogDbRow>(
        `SELECT ${LOG_COLUMNS} FROM ${LOG_FROM}
         WHERE l.id = $1 AND l.project_id = ANY($2::text[])
         ORDER BY l.occurred_at DESC, l.project_id LIMIT 1`,
        [id, projectIds],
      );
      return row ? toLog(row) : null;
    },

    async rulesFor(projectId, logIds) {
      const rules = new Map<string, LogRule>();
      if (logIds.length === 0) return rules;
      const rows = await db.rows<{ id: string; severity: Severity | null; ignored: number }>(
        `SELECT l.id, r.severity_override AS severity, r.ignored FROM ${LOG_FROM}
         WHERE l.project_id = $1 AND l.id = ANY($2::text[]) AND r.ignored IS NOT NULL`,
        [projectId, logIds],
      );
      for (const r of rows) rules.set(r.id, { severity: r.severity, ignored: r.ignored === 1 });
      return rules;
    },

    async setRule({ projectId, logId, rule, at, by }) {
      const key = (
        await db.one<{ triage_key: string | null }>(
          'SELECT triage_key FROM logs WHERE project_id = $1 AND id = $2 LIMIT 1',
          [projectId, logId],
        )
      )?.triage_key;
      if (!key) return false;
      if (rule === null)
        await db.run('DELETE FROM log_triage_rules WHERE project_id = $1 AND triage_key = $2', [
          projectId,
          key,
        ]);
      else
        await db.run(
          `INSERT INTO log_triage_rules
             (project_id, triage_key, severity_override, ignored, updated_at, updated_by)
           VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (project_id, triage_key) DO UPDATE SET
             severity_override = excluded.severity_override, ignored = excluded.ignored,
             updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
          [projectId, key, rule.severity, rule.ignored ? 1 : 0, at, by],
        );
      return true;
    },
  };
}
