import type { ServiceConfig, TelemetryConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { journaledIngest } from './journaled-ingest';
import { openSqliteStore } from './sqlite-store';
import { sqliteIngestCommits } from './state/sqlite/ingest-commits';
import { sqliteLogRules } from './state/sqlite/log-rules';
import { openClickHouse, type ChDb } from './telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from './telemetry/clickhouse/clickhouse-migrations';
import { clickhouseLogs } from './telemetry/clickhouse/logs';
import { clickhouseMetrics } from './telemetry/clickhouse/metrics';
import {
  clickhouseOccurrenceInvestigations,
  clickhouseOccurrences,
  clickhouseTraceIssues,
} from './telemetry/clickhouse/occurrences';
import { sqliteIssueSummaries } from './state/sqlite/issue-summaries';
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';

/** The kinds whose reads have moved to ClickHouse; the others stay in SQLite's tables. */
const KINDS_IN_CLICKHOUSE = ['issues', 'logs', 'metrics'] as const;

const TABLE_OF = {
  issues: 'issue_occurrences',
  logs: 'logs',
  spans: 'spans',
  actions: 'actions',
  metrics: 'metric_samples',
};

/** The telemetry tables whose rows are in ClickHouse (not in SQLite) in this deployment. */
export const TABLES_IN_CLICKHOUSE: ReadonlySet<string> = new Set(
  KINDS_IN_CLICKHOUSE.map((k) => TABLE_OF[k]),
);

type ClickHouseTelemetry = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

/**
 * State in SQLite, logs in ClickHouse (the engine in this process, or CLICKHOUSE_URL). The
 * move is by area: logs are written to and read from ClickHouse; the other kinds of telemetry
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
      metrics: clickhouseMetrics(ch),
      occurrences: clickhouseOccurrences(ch, base.occurrences),
      traces: { ...base.traces, issues: clickhouseTraceIssues(ch) },
      investigations: {
        ...base.investigations,
        ...clickhouseOccurrenceInvestigations(ch, sqliteIssueSummaries(base.sqlite)),
      },
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
