import type { ServiceConfig, TelemetryConfig } from '../core/config';
import type { Logger } from '../core/logger';
import type { Store } from '../core/store/store';
import { journaledIngest, type Recovered } from './journaled-ingest';
import { unmovedTables } from './move-telemetry';
import type { StateBesideClickHouse } from './clickhouse-state';
import { openPostgresState } from './postgres-store';
import { sessionLocks } from './postgres/session-locks';
import { holdTelemetryOwner } from './telemetry-owner';
import { openSqliteState } from './sqlite-store';
import { sqliteRunner } from './sqlite/sqlite-sql';
import { pgIngestCommits } from './state/postgres/ingest-commits';
import { sqlIssueSummaries } from './state/sql/issue-summaries';
import { sqlLogRules } from './state/sql/log-rules';
import { sqliteIngestCommits } from './state/sqlite/ingest-commits';
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
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';
import { spanListJson } from './telemetry/clickhouse/span-json';
import { clickhouseTraceSummary } from './telemetry/clickhouse/trace-summary';
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
 * Telemetry in ClickHouse (the engine in this process, or CLICKHOUSE_URL) beside the state
 * store: SQLite in the data directory (the default deployment), or PostgreSQL with
 * `databaseUrl`. Every kind is written to and read from ClickHouse; the state store counts
 * each batch at its commit (usage, issue groups, rollups; see journaled-ingest.ts), the same
 * way on either engine. Before it serves, batches a crash left half written are removed.
 */
export async function openClickHouseStore(
  config: Pick<ServiceConfig, 'dataDir'> & {
    databaseUrl?: string | null;
    telemetry: ClickHouseTelemetry;
  },
  log?: Pick<Logger, 'error'>,
): Promise<Store & ClickHouseStoreExtras> {
  const ch = await openClickHouse(config.telemetry);
  const gate = writeGate();
  let state: StateBesideClickHouse | null = null;
  try {
    await migrateClickHouse(ch);
    state = config.databaseUrl
      ? await postgresBesideClickHouse(config.databaseUrl, config.telemetry.url === null)
      : await sqliteBesideClickHouse(config.dataDir);
    const { ingestCommits, logRules, issueSummaries, occurrenceHours, releaseRows, ...base } =
      state;
    const ingest = journaledIngest(
      ingestCommits,
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
      logs: clickhouseLogs(ch, logRules),
      actions: clickhouseActions(ch),
      metrics: clickhouseMetrics(ch),
      occurrences: clickhouseOccurrences(ch, occurrenceHours),
      traces: {
        ...clickhouseTraces(ch),
        spanListJson: (scope) => spanListJson(ch, scope),
        summary: (scope) => clickhouseTraceSummary(ch, scope),
        issues: clickhouseTraceIssues(ch),
      },
      investigations: {
        releaseRows,
        ...clickhouseOccurrenceInvestigations(ch, issueSummaries),
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

/** SQLite state in the data directory, refused while it still keeps telemetry of its own. */
async function sqliteBesideClickHouse(dataDir: string): Promise<StateBesideClickHouse> {
  const { sqlite, commitBatch, ...state } = openSqliteState(dataDir);
  const unmoved = unmovedTables(sqlite, KINDS_IN_CLICKHOUSE, Date.now());
  if (unmoved.length > 0) {
    await state.close();
    throw new Error(
      `this data directory keeps telemetry in SQLite (${unmoved.join(', ')}) that ClickHouse does not have yet; ` +
        'move it first with LOOKOUT_TELEMETRY=clickhouse npm run service -- migrate (resumable), then start again',
    );
  }
  const sql = sqliteRunner(sqlite);
  return {
    ...state,
    ingestCommits: sqliteIngestCommits(sqlite, (c) =>
      commitBatch(c.batch, c.receivedAt, c.quota, { batchId: c.batchId, items: c.elsewhere }),
    ),
    logRules: sqlLogRules(sql),
    issueSummaries: sqlIssueSummaries(sql),
  };
}

/**
 * PostgreSQL state (`DATABASE_URL`), shared by every instance on the database: their batches
 * of one project take turns on a lock there (state/postgres/ingest-commits.ts). Its `pg`
 * context goes on to the store, so instances share the live feed and limits as in the
 * PostgreSQL-only deployment.
 */
async function postgresBesideClickHouse(
  url: string,
  embedded: boolean,
): Promise<StateBesideClickHouse> {
  const state = await openPostgresState(url);
  const release = await holdTelemetryOwner(url, state.pg.schema, embedded).catch(
    async (e: unknown) => {
      await state.close();
      throw e;
    },
  );
  const locks = sessionLocks(url);
  const { db } = state.pg;
  return {
    ...state,
    ingestCommits: pgIngestCommits(state.pg, locks),
    logRules: sqlLogRules(db),
    issueSummaries: sqlIssueSummaries(db),
    close: async () => {
      await locks.close();
      await release();
      await state.close();
    },
  };
}
