import type { ServiceConfig, TelemetryConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { journaledIngest } from './journaled-ingest';
import { openSqliteStore } from './sqlite-store';
import { sqliteIngestCommits } from './state/sqlite/ingest-commits';
import { sqliteLogRules } from './state/sqlite/log-rules';
import { openClickHouse, type ChDb } from './telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from './telemetry/clickhouse/clickhouse-migrations';
import { clickhouseActionInvestigations, clickhouseActions } from './telemetry/clickhouse/actions';
import { clickhouseLogs } from './telemetry/clickhouse/logs';
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';

/** The kinds whose reads have moved to ClickHouse; the others stay in SQLite's tables. */
const KINDS_IN_CLICKHOUSE = ['logs', 'actions'] as const;

type ClickHouseTelemetry = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

/**
 * State in SQLite, logs and actions in ClickHouse (the engine in this process, or
 * CLICKHOUSE_URL). The move is by area: logs and actions (with product analytics and the
 * action reads of investigations) are written to and read from ClickHouse; the other kinds
 * stay in SQLite's telemetry tables (written in the same state transaction that commits a
 * batch, see journaled-ingest.ts) until their reads move too. Before it serves, batches a
 * crash left half written are removed.
 */
export async function openClickHouseStore(
  config: Pick<ServiceConfig, 'dataDir'> & { telemetry: ClickHouseTelemetry },
  log?: Pick<Logger, 'error'>,
): Promise<Store & { clickhouse: ChDb }> {
  const ch = await openClickHouse(config.telemetry);
  let state: ReturnType<typeof openSqliteStore> | null = null;
  try {
    await migrateClickHouse(ch);
    state = openSqliteStore(config.dataDir);
    const base = state;
    const ingest = journaledIngest(
      sqliteIngestCommits(state.sqlite, (c) =>
        base.ingest.acceptWithItemsElsewhere(c.batch, c.receivedAt, c.quota, {
          batchId: c.batchId,
          items: c.elsewhere,
        }),
      ),
      await clickhouseTelemetryWrites(ch),
      KINDS_IN_CLICKHOUSE,
      log,
    );
    await ingest.recover();
    return {
      ...base,
      clickhouse: ch,
      ingest,
      logs: clickhouseLogs(ch, sqliteLogRules(base.sqlite)),
      actions: clickhouseActions(ch),
      investigations: { ...base.investigations, ...clickhouseActionInvestigations(ch) },
      close: async () => {
        await base.close();
        await ch.close();
      },
    };
  } catch (e) {
    await state?.close().catch(() => undefined);
    await ch.close().catch(() => undefined);
    throw e;
  }
}
