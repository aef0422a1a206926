import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { ServiceConfig } from '../core/config';
import { databaseFile, openDatabase } from './sqlite/database';
import { migratePg, openPgPool, pgDatabase } from './postgres/pg-database';
import { KINDS_IN_CLICKHOUSE } from './clickhouse-store';
import { moveTelemetry, type TableMoved } from './move-telemetry';
import { openClickHouse } from './telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from './telemetry/clickhouse/clickhouse-migrations';
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';

/**
 * `npm run service -- migrate`: brings the configured store (PostgreSQL with DATABASE_URL,
 * else the SQLite file in the data directory) to the newest schema; the versions before
 * and after. Instances migrate on start too; this runs it on its own, e.g. before a deploy.
 * With telemetry on ClickHouse (LOOKOUT_TELEMETRY=clickhouse) it also moves the telemetry
 * SQLite still holds there (move-telemetry.ts), which the service refuses to start without.
 */
export async function migrateStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'> & {
    telemetry?: ServiceConfig['telemetry'];
  },
  onChunk?: (table: string, moved: number) => void,
  chunkRows?: number,
): Promise<{
  store: 'postgres' | 'sqlite';
  from: number;
  to: number;
  /** With telemetry on ClickHouse: what moved there from SQLite's tables, per table. */
  moved?: TableMoved[];
}> {
  if (config.databaseUrl) {
    const db = pgDatabase(openPgPool(config.databaseUrl, 1));
    try {
      return { store: 'postgres', ...(await migratePg(db)) };
    } finally {
      await db.close();
    }
  }
  const file = databaseFile(config.dataDir);
  let from = 0;
  if (fs.existsSync(file)) {
    const probe = new Database(file, { readonly: true });
    from = probe.pragma('user_version', { simple: true }) as number;
    probe.close();
  }
  const db = openDatabase(config.dataDir);
  const to = db.pragma('user_version', { simple: true }) as number;
  try {
    const telemetry = config.telemetry;
    if (telemetry?.engine !== 'clickhouse') return { store: 'sqlite', from, to };
    const ch = await openClickHouse(telemetry);
    try {
      await migrateClickHouse(ch);
      const writes = await clickhouseTelemetryWrites(ch);
      const moved = await moveTelemetry(
        db,
        writes,
        KINDS_IN_CLICKHOUSE,
        Date.now(),
        onChunk,
        chunkRows,
      );
      return { store: 'sqlite', from, to, moved };
    } finally {
      await ch.close();
    }
  } finally {
    db.close();
  }
}
