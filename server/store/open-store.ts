import type { ServiceConfig } from '../core/config';
import type { Store } from '../core/store/store';
import { openPostgresStore } from './postgres-store';
import { openSqliteStore } from './sqlite-store';

/** PostgreSQL when `DATABASE_URL` is set, else the SQLite file in the data directory. */
export async function openStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'>,
): Promise<Store> {
  return config.databaseUrl
    ? openPostgresStore(config.databaseUrl)
    : openSqliteStore(config.dataDir);
}
