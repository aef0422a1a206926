import type { ServiceConfig } from '../core/config';
import { openPgPool, pgDatabase } from './postgres/pg-database';
import { dropPartitionsBefore } from './postgres/pg-partitions';

/**
 * `npm run service -- drop-telemetry-before <date>`: retention on PostgreSQL. Drops every
 * whole month of telemetry (logs, occurrences, spans, actions, metric samples, the log
 * attribute index) that ended by `date`, one `DROP TABLE` per partition instead of a long
 * `DELETE`. Rollups (release rows, volume, issue counts) keep their totals; an issue whose
 * every occurrence is gone leaves the lists. The SQLite store has no partitions.
 */
export async function dropTelemetryBefore(
  config: Pick<ServiceConfig, 'databaseUrl'> & { telemetry?: ServiceConfig['telemetry'] },
  date: string,
): Promise<{ ok: true; dropped: string[] } | { ok: false; error: string }> {
  if (!config.databaseUrl) {
    return { ok: false, error: 'drop-telemetry-before needs DATABASE_URL (PostgreSQL)' };
  }
  // Beside ClickHouse, PostgreSQL's occurrence months hold each issue group's first and latest
  // occurrence, which the issue reads join: dropping them would empty the lists.
  if (config.telemetry?.engine === 'clickhouse') {
    return {
      ok: false,
      error:
        'drop-telemetry-before is for PostgreSQL-only telemetry; with telemetry in ClickHouse the service deletes what is past retention every hour',
    };
  }
  const before = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN;
  if (Number.isNaN(before)) {
    return { ok: false, error: `the date must look like 2025-06-01, got ${JSON.stringify(date)}` };
  }
  const db = pgDatabase(openPgPool(config.databaseUrl, 1));
  try {
    return { ok: true, dropped: await db.tx((sql) => dropPartitionsBefore(sql, before)) };
  } finally {
    await db.close();
  }
}
