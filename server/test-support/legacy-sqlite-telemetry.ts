import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile, openDatabase } from '../store/sqlite/database';

/**
 * Data directories of versions that kept telemetry in SQLite (before ClickHouse became the
 * default), for the tests of `npm run service -- migrate`: their telemetry tables, exactly as
 * the migrations create them (read off a freshly migrated file), put back into a data
 * directory the current service has made, with rows written as those versions wrote them.
 */
const LEGACY_TABLES = ['logs', 'metric_samples'] as const;

export type LegacyLog = {
  id: string;
  occurredAt: number;
  severity: 'info' | 'warn' | 'error';
  message: string;
  attributes: Record<string, string | number | boolean>;
};
export type LegacySample = { eventId: string; occurredAt: number; name: string; value: number };
export type LegacyOccurrence = { id: string; occurredAt: number; title: string };

export function writeLegacyTelemetry(
  dataDir: string,
  projectId: string,
  rows: {
    logs: LegacyLog[];
    samples: LegacySample[];
    /** Occurrences by fingerprint: each fingerprint is one issue group. */
    occurrences: Map<string, LegacyOccurrence[]>;
  },
): void {
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-legacy-schema-'));
  const schema = openDatabase(fresh);
  const ddl = schema
    .prepare<[], { sql: string }>(
      `SELECT sql FROM sqlite_master WHERE sql IS NOT NULL
         AND tbl_name IN (${LEGACY_TABLES.map((t) => `'${t}'`).join(', ')})
       ORDER BY type DESC`,
    )
    .all()
    .map((r) => r.sql);
  schema.close();
  fs.rmSync(fresh, { recursive: true, force: true });

  const db = new Database(databaseFile(dataDir));
  const common = `'production', 'api@1.0.0', 'api', 'legacy-sdk', '1.0.0'`;
  db.transaction(() => {
    for (const statement of ddl) db.exec(statement);
    // Nothing has moved yet: this is the file as those versions left it.
    db.prepare('DELETE FROM telemetry_moves').run();
    const log = db.prepare(`INSERT INTO logs (id, project_id, occurred_at, severity, source,
      message, attributes, environment, release, service_name, sdk_name, sdk_version, bytes,
      received_at, triage_key, attributes_indexed)
      VALUES (?, ?, ?, ?, 'app', ?, ?, ${common}, ?, ?, ?, 1)`);
    for (const l of rows.logs) {
      const attributes = JSON.stringify(l.attributes);
      log.run(
        l.id,
        projectId,
        l.occurredAt,
        l.severity,
        l.message,
        attributes,
        attributes.length + l.message.length,
        l.occurredAt,
        `app|api|${l.message}`,
      );
    }
    const sample = db.prepare(`INSERT INTO metric_samples (id, event_id, project_id,
      occurred_at, name, kind, value, unit, temporality, attributes, environment, release,
      service_name, sdk_name, sdk_version, bytes, received_at)
      VALUES (?, ?, ?, ?, ?, 'gauge', ?, 'ms', NULL, '{}', ${common}, 40, ?)`);
    for (const m of rows.samples)
      sample.run(
        `s-${m.eventId}`,
        m.eventId,
        projectId,
        m.occurredAt,
        m.name,
        m.value,
        m.occurredAt,
      );
    const issue = db.prepare(`INSERT INTO issues (id, project_id, fingerprint, status,
      occurrence_count, first_seen_at, last_seen_at, latest_occurrence_seq)
      VALUES (?, ?, ?, 'unresolved', ?, ?, ?, 0)`);
    const occurrence = db.prepare(`INSERT INTO issue_occurrences (id, project_id, issue_id,
      occurred_at, severity, title, message, exception, stack_trace, attributes, environment,
      release, service_name, trace_id, span_id, breadcrumbs, breadcrumbs_truncated, sdk_name,
      sdk_version, received_at)
      VALUES (?, ?, ?, ?, 'error', ?, ?, NULL, NULL, '{}', 'production', 'api@1.0.0', 'api',
        NULL, NULL, NULL, 0, 'legacy-sdk', '1.0.0', ?)`);
    const latest = db.prepare('UPDATE issues SET latest_occurrence_seq = ? WHERE id = ?');
    let group = 0;
    for (const [fingerprint, list] of rows.occurrences) {
      const id = `00000000-0000-4000-8000-${String(++group).padStart(12, '0')}`;
      const times = list.map((o) => o.occurredAt);
      issue.run(id, projectId, fingerprint, list.length, Math.min(...times), Math.max(...times));
      let newest = { at: -Infinity, seq: 0 };
      for (const o of list) {
        const seq = Number(
          occurrence.run(o.id, projectId, id, o.occurredAt, o.title, o.title, o.occurredAt)
            .lastInsertRowid,
        );
        if (o.occurredAt >= newest.at) newest = { at: o.occurredAt, seq };
      }
      latest.run(newest.seq, id);
    }
  })();
  db.close();
}

/** Whether the data directory's SQLite file still has a table of that name. */
export function sqliteHasTable(dataDir: string, table: string): boolean {
  const db = new Database(databaseFile(dataDir), { readonly: true });
  try {
    return (
      db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !==
      undefined
    );
  } finally {
    db.close();
  }
}
