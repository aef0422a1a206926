import type { ServiceConfig, TelemetryConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { journaledIngest, type Recovered } from './journaled-ingest';
import { unmovedTables } from './move-telemetry';
import { openSqliteState } from './sqlite-store';
import { sqliteIngestCommits } from './state/sqlite/ingest-commits';
import { sqliteLogRules } from './state/sqlite/log-rules';
import { openClickHouse, type ChDb } from './telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from './telemetry/clickhouse/clickhouse-migrations';
import { clickhouseActionInvestigations, clickhouseActions } from './telemetry/clickhouse/actions';
import { clickhouseLogs } from './telemetry/clickhouse/logs';
import { clickhouseMetrics } from './telemetry/clickhouse/metrics';
import { expireTelemetry } from './telemetry/clickhouse/retention';
import {
  clickhouseOccurrenceInvestigations,
  clickhouseOccurrences,
  clickhouseTraceIssues,
} from './telemetry/clickhouse/occurrences';
import { sqliteIssueSummaries } from './state/sqlite/issue-summaries';
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';
import { spanListJson } from './telemetry/clickhouse/span-json';
import { clickhouseSpan, clickhouseTraces } from './telemetry/clickhouse/traces';
import { freezeTelemetry, type FrozenTelemetry } from './telemetry/clickhouse/freeze';
import { writeGate } from './telemetry/clickhouse/write-gate';

/** The telemetry kinds, all kept in ClickHouse (SQLite keeps none of their rows). */
export const KINDS_IN_CLICKHOUSE = ['issues', 'logs', 'actions', 'metrics', 'spans'] as const;

const TABLE_OF = {
  issues: 'issue_occurrences',
  logs: 'logs',
  spans: 'spans',
  actions: 'actions',
  metrics: 'metric_samples',
};

/** The SQLite telemetry tables of earlier versions whose rows `migrate` moves to ClickHouse. */
export const TABLES_IN_CLICKHOUSE: ReadonlySet<string> = new Set(
  KINDS_IN_CLICKHOUSE.map((k) => TABLE_OF[k]),
);

type ClickHouseTelemetry = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

export type ClickHouseStoreExtras = {
  clickhouse: ChDb;
  /** What the start-up check removed (see journaled-ingest.ts). */
  recovered: Recovered;
  /**
   * The embedded engine: a snapshot of every telemetry table with no batch half written (a
   * backup's telemetry step, asked for over the control socket). Null on a server.
   */
  freezeTelemetry: ((name: string) => Promise<FrozenTelemetry>) | null;
  /** Deletes telemetry past its plan's retention at `now`; rows deleted per table. */
  expireTelemetry: (now: number) => Promise<Record<string, number>>;
};

/** The ClickHouse store's extras, when `store` is one. */
export const clickhouseExtras = (store: Store): ClickHouseStoreExtras | null =>
  'freezeTelemetry' in store ? (store as Store & ClickHouseStoreExtras) : null;

/**
 * The default deployment: state in SQLite, telemetry in ClickHouse (the engine in this
 * process, or CLICKHOUSE_URL). Every kind is written to and read from ClickHouse; SQLite counts
 * each batch at its commit (usage, issue groups, rollups; see journaled-ingest.ts). Before it
 * serves, batches a crash left half written are removed.
 */
export async function openClickHouseStore(
  config: Pick<ServiceConfig, 'dataDir'> & { telemetry: ClickHouseTelemetry },
  log?: Pick<Logger, 'error'>,
): Promise<Store & ClickHouseStoreExtras> {
  const ch = await openClickHouse(config.telemetry);
  const gate = writeGate();
  let state: ReturnType<typeof openSqliteState> | null = null;
  try {
    await migrateClickHouse(ch);
    state = openSqliteState(config.dataDir);
    const { sqlite, commitBatch, occurrenceHours, releaseRows, ...base } = state;
    const unmoved = unmovedTables(sqlite, KINDS_IN_CLICKHOUSE, Date.now());
    if (unmoved.length > 0)
      throw new Error(
        `this data directory keeps telemetry in SQLite (${unmoved.join(', ')}) that ClickHouse does not have yet; ` +
          'move it first with LOOKOUT_TELEMETRY=clickhouse npm run service -- migrate (resumable), then start again',
      );
    const ingest = journaledIngest(
      sqliteIngestCommits(sqlite, (c) =>
        commitBatch(c.batch, c.receivedAt, c.quota, {
          batchId: c.batchId,
          items: c.elsewhere,
        }),
      ),
      await clickhouseTelemetryWrites(ch, gate),
      KINDS_IN_CLICKHOUSE,
      log,
    );
    const recovered = await ingest.recover();
    const embeddedPath = config.telemetry.url === null ? config.telemetry.embeddedPath : null;
    return {
      ...base,
      clickhouse: ch,
      recovered,
      freezeTelemetry: embeddedPath
        ? (name) => gate.exclusive(() => freezeTelemetry(ch, embeddedPath, name))
        : null,
      expireTelemetry: (now) => gate.shared(() => expireTelemetry(ch, now)),
      ingest,
      logs: clickhouseLogs(ch, sqliteLogRules(sqlite)),
      actions: clickhouseActions(ch),
      metrics: clickhouseMetrics(ch),
      occurrences: clickhouseOccurrences(ch, occurrenceHours),
      traces: {
        ...clickhouseTraces(ch),
        spanListJson: (scope) => spanListJson(ch, scope),
        issues: clickhouseTraceIssues(ch),
      },
      investigations: {
        releaseRows,
        ...clickhouseOccurrenceInvestigations(ch, sqliteIssueSummaries(sqlite)),
        ...clickhouseActionInvestigations(ch),
        span: (scope, spanId) => clickhouseSpan(ch, scope, spanId),
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
