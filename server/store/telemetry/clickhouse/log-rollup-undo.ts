import { raw } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import { CATALOG_VIEW, COVERAGE_VIEW } from './clickhouse-schema';

/**
 * Takes logs out of the catalog rollups before they are deleted: the rollups count what their
 * views saw inserted, so the logs' counts are added negated, under `token` (a step run again
 * adds them once). `rows` is a subquery text selecting the logs (`(SELECT * FROM logs …)`),
 * built by the caller from checked values only. The value hours keep listing the hours (a cost
 * to read, never a wrong answer).
 */
export async function takeLogsOutOfRollups(db: ChDb, rows: string, token: string): Promise<void> {
  await db.command(
    raw(`INSERT INTO log_attribute_hours SETTINGS insert_deduplication_token = '${token}'
      SELECT project_id, hour, severity, type, path, negate(observed), last_seen_at
      FROM (${CATALOG_VIEW.select(rows)})`),
  );
  await db.command(
    raw(`INSERT INTO log_coverage_hours SETTINGS insert_deduplication_token = '${token}'
      SELECT project_id, hour, severity, negate(indexed), negate(partial), negate(unindexed)
      FROM (${COVERAGE_VIEW.select(rows)})`),
  );
}
