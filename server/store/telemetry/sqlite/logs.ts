import { indexAttributes } from '../../../domain/attribute-index';
import { logTriageKey } from '../../../domain/log-triage-key';
import type { AttributeFilter } from '../../../domain/read-rules/attribute-filters';
import type { Severity } from '../../../domain/severity';
import type { Db } from '../../sqlite/database';
import {
  EFFECTIVE_SEVERITY,
  LOG_COLUMNS as COLUMNS,
  LOG_FROM as FROM,
  logStatusCondition,
  toLog,
  type LogDbRow,
  type LogHead as Head,
} from '../../rows/log-record';
import { inDriverOrder } from '../../rows/log-filter-driver';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import type { LogListQuery, LogRule, LogsStore } from '../../../core/store/telemetry/logs';
import { leafCondition, type LogAttributeIndex, type LogToIndex } from './log-attribute-index';

/** Unicode-aware case folding (SQLite's lower() only folds ASCII). */
const FOLD = 'lookout_fold';

/** Conditions on the log row and its rule (everything but attribute filters and the range). */
function logConditions(q: LogListQuery, where: string[], args: unknown[]): void {
  const status = logStatusCondition(q.status);
  if (status !== null) where.push(status);
  if (q.severity !== null) {
    where.push(`${EFFECTIVE_SEVERITY} = ?`);
    args.push(q.severity);
  }
  if (q.search !== null) {
    where.push(`instr(${FOLD}(l.message), ${FOLD}(?)) > 0`);
    args.push(q.search);
  }
  const exact: [string, string | null][] = [
    ['trace_id', q.traceId],
    ['service_name', q.serviceName],
    ['release', q.release],
    ['environment', q.environment],
  ];
  for (const [column, value] of exact) {
    if (value === null) continue;
    where.push(`l.${column} = ?`);
    args.push(value);
  }
}

/** Range and cursor on a time column `t` (the log's, or an index row's copy of it). */
function timeConditions(q: LogListQuery, t: string, where: string[], args: unknown[]): void {
  if (q.since !== null) {
    where.push(`${t} >= ?`);
    args.push(q.since);
  }
  if (q.until !== null) {
    where.push(`${t} < ?`);
    args.push(q.until);
  }
  if (q.after !== null) {
    // The plain bound lets the index range stop; the pair decides ties by id.
    where.push(`${t} <= ?`, `(${t} < ? OR l.id < ?)`);
    args.push(q.after.time, q.after.time, q.after.id);
  }
}

/**
 * Logs stored before triage keys existed get theirs here, once, when the store opens; the
 * key is computed in JS (the message template is not expressible in SQL).
 */
function backfillTriageKeys(db: Db): void {
  const pending = db.prepare<
    [],
    { seq: number; source: string; service_name: string; message: string }
  >(
    'SELECT seq, source, service_name, message FROM logs WHERE triage_key IS NULL ORDER BY seq LIMIT 1000',
  );
  const set = db.prepare('UPDATE logs SET triage_key = ? WHERE seq = ?');
  const batch = db.transaction(() => {
    const rows = pending.all();
    for (const r of rows) set.run(logTriageKey(r.source, r.service_name, r.message), r.seq);
    return rows.length;
  });
  while (batch() > 0);
}

/**
 * Logs stored before the attribute index existed are indexed here, once, when the store
 * opens, in batches (ids first, then the rows, as ingestion does).
 */
function backfillAttributeIndex(db: Db, attributeIndex: LogAttributeIndex): void {
  const pending = db.prepare<
    [],
    { seq: number; project_id: string; occurred_at: number; severity: Severity; attributes: string }
  >(
    `SELECT seq, project_id, occurred_at, severity, attributes FROM logs
     WHERE attributes_indexed IS NULL ORDER BY seq LIMIT 2000`,
  );
  const done = db.prepare('UPDATE logs SET attributes_indexed = 1 WHERE seq = ?');
  for (;;) {
    const rows = pending.all();
    if (rows.length === 0) return;
    const byProject = new Map<string, LogToIndex[]>();
    for (const r of rows) {
      const indexed = indexAttributes(JSON.parse(r.attributes) as Record<string, unknown>);
      const list = byProject.get(r.project_id) ?? [];
      list.push({ seq: r.seq, occurredAt: r.occurred_at, severity: r.severity, indexed });
      byProject.set(r.project_id, list);
    }
    for (const [projectId, logs] of byProject)
      attributeIndex.ensureIds(
        projectId,
        logs.map((l) => l.indexed),
      );
    db.transaction(() => {
      for (const [projectId, logs] of byProject) attributeIndex.write(projectId, logs);
      for (const r of rows) done.run(r.seq);
    })();
  }
}

export function sqliteLogs(db: Db, attributeIndex: LogAttributeIndex): LogsStore {
  db.function(FOLD, { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? s.toLowerCase() : s,
  );
  backfillTriageKeys(db);
  backfillAttributeIndex(db, attributeIndex);

  /**
   * Up to `limit` positions of one project's matching logs, newest first. Without attribute
   * filters the walk follows the logs' time index; with them it follows the attribute index
   * of one filter (by value for `eq`, else by time among logs having the path) and checks
   * the others on the same log's index rows, so no log without the path is ever read.
   */
  function headsOf(projectId: string, q: LogListQuery): Head[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (q.attributeFilters.length === 0) {
      where.push('l.project_id = ?');
      args.push(projectId);
      timeConditions(q, 'l.occurred_at', where, args);
      logConditions(q, where, args);
      args.push(q.limit);
      return db
        .prepare<unknown[], Head>(
          `SELECT l.seq, l.occurred_at, l.id FROM ${FROM} WHERE ${where.join(' AND ')}
           ORDER BY l.occurred_at DESC, l.id DESC LIMIT ?`,
        )
        .all(...args);
    }
    const n = attributeIndex.projectNumber(projectId);
    if (n === undefined) return [];
    const filters: { f: AttributeFilter; pathId: number }[] = [];
    for (const f of q.attributeFilters) {
      const pathId = attributeIndex.pathId(f.path, f.type);
      // A path never indexed matches nothing, whatever the operator.
      if (pathId === undefined) return [];
      filters.push({ f, pathId });
    }
    const [driver, ...others] = inDriverOrder(filters);
    if (driver === undefined) return [];
    where.push('a.path_id = ?', 'a.project_n = ?');
    args.push(driver.pathId, n);
    where.push(leafCondition(driver.f, 'a', args));
    timeConditions(q, 'a.occurred_at', where, args);
    for (const o of others) {
      args.push(o.pathId);
      where.push(`EXISTS (SELECT 1 FROM log_attributes b WHERE b.path_id = ? AND
        b.project_n = a.project_n AND b.occurred_at = a.occurred_at AND b.log_seq = a.log_seq
        AND ${leafCondition(o.f, 'b', args)})`);
    }
    logConditions(q, where, args);
    args.push(q.limit);
    const access = driver.f.operator === 'eq' ? 'INDEXED BY log_attributes_by_value' : '';
    return db
      .prepare<unknown[], Head>(
        `SELECT l.seq, l.occurred_at, l.id
         FROM log_attributes a ${access}
         CROSS JOIN logs l ON l.seq = a.log_seq
         LEFT JOIN log_triage_rules r ON r.project_id = l.project_id AND r.triage_key = l.triage_key
         WHERE ${where.join(' AND ')}
         ORDER BY a.occurred_at DESC, l.id DESC LIMIT ?`,
      )
      .all(...args);
  }
  const keyOf = db.prepare<[string, string], { triage_key: string | null }>(
    'SELECT triage_key FROM logs WHERE project_id = ? AND id = ?',
  );
  const upsertRule = db.prepare(`INSERT INTO log_triage_rules
    (project_id, triage_key, severity_override, ignored, updated_at, updated_by)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (project_id, triage_key) DO UPDATE SET severity_override = excluded.severity_override,
      ignored = excluded.ignored, updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
  const deleteRule = db.prepare(
    'DELETE FROM log_triage_rules WHERE project_id = ? AND triage_key = ?',
  );

  return {
    async list(q) {
      // Each project is read on its own along an index in newest-first order, so a page stops
      // after `limit` rows instead of sorting every match; the pages are then merged.
      const heads = mergeNewestFirstPages(
        q.projectIds.map((projectId) => headsOf(projectId, q)),
        q.limit,
      );
      const seqs = heads.map((h) => h.seq);
      if (seqs.length === 0) return [];
      const rows = db
        .prepare<unknown[], LogDbRow & { seq: number }>(
          `SELECT l.seq, ${COLUMNS} FROM ${FROM} WHERE l.seq IN (${seqs.map(() => '?').join(', ')})`,
        )
        .all(...seqs);
      const bySeq = new Map(rows.map((r) => [r.seq, r]));
      return seqs.flatMap((seq) => {
        const r = bySeq.get(seq);
        return r ? [toLog(r)] : [];
      });
    },
    async catalog(q) {
      return attributeIndex.catalog(q);
    },
    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = db
        .prepare<unknown[], LogDbRow>(
          `SELECT ${COLUMNS} FROM ${FROM} WHERE l.id = ? AND l.project_id IN (${projectIds
            .map(() => '?')
            .join(', ')}) ORDER BY l.occurred_at DESC, l.project_id LIMIT 1`,
        )
        .get(id, ...projectIds);
      return row ? toLog(row) : null;
    },
    async rulesFor(projectId, logIds) {
      const rules = new Map<string, LogRule>();
      // Chunks keep each statement well under SQLite's bound-parameter limit.
      for (let i = 0; i < logIds.length; i += 500) {
        const chunk = logIds.slice(i, i + 500);
        const rows = db
          .prepare<unknown[], { id: string; severity: Severity | null; ignored: number }>(
            `SELECT l.id, r.severity_override AS severity, r.ignored FROM ${FROM}
             WHERE l.project_id = ? AND l.id IN (${chunk.map(() => '?').join(', ')})
               AND r.ignored IS NOT NULL`,
          )
          .all(projectId, ...chunk);
        for (const r of rows) rules.set(r.id, { severity: r.severity, ignored: r.ignored === 1 });
      }
      return rules;
    },
    async setRule({ projectId, logId, rule, at, by }) {
      const key = keyOf.get(projectId, logId)?.triage_key;
      if (!key) return false;
      if (rule === null) deleteRule.run(projectId, key);
      else upsertRule.run(projectId, key, rule.severity, rule.ignored ? 1 : 0, at, by);
      return true;
    },
  };
}
