import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../domain/plans';
import { emptyBatch, type Batch, type LogEvent, type SpanEvent } from '../core/batch';
import type { QuotaContext } from '../core/store/telemetry/ingest';
import type { TelemetryConfig } from '../core/config';
import type { StateStore } from '../core/store/store';
import { dropTestTelemetry, processEnginePath } from '../test-support/test-clickhouse';
import { openClickHouseStore } from './clickhouse-store';
import { journaledIngest } from './journaled-ingest';
import type { IngestCommitStore } from '../core/store/state/ingest-commits';
import {
  createTestDatabase,
  testDatabaseServer,
  type TestDatabase,
} from '../test-support/test-database';
import type { PgContext } from './postgres/pg-context';
import { holdTelemetryOwner } from './telemetry-owner';
import { openPostgresState } from './postgres-store';
import { openSqliteState } from './sqlite-store';
import { sessionLocks } from './postgres/session-locks';
import { pgIngestCommits } from './state/postgres/ingest-commits';
import { sqliteIngestCommits } from './state/sqlite/ingest-commits';
import { openClickHouse } from './telemetry/clickhouse/clickhouse-db';
import { clickhouseTelemetryWrites } from './telemetry/clickhouse/telemetry-writes';
import { sql } from './rows/sql';
import { migrateClickHouse } from './telemetry/clickhouse/clickhouse-migrations';

/**
 * Exactly once across two stores (journaled-ingest.ts): SQLite state beside logs in
 * ClickHouse, or PostgreSQL state with LOOKOUT_TEST_DATABASE_URL (`npm run test:pg`). A process that dies between the ClickHouse write and the state commit is
 * played by a commit that never answers and a store that is then abandoned; the next start
 * must leave no trace of the unacknowledged batch, and its re-send must be stored whole.
 * On the engine in this process (or CLICKHOUSE_URL), a database per test.
 */

const NOW = Date.parse('2026-11-23T04:00:00.000Z');
const PROJECT = 'p_journal';
const QUOTA: QuotaContext = {
  accountId: 'a_journal',
  periodStart: Date.parse('2026-11-23T00:00:00.000Z'),
  quotas: defaultPlanQuotas.pro,
  retentionDays: 30,
};

const log = (n: number): LogEvent => {
  const attributes = { n, ok: n % 2 === 0 };
  const attributesJson = JSON.stringify(attributes);
  return {
    kind: 'log',
    id: randomUUID(),
    release: 'shop@1',
    environment: 'production',
    service_name: 'api',
    sdk: { name: 'test', version: '1' },
    occurredAt: NOW - n * 1000,
    severity: 'info',
    message: `line ${String(n)}`,
    source: 'app',
    attributes,
    traceId: null,
    spanId: null,
    attributesJson,
    bytes: attributesJson.length + 8,
  };
};

const batchOf = (logs: LogEvent[]): Batch => ({ ...emptyBatch(PROJECT), logs });

const TRACE = 'ab'.repeat(16);

const span = (n: number, o: Partial<SpanEvent> = {}): SpanEvent => ({
  kind: 'trace_span',
  id: randomUUID(),
  release: 'shop@1',
  environment: 'production',
  service_name: 'api',
  sdk: { name: 'test', version: '1' },
  traceId: TRACE,
  spanId: n.toString(16).padStart(16, '0'),
  parentSpanId: 'f'.repeat(16),
  name: `step ${String(n)}`,
  operation: 'internal',
  spanKind: 'internal',
  startedAt: NOW - 60_000 + n * 10,
  durationMs: 5,
  status: null,
  statusMessage: null,
  attributes: {},
  events: [],
  ...o,
});

let dir: string;
let database: TestDatabase;
let telemetry: Extract<TelemetryConfig, { engine: 'clickhouse' }>;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-journal-'));
  database = await createTestDatabase();
  telemetry = {
    engine: 'clickhouse',
    url: process.env.CLICKHOUSE_URL?.trim() || null,
    database: `lookout_j_${randomBytes(6).toString('hex')}`,
    embeddedPath: processEnginePath(),
  };
});

afterEach(async () => {
  await dropTestTelemetry(telemetry);
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const open = () => openClickHouseStore({ dataDir: dir, databaseUrl: database.url, telemetry });

/**
 * The state store alone with its side of the journal, as a process would hold it before it
 * dies: no lock across instances (a dead process's locks go with its connections).
 */
async function openStateWithJournal(): Promise<{
  state: StateStore & { close(): Promise<void> };
  commits: IngestCommitStore;
}> {
  const unreachable = () => {
    throw new Error('unreachable');
  };
  if (database.url) {
    const state = await openPostgresState(database.url);
    const locks = sessionLocks(database.url);
    const { exclusive: _none, ...commits } = pgIngestCommits(state.pg, locks);
    return {
      state: {
        ...state,
        close: async () => {
          await locks.close();
          await state.close();
        },
      },
      commits,
    };
  }
  const state = openSqliteState(dir);
  return { state, commits: sqliteIngestCommits(state.sqlite, unreachable) };
}

/** The account and project a batch is counted against, in the state store. */
async function seedProject(store: StateStore): Promise<void> {
  await store.accounts.create({
    id: QUOTA.accountId,
    email: 'journal@example.test',
    name: null,
    passwordHash: 'x',
    createdAt: NOW,
    revokedBefore: null,
  });
  await store.accounts.createOrganization({
    id: 'o_journal',
    slug: 'journal',
    name: 'J',
    createdAt: NOW,
  });
  await store.accounts.addMember({
    organizationId: 'o_journal',
    accountId: QUOTA.accountId,
    role: 'owner',
  });
  await store.projects.create({
    id: PROJECT,
    organizationId: 'o_journal',
    slug: 'j',
    name: 'J',
    createdAt: NOW,
  });
}

async function logCount(ids: string[]): Promise<number> {
  const db = await openClickHouse(telemetry);
  try {
    const row = await db.one<{ n: number }>(
      sql`SELECT toUInt32(count()) AS n FROM logs WHERE project_id = ${PROJECT} AND id IN ${ids}`,
    );
    return row?.n ?? -1;
  } finally {
    await db.close();
  }
}

describe('a journaled ingest', () => {
  it('leaves nothing of a batch whose state commit never happened, and stores its re-send whole', async () => {
    const batch = batchOf(Array.from({ length: 50 }, (_, i) => log(i)));
    const ids = batch.logs.map((l) => l.id);

    // The first life: the logs reach ClickHouse, then the process "dies" before the commit.
    const { state, commits } = await openStateWithJournal();
    await seedProject(state);
    const ch = await openClickHouse(telemetry);
    await migrateClickHouse(ch);
    let written!: () => void;
    const reachedCommit = new Promise<void>((resolve) => (written = resolve));
    const dying = journaledIngest(
      {
        ...commits,
        commit: () => {
          written();
          return new Promise(() => undefined);
        },
      },
      await clickhouseTelemetryWrites(ch),
      ['logs'],
    );
    void dying.accept(batch, NOW, QUOTA);
    await reachedCommit;
    expect((await ch.rows<{ n: number }>(sql`SELECT toUInt32(count()) AS n FROM logs`))[0]?.n).toBe(
      50,
    );
    await state.close();
    await ch.close();

    // The next start removes what the unacknowledged batch wrote.
    const store = await open();
    // The catalog's whole hours come from the rollups the views fed at the first write.
    const catalog = async () => {
      const c = await store.logs.catalog({
        projectIds: [PROJECT],
        since: NOW - 2 * 3_600_000,
        severity: null,
        type: null,
        search: null,
        after: null,
        limit: 10,
      });
      return { logs: c.coverage.total_logs, paths: c.attributes.map((a) => a.observedCount) };
    };
    try {
      expect(await logCount(ids)).toBe(0);
      expect(await catalog()).toEqual({ logs: 0, paths: [] });
      const again = await store.ingest.accept(batch, NOW, QUOTA);
      expect(again.counts.logs).toBe(50);
      expect(again.alreadyAccepted).toBe(0);
      expect(await logCount(ids)).toBe(50);
      expect(await catalog()).toEqual({ logs: 50, paths: [50, 50] });
    } finally {
      await store.close();
    }
  });

  it('takes a removed batch back out of trace discovery, whatever it changed of the trace', async () => {
    const store = await open();
    try {
      await seedProject(store);
      const kept = [span(1), span(2), span(3, { service_name: 'db' })];
      await store.ingest.accept({ ...emptyBatch(PROJECT), spans: kept }, NOW, QUOTA);
      // A batch written to ClickHouse whose commit never came: an earlier root, an error, a
      // later end and a service of its own, all in the same trace.
      const ch = await openClickHouse(telemetry);
      const writes = await clickhouseTelemetryWrites(ch);
      const batchId = randomUUID();
      const lost = [
        span(0, { parentSpanId: null, name: 'GET /checkout', startedAt: NOW - 120_000 }),
        span(4, { status: 'error', durationMs: 90_000, service_name: 'payments' }),
      ];
      await writes.write({
        batchId,
        projectId: PROJECT,
        receivedAt: NOW,
        retentionDays: 30,
        items: { issues: [], issueGroups: [], logs: [], spans: lost, actions: [], metrics: [] },
      });
      const discover = async () => {
        const [row] = await store.traces.discover({
          projectIds: [PROJECT],
          serviceName: null,
          release: null,
          environment: null,
          status: null,
          since: null,
          minDurationMs: null,
          after: null,
          limit: 10,
        });
        return (
          row && [row.spanCount, row.errorSpanCount, row.startedAt, row.root.name, row.services]
        );
      };
      expect(await discover()).toEqual([
        5,
        1,
        NOW - 120_000,
        'GET /checkout',
        ['api', 'db', 'payments'],
      ]);

      await writes.remove([batchId]);
      await ch.close();
      expect(await discover()).toEqual([3, 0, NOW - 60_000 + 10, 'step 1', ['api', 'db']]);
      const scope = { traceId: TRACE, projectIds: [PROJECT], release: null, environment: null };
      expect((await store.traces.spans(scope)).map((s) => s.name)).toEqual(kept.map((s) => s.name));
    } finally {
      await store.close();
    }
  });

  it('answers a re-sent or repeated log as already accepted, and stores concurrent copies once', async () => {
    const store = await open();
    await seedProject(store);
    try {
      const logs = Array.from({ length: 20 }, (_, i) => log(i));
      const first = await store.ingest.accept(batchOf(logs.slice(0, 10)), NOW, QUOTA);
      expect(first.counts.logs).toBe(10);
      // Ten already stored, ten new, one of them twice in the batch.
      const second = await store.ingest.accept(
        batchOf([...logs, logs[15] as LogEvent]),
        NOW,
        QUOTA,
      );
      expect(second.counts.logs).toBe(10);
      expect(second.alreadyAccepted).toBe(11);
      // The same new batch twice at once: stored once.
      const fresh = batchOf(Array.from({ length: 10 }, (_, i) => log(100 + i)));
      const both = await Promise.all([
        store.ingest.accept(fresh, NOW, QUOTA),
        store.ingest.accept(fresh, NOW, QUOTA),
      ]);
      expect(both.map((r) => r.counts.logs).sort()).toEqual([0, 10]);
      expect(await logCount([...logs, ...fresh.logs].map((l) => l.id))).toBe(30);
    } finally {
      await store.close();
    }
  });
  it('still answers already accepted after a restart on the same data, for every kind', async () => {
    // The filter of accepted ids (ledger-filter.ts) is rebuilt from the ledger at each start.
    const logs = Array.from({ length: 20 }, (_, i) => log(i));
    const spans = [span(1), span(2)];
    const first = await open();
    try {
      await seedProject(first);
      const r = await first.ingest.accept({ ...batchOf(logs.slice(0, 10)), spans }, NOW, QUOTA);
      expect([r.counts.logs, r.counts.trace_spans]).toEqual([10, 2]);
    } finally {
      await first.close();
    }
    const again = await open();
    try {
      // The same batch re-sent: all already accepted.
      const resent = await again.ingest.accept(
        { ...batchOf(logs.slice(0, 10)), spans },
        NOW,
        QUOTA,
      );
      expect([resent.counts.logs, resent.counts.trace_spans, resent.alreadyAccepted]).toEqual([
        0, 0, 12,
      ]);
      // Half of it old, half new; then the new half again.
      const half = await again.ingest.accept(batchOf(logs.slice(5, 15)), NOW, QUOTA);
      expect([half.counts.logs, half.alreadyAccepted]).toEqual([5, 5]);
      const newHalf = await again.ingest.accept(batchOf(logs.slice(10, 20)), NOW, QUOTA);
      expect([newHalf.counts.logs, newHalf.alreadyAccepted]).toEqual([5, 5]);
      expect(await logCount(logs.map((l) => l.id))).toBe(20);
    } finally {
      await again.close();
    }
  });

  /** A journaled ingest on SQLite and ClickHouse that records the size of each group written. */
  async function groupingIngest(failing: () => Batch | null = () => null) {
    const state = openSqliteState(dir);
    await seedProject(state);
    const ch = await openClickHouse(telemetry);
    await migrateClickHouse(ch);
    const { sqlite, commitBatch } = state;
    const writes = await clickhouseTelemetryWrites(ch);
    const groups: number[] = [];
    const ingest = journaledIngest(
      sqliteIngestCommits(sqlite, (c) => {
        if (c.batch === failing()) throw new Error('commit failed');
        return commitBatch(c.batch, c.receivedAt, c.quota, {
          batchId: c.batchId,
          items: c.elsewhere,
        });
      }),
      {
        ...writes,
        writeGroup: (ws) => {
          groups.push(ws.length);
          return writes.writeGroup(ws);
        },
      },
      ['logs'],
    );
    return { ingest, groups, ch, state };
  }

  it('writes requests that arrive together as one group, each answered for itself', async () => {
    // The third request's commit fails: its rows go, the rest of its group stays.
    let failing: Batch | null = null;
    const { ingest, groups, ch, state } = await groupingIngest(() => failing);
    try {
      const logs = Array.from({ length: 50 }, (_, i) => log(i));
      const [b0, b1, b2, b3, b4] = [0, 10, 20, 30, 40].map((from) =>
        batchOf(logs.slice(from, from + 10)),
      ) as [Batch, Batch, Batch, Batch, Batch];
      // The fourth repeats five of the second's logs: it waits for the group after.
      const b3Clash = batchOf([...b3.logs.slice(0, 5), ...b1.logs.slice(0, 5)]);
      failing = b2;
      const results = await Promise.allSettled(
        [b0, b1, b2, b3Clash, b4].map((b) => ingest.accept(b, NOW, QUOTA)),
      );
      const answers = results.map((r) =>
        r.status === 'fulfilled' ? [r.value.counts.logs, r.value.alreadyAccepted] : 'failed',
      );
      expect(answers).toEqual([[10, 0], [10, 0], 'failed', [5, 5], [10, 0]]);
      // The requests that arrived together, stopping before the one that repeats an id of
      // the group; then it and the last.
      expect(groups).toEqual([3, 2]);
      expect(await logCount(logs.map((l) => l.id))).toBe(35);
      expect(await logCount(b2.logs.map((l) => l.id))).toBe(0);
      // Each row under its own request's batch: the failed one's went alone.
      const batches = await ch.rows<{ n: number }>(
        sql`SELECT toUInt32(uniqExact(batch_id)) AS n FROM logs WHERE project_id = ${PROJECT}`,
      );
      expect(batches[0]?.n).toBe(4);
      // Its re-send is stored whole.
      failing = null;
      const again = await ingest.accept(b2, NOW, QUOTA);
      expect([again.counts.logs, again.alreadyAccepted]).toEqual([10, 0]);
      expect(await logCount(logs.map((l) => l.id))).toBe(45);
    } finally {
      await state.close();
      await ch.close();
    }
  });

  it('waits for a request announced as arriving, and writes it with the one before', async () => {
    const { ingest, groups, ch, state } = await groupingIngest();
    try {
      const logs = Array.from({ length: 20 }, (_, i) => log(i));
      // Two requests announced, as the ingest routes announce each.
      const leaves = [ingest.arriving(PROJECT), ingest.arriving(PROJECT)];
      const first = ingest.accept(batchOf(logs.slice(0, 10)), NOW, QUOTA);
      // The announced request's batch comes later than the first's group would have started.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      const second = ingest.accept(batchOf(logs.slice(10)), NOW, QUOTA);
      for (const leave of leaves) leave();
      const answers = await Promise.all([first, second]);
      expect(answers.map((a) => a.counts.logs)).toEqual([10, 10]);
      expect(groups).toEqual([2]);
      expect(await logCount(logs.map((l) => l.id))).toBe(20);
    } finally {
      await state.close();
      await ch.close();
    }
  });

  it('writes a retried group once', async () => {
    const ch = await openClickHouse(telemetry);
    try {
      await migrateClickHouse(ch);
      const writes = await clickhouseTelemetryWrites(ch);
      const group = [0, 10].map((from) => ({
        batchId: randomUUID(),
        projectId: PROJECT,
        receivedAt: NOW,
        retentionDays: 30,
        items: {
          issues: [],
          issueGroups: [],
          logs: Array.from({ length: 10 }, (_, i) => log(from + i)),
          spans: [],
          actions: [],
          metrics: [],
        },
      }));
      await writes.writeGroup(group);
      await writes.writeGroup(group);
      const ids = group.flatMap((b) => b.items.logs.map((l) => l.id));
      expect(await logCount(ids)).toBe(20);
      const found = await writes.storedIds(
        PROJECT,
        { issue: [], log: ids, span: [], action: [], metric: [] },
        new Set(),
      );
      expect(found.log).toHaveLength(20);
    } finally {
      await ch.close();
    }
  });
});

describe.skipIf(testDatabaseServer() === null)('instances on one PostgreSQL state', () => {
  const pgOf = (store: object): PgContext => {
    if (!('pg' in store)) throw new Error('not on PostgreSQL state');
    return store.pg as PgContext;
  };

  it('store a batch sent to two of them at once once, and count it once', async () => {
    // Two stores on one schema and one ClickHouse database: two instances (in one process they
    // share the embedded engine, as instances share a server).
    const a = await open();
    const b = await open();
    try {
      await seedProject(a);
      const sent: LogEvent[] = [];
      for (let round = 0; round < 3; round++) {
        const logs = Array.from({ length: 30 }, (_, i) => log(round * 100 + i));
        sent.push(...logs);
        const both = await Promise.all([
          a.ingest.accept(batchOf(logs), NOW, QUOTA),
          b.ingest.accept(batchOf(logs), NOW, QUOTA),
        ]);
        expect(both.map((r) => r.counts.logs).sort((x, y) => x - y)).toEqual([0, 30]);
        expect(both.map((r) => r.alreadyAccepted).sort((x, y) => x - y)).toEqual([0, 30]);
      }
      expect(await logCount(sent.map((l) => l.id))).toBe(90);
      const usage = await pgOf(a).db.one<{ n: number }>(
        sql`SELECT SUM(events) AS n FROM usage_counters WHERE project_id = ${PROJECT}`,
      );
      expect(usage?.n).toBe(90);
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('refuse one on a ClickHouse server while one with its own engine runs', async () => {
    const a = await open();
    const { schema } = pgOf(a);
    try {
      await expect(holdTelemetryOwner(database.url ?? '', schema, false)).rejects.toThrow(
        'an instance with its own embedded ClickHouse engine uses this DATABASE_URL',
      );
    } finally {
      await a.close();
    }
    // Once it stopped, instances on a server share the database.
    const release = await holdTelemetryOwner(database.url ?? '', schema, false);
    await release();
  });
});
