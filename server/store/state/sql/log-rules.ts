import type { Severity } from '../../../domain/severity';
import type { LogRulesStore } from '../../../core/store/state/log-rules';
import type { LogRule } from '../../../core/store/telemetry/logs';
import { sql, type SqlRunner } from '../../rows/sql';

/** Log triage rules in the state store, for logs kept in another engine: the same SQL on both. */
export function sqlLogRules(db: SqlRunner): LogRulesStore {
  return {
    async ofProject(projectId) {
      const rules = new Map<string, LogRule>();
      const rows = await db.rows<{ key: string; severity: Severity | null; ignored: number }>(
        sql`SELECT triage_key AS key, severity_override AS severity, ignored FROM log_triage_rules
          WHERE project_id = ${projectId}`,
      );
      for (const r of rows) rules.set(r.key, { severity: r.severity, ignored: r.ignored === 1 });
      return rules;
    },
    async set({ projectId, triageKey, rule, at, by }) {
      if (rule === null)
        await db.run(
          sql`DELETE FROM log_triage_rules WHERE project_id = ${projectId} AND triage_key = ${triageKey}`,
        );
      else
        await db.run(sql`INSERT INTO log_triage_rules
            (project_id, triage_key, severity_override, ignored, updated_at, updated_by)
          VALUES (${projectId}, ${triageKey}, ${rule.severity}, ${rule.ignored ? 1 : 0}, ${at}, ${by})
          ON CONFLICT (project_id, triage_key) DO UPDATE SET
            severity_override = excluded.severity_override, ignored = excluded.ignored,
            updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
    },
  };
}
