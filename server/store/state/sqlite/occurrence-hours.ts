import type { OccurrencesStore } from '../../../core/store/telemetry/occurrences';
import type Database from 'better-sqlite3';
import { hourOf } from '../../../domain/issue-histogram';
import type { Db } from '../../sqlite/database';
import { placeholders } from '../../sqlite/sqlite-sql';

const occurrenceHourUpserts = new WeakMap<Db, Database.Statement<[string, number]>>();

/**
 * Adds one stored occurrence to its issue's hour in `issue_occurrence_hours` (ingestion calls it
 * inside its transaction for each occurrence it really stores). The statement is prepared once
 * per database.
 */
export function countOccurrenceHour(db: Db, issueId: string, occurredAt: number): void {
  let upsert = occurrenceHourUpserts.get(db);
  if (!upsert) {
    upsert = db.prepare<
      [string, number]
    >(`INSERT INTO issue_occurrence_hours (issue_id, hour, occurrences)
      VALUES (?, ?, 1)
      ON CONFLICT (issue_id, hour) DO UPDATE SET occurrences = occurrences + 1`);
    occurrenceHourUpserts.set(db, upsert);
  }
  upsert.run(issueId, hourOf(occurredAt));
}

/** Per-hour occurrence counts of issue groups (`issue_occurrence_hours`, counted at commit). */
export function sqliteOccurrenceHours(db: Db): Pick<OccurrencesStore, 'hours'> {
  return {
    async hours({ projectIds, issueIds, fromHour, toHour }) {
      if (projectIds.length === 0 || issueIds.length === 0) return { readable: [], hours: [] };
      const readable = db
        .prepare<unknown[], { id: string }>(
          `SELECT id FROM issues WHERE id IN (${placeholders(issueIds.length)})
             AND project_id IN (${placeholders(projectIds.length)})`,
        )
        .all(...issueIds, ...projectIds)
        .map((r) => r.id);
      if (readable.length === 0) return { readable, hours: [] };
      const hours = db
        .prepare<unknown[], { issueId: string; hour: number; occurrences: number }>(
          `SELECT issue_id AS issueId, hour, occurrences FROM issue_occurrence_hours
           WHERE issue_id IN (${placeholders(readable.length)}) AND hour >= ? AND hour < ?`,
        )
        .all(...readable, fromHour, toHour);
      return { readable, hours };
    },
  };
}
