import type { ServiceConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { StateStore, Store } from '../core/store/store';
import { openSqliteState } from './sqlite-store';
import { openClickHouseStore } from './clickhouse-store';
import { openPostgresStore } from './postgres-store';

/**
 * The default: state in the data directory's SQLite file, telemetry in ClickHouse (embedded,
 * or CLICKHOUSE_URL). With `DATABASE_URL`: state in PostgreSQL, telemetry in ClickHouse when
 * CLICKHOUSE_URL or LOOKOUT_TELEMETRY=clickhouse says so, else PostgreSQL for both
 * ("PostgreSQL only").
 */
export async function openStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl' | 'telemetry'>,
  log?: Pick<Logger, 'error'>,
): Promise<Store> {
  const { telemetry } = config;
  if (telemetry.engine === 'clickhouse')
    return openClickHouseStore(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl, telemetry },
      log,
    );
  if (!config.databaseUrl)
    throw new Error(
      'SQLite keeps state only: its telemetry goes to ClickHouse (LOOKOUT_TELEMETRY)',
    );
  return openPostgresStore(config.databaseUrl);
}

/**
 * The state tier alone (operator commands that change plans or read tickets): the embedded
 * ClickHouse engine's directory is locked by the running service, and they need none of it.
 */
export async function openStateStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'>,
): Promise<StateStore & { close(): Promise<void> }> {
  return config.databaseUrl
    ? openPostgresStore(config.databaseUrl)
    : openSqliteState(config.dataDir);
}
