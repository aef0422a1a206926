import { logTriageKey } from '../../domain/log-triage-key';
import type { AttributeFilter } from '../../domain/read-rules/attribute-filters';
import type { Severity } from '../../domain/severity';
import type { Db } from '../database';
import type { LogRecord, LogRule, LogStatus, LogsStore } from '../store';

type LogDbRow = {
  id: string;
  project_id: string;
  occurred_at: number;
  severity: Severity;
  source: string;
  message: string;
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
  rule_severity: Severity | null;
  rule_ignored: number | null;
};

const toLog = (r: LogDbRow): LogRecord => ({
  id: r.id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  severity: r.severity,
  source: r.source,
  message: r.message,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
  rule:
    r.rule_ignored === null ? null : { severity: r.rule_severity, ignored: r.rule_ignored === 1 },
});

const COLUMNS = `l.id, l.project_id, l.occurred_at, l.severity, l.source, l.message, l.attributes,
  l.environment, l.release, l.service_name, l.trace_id, l.span_id, l.sdk_name, l.sdk_version,
  r.severity_override AS rule_severity, r.ignored AS rule_ignored`;

/** Each log with the rule of its project and triage key (the primary key of the rules). */
const FROM = `logs l LEFT JOIN log_triage_rules r
  ON r.project_id = l.project_id AND r.triage_key = l.triage_key`;

/** Unicode-aware case folding (SQLite's lower() only folds ASCII). */
const FOLD = 'lookout_fold';

/** Severity after log rules: the rule's override, else the captured one. */
const EFFECTIVE_SEVERITY = 'COALESCE(r.severity_override, l.severity)';

/** Triage status as SQL on the joined rule; a log without a rule is active. */
function statusCondition(status: LogStatus): string | null {
  switch (status) {
    case 'active':
      return 'COALESCE(r.ignored, 0) = 0';
    case 'all':
      return null;
    case 'ignored':
      return 'r.ignored = 1';
  }
}

const TYPE_CHECK: Record<AttributeFilter['type'], string> = {
  string: "IN ('text')",
  number: "IN ('integer', 'real')",
  boolean: "IN ('true', 'false')",
};

/**
 * One attribute filter as SQL on the attributes column. Every operator first requires the
 * path to exist with a value of the filter's JSON type, so `ne` never matches a log without
 * the path. Scans rows for now; an attribute index comes with the attribute catalog.
 */
function attributeCondition(f: AttributeFilter, args: unknown[]): string {
  // SQLite path labels compare against the key's JSON text, so quote each token as JSON.
  const jsonPath = `$${f.segments.map((s) => `.${JSON.stringify(s)}`).join('')}`;
  args.push(jsonPath);
  const typed = `json_type(attributes, ?) ${TYPE_CHECK[f.type]}`;
  if (f.operator === 'exists') return typed;
  const v = 'json_extract(attributes, ?)';
  args.push(jsonPath);
  switch (f.type) {
    case 'boolean':
      // json_extract gives 1/0 for true/false.
      args.push(f.value ? 1 : 0);
      return `(${typed} AND ${v} ${f.operator === 'eq' ? '=' : '<>'} ?)`;
    case 'number': {
      const op = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }[f.operator];
      args.push(f.value);
      return `(${typed} AND ${v} ${op} ?)`;
    }
    case 'string': {
      const fold = (x: string) => (f.caseSensitive ? x : `${FOLD}(${x})`);
      const left = fold(v);
      args.push(f.value);
      const right = fold('?');
      switch (f.operator) {
        case 'eq':
          return `(${typed} AND ${left} = ${right})`;
        case 'ne':
          return `(${typed} AND ${left} <> ${right})`;
        case 'contains':
          return `(${typed} AND instr(${left}, ${right}) > 0)`;
        case 'starts_with':
          args.push(f.value);
          return `(${typed} AND substr(${left}, 1, length(${right})) = ${right})`;
      }
    }
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

export function sqliteLogs(db: Db): LogsStore {
  db.function(FOLD, { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? s.toLowerCase() : s,
  );
  backfillTriageKeys(db);
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
      if (q.projectIds.length === 0) return [];
      const where: string[] = [`l.project_id IN (${q.projectIds.map(() => '?').join(', ')})`];
      const args: unknown[] = [...q.projectIds];
      const status = statusCondition(q.status);
      if (status !== null) where.push(status);
      if (q.severity !== null) {
        where.push(`${EFFECTIVE_SEVERITY} = ?`);
        args.push(q.severity);
      }
      if (q.search !== null) {
        where.push(`instr(${FOLD}(message), ${FOLD}(?)) > 0`);
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
      for (const f of q.attributeFilters) where.push(attributeCondition(f, args));
      if (q.since !== null) {
        where.push('l.occurred_at >= ?');
        args.push(q.since);
      }
      if (q.until !== null) {
        where.push('l.occurred_at < ?');
        args.push(q.until);
      }
      if (q.after !== null) {
        where.push('(l.occurred_at < ? OR (l.occurred_at = ? AND l.id < ?))');
        args.push(q.after.time, q.after.time, q.after.id);
      }
      args.push(q.limit);
      const sql = `SELECT ${COLUMNS} FROM ${FROM} WHERE ${where.join(' AND ')}
        ORDER BY l.occurred_at DESC, l.id DESC LIMIT ?`;
      return db
        .prepare<unknown[], LogDbRow>(sql)
        .all(...args)
        .map(toLog);
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
