import type { AttributeFilter } from '../../domain/read-rules/attribute-filters';
import type { Severity } from '../../domain/severity';
import type { Db } from '../database';
import type { LogRecord, LogStatus, LogsStore } from '../store';

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
});

const COLUMNS = `id, project_id, occurred_at, severity, source, message, attributes, environment,
  release, service_name, trace_id, span_id, sdk_name, sdk_version`;

/** Unicode-aware case folding (SQLite's lower() only folds ASCII). */
const FOLD = 'lookout_fold';

/** Severity after log rules. There are no log rules yet, so it is the captured one. */
const EFFECTIVE_SEVERITY = 'severity';

/**
 * Triage status as SQL. Without log rules no log is ignored: `active` and `all` read every
 * log and `ignored` none. Rules plug in here (a join on the rule that applies).
 */
function statusCondition(status: LogStatus): string | null {
  switch (status) {
    case 'active':
    case 'all':
      return null;
    case 'ignored':
      return '0';
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

export function sqliteLogs(db: Db): LogsStore {
  db.function(FOLD, { deterministic: true }, (s: unknown) =>
    typeof s === 'string' ? s.toLowerCase() : s,
  );

  return {
    async list(q) {
      if (q.projectIds.length === 0) return [];
      const where: string[] = [`project_id IN (${q.projectIds.map(() => '?').join(', ')})`];
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
        where.push(`${column} = ?`);
        args.push(value);
      }
      for (const f of q.attributeFilters) where.push(attributeCondition(f, args));
      if (q.since !== null) {
        where.push('occurred_at >= ?');
        args.push(q.since);
      }
      if (q.until !== null) {
        where.push('occurred_at < ?');
        args.push(q.until);
      }
      if (q.after !== null) {
        where.push('(occurred_at < ? OR (occurred_at = ? AND id < ?))');
        args.push(q.after.time, q.after.time, q.after.id);
      }
      args.push(q.limit);
      const sql = `SELECT ${COLUMNS} FROM logs WHERE ${where.join(' AND ')}
        ORDER BY occurred_at DESC, id DESC LIMIT ?`;
      return db
        .prepare<unknown[], LogDbRow>(sql)
        .all(...args)
        .map(toLog);
    },
    async byId(projectIds, id) {
      if (projectIds.length === 0) return null;
      const row = db
        .prepare<unknown[], LogDbRow>(
          `SELECT ${COLUMNS} FROM logs WHERE id = ? AND project_id IN (${projectIds
            .map(() => '?')
            .join(', ')}) ORDER BY occurred_at DESC, project_id LIMIT 1`,
        )
        .get(id, ...projectIds);
      return row ? toLog(row) : null;
    },
  };
}
