import type { Severity } from '../../../domain/severity';
import type { LogRulesStore } from '../../../core/store/state/log-rules';
import type { LogRule } from '../../../core/store/telemetry/logs';
import type { Db } from '../../sqlite/database';

/** Log triage rules on SQLite, for logs kept in another engine. */
export function sqliteLogRules(db: Db): LogRulesStore {
  const all = db.prepare<[string], { key: string; severity: Severity | null; ignored: number }>(
    `SELECT triage_key AS key, severity_override AS severity, ignored FROM log_triage_rules
     WHERE project_id = ?`,
  );
  const upsert = db.prepare(`INSERT INTO log_triage_rules
    (project_id, triage_key, severity_override, ignored, updated_at, updated_by)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (project_id, triage_key) DO UPDATE SET severity_override = excluded.severity_override,
      ignored = excluded.ignored, updated_at = excluded.updated_at, updated_by = excluded.updated_by`);
  const remove = db.prepare('DELETE FROM log_triage_rules WHERE project_id = ? AND triage_key = ?');
  return {
    async ofProject(projectId) {
      const rules = new Map<string, LogRule>();
      for (const r of all.all(projectId))
        rules.set(r.key, { severity: r.severity, ignored: r.ignored === 1 });
      return rules;
    },
    async set({ projectId, triageKey, rule, at, by }) {
      if (rule === null) remove.run(projectId, triageKey);
      else upsert.run(projectId, triageKey, rule.severity, rule.ignored ? 1 : 0, at, by);
    },
  };
}
