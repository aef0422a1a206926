import type { ServiceConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { openClickHouseStore } from './clickhouse-store';
import { openPostgresStore } from './postgres-store';
import { openSqliteStore } from './sqlite-store';

/**
 * PostgreSQL when `DATABASE_URL` is set, else the SQLite file in the data directory; with
 * `LOOKOUT_TELEMETRY=clickhouse`, telemetry in ClickHouse beside SQLite's state.
 */
export async function openStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl' | 'telemetry'>,
  log?: Pick<Logger, 'error'>,
): Promise<Store> {
  const { telemetry } = config;
  if (telemetry.engine === 'clickhouse') {
    if (config.databaseUrl)
      throw new Error(
        'LOOKOUT_TELEMETRY=clickhouse keeps state in SQLite for now; unset DATABASE_URL (PostgreSQL state beside ClickHouse is not built yet)',
      );
    return openClickHouseStore({ dataDir: config.dataDir, telemetry }, log);
  }
  return config.databaseUrl
    ? openPostgresStore(config.databaseUrl)
    : openSqliteStore(config.dataDir);
}
