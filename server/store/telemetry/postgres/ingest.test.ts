import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../../../domain/plans';
import { usagePeriod } from '../../../domain/usage';
import { emptyBatch, type Batch, type IssueEvent, type LogEvent } from '../../../core/batch';
import { createTestDatabase, testDatabaseServer } from '../../../test-support/test-database';
import type { TestDatabase } from '../../../test-support/test-database';
import { QuotaExceededError, type QuotaContext } from '../../../core/store/telemetry/ingest';
import type { Store } from '../../../core/store/store';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { sql, type SqlFragment } from '../../rows/sql';
import { dropPartitionsBefore } from '../../postgres/pg-partitions';
import { openPostgresStore } from '../../postgres-store';
import type { PgContext } from '../../postgres/pg-context';
import { pgTelemetry } from './ingest';

/**
 * The ingest write path with several service instances on one PostgreSQL schema (two stores,
 * each with its own pool): batches sent to both at once are stored once and checked against
 * the account's quota as if they had come one after the other, and a large batch is a fixed
 * number of statements. Runs only with LOOKOUT_TEST_DATABASE_URL set.
 */

const NOW = Date.parse('2026-11-23T04:00:00.000Z');
const CONTEXT = { release: 'shop@1', environment: 'production', service_name: 'api' };
const SDK = { name: 'test', version: '1' };

const log = (n: number): LogEvent => {
  const attributes = { n, route: `/r/${String(n % 7)}`, ok: n % 2 === 0 };
  const attributesJson = JSON.stringify(attributes);
  return {
    kind: 'log',
    id: randomUUID(),
    ...CONTEXT,
    sdk: SDK,
    occurredAt: NOW - n * 1000,
    severity: 'info',
    message: `line ${String(n)}`,
    source: 'app',
    attributes,
    traceId: null,
    spanId: null,
    attributesJson,
    bytes: Buffer.byteLength(`line ${String(n)}`) + Buffer.byteLength(attributesJson),
  };
};

const issue = (fingerprint: string, at = NOW): IssueEvent => ({
  kind: 'issue',
  id: randomUUID(),
  ...CONTEXT,
  sdk: SDK,
  occurredAt: at,
  severity: 'error',
  title: 'Boom',
  message: 'boom',
  exception: { type: 'Error', value: 'boom' },
  stackTrace: null,
  fingerprint,
  attributes: {},
  traceId: null,
  spanId: null,
  breadcrumbs: null,
  breadcrumbsTruncated: false,
});

const batchOf = (projectId: string, parts: Partial<Batch>): Batch => ({
  ...emptyBatch(projectId),
  ...parts,
});

/** The PostgreSQL context with every statement counted (inside transactions too). */
function counted(ctx: PgContext): { ctx: PgContext; statements: () => number } {
  let n = 0;
  const wrap = (s: Sql): Sql => ({
    rows: (q) => (n++, s.rows(q)),
    one: (q) => (n++, s.one(q)),
    run: (q) => (n++, s.run(q)),
  });
  const db: PgDb = { ...ctx.db, ...wrap(ctx.db), tx: (fn) => ctx.db.tx((tx) => fn(wrap(tx))) };
  return { ctx: { db, schema: ctx.schema }, statements: () => n };
}

describe.skipIf(testDatabaseServer() === null)('telemetry ingest on PostgreSQL', () => {
  let database: TestDatabase;
  let one: Store & { pg: PgContext };
  let two: Store & { pg: PgContext };
  const accountId = randomUUID();
  const projects = [randomUUID(), randomUUID()];
  const quota = (quotas: Partial<QuotaContext['quotas']> = {}): QuotaContext => ({
    accountId,
    periodStart: usagePeriod(NOW).start,
    quotas: { ...defaultPlanQuotas.scale, ...quotas },
  });

  beforeAll(async () => {
    database = await createTestDatabase();
    one = await openPostgresStore(database.url ?? '');
    two = await openPostgresStore(database.url ?? '');
    await one.accounts.create({
      id: accountId,
      email: `${accountId}@example.test`,
      name: null,
      passwordHash: 'x',
      createdAt: NOW,
      revokedBefore: null,
    });
    const organizationId = randomUUID();
    await one.accounts.createOrganization({
      id: organizationId,
      slug: `org-${organizationId}`,
      name: 'Org',
      createdAt: NOW,
    });
    await one.accounts.addMember({ organizationId, accountId, role: 'owner' });
    for (const id of projects)
      await one.projects.create({
        id,
        organizationId,
        slug: `p-${id}`,
        name: 'P',
        createdAt: NOW,
      });
  }, 30_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  const count = async (q: SqlFragment) => (await one.pg.db.one<{ n: number }>(q))?.n ?? 0;

  it('the same batch sent to two instances at once is stored once; one answer says already accepted', async () => {
    const fingerprint = `fp-${randomUUID()}`;
    const batch = batchOf(projects[0] ?? '', {
      logs: Array.from({ length: 40 }, (_, i) => log(i)),
      issues: Array.from({ length: 5 }, (_, i) => issue(fingerprint, NOW - i)),
    });
    const results = await Promise.all([
      one.ingest.accept(batch, NOW, quota()),
      two.ingest.accept(batch, NOW, quota()),
    ]);
    expect(results.map((r) => r.counts.logs).sort()).toEqual([0, 40]);
    expect(results.map((r) => r.alreadyAccepted).sort((a, b) => a - b)).toEqual([0, 45]);
    const ids = batch.logs.map((l) => l.id);
    expect(await count(sql`SELECT COUNT(*) AS n FROM logs WHERE id = ANY(${ids})`)).toBe(40);
    expect(
      await count(sql`SELECT occurrence_count AS n FROM issues WHERE fingerprint = ${fingerprint}`),
    ).toBe(5);
  });

  it('batches of one account racing for the rest of a quota, on two instances and two projects, never pass it', async () => {
    const limit = { issue_events: 0 };
    const used = await count(
      sql`SELECT COALESCE(SUM(events), 0) AS n FROM usage_counters WHERE stream = 'issues'`,
    );
    limit.issue_events = used + 10;
    // Eight batches of three: three fit (nine events), the fourth would pass ten.
    const attempts = Array.from({ length: 8 }, (_, k) => {
      const store = k % 2 === 0 ? one : two;
      const batch = batchOf(projects[k % 2] ?? '', {
        issues: [1, 2, 3].map(() => issue(`race-${String(k)}`)),
      });
      return store.ingest.accept(batch, NOW, quota(limit)).then(
        () => 'stored' as const,
        (e: unknown) => {
          if (e instanceof QuotaExceededError && e.limit === 'issue_events')
            return 'quota' as const;
          throw e;
        },
      );
    });
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((o) => o === 'stored')).toHaveLength(3);
    expect(
      await count(
        sql`SELECT COALESCE(SUM(events), 0) AS n FROM usage_counters WHERE stream = 'issues'`,
      ),
    ).toBe(used + 9);
    expect(await count(sql`SELECT COUNT(*) AS n FROM issues WHERE fingerprint LIKE 'race-%'`)).toBe(
      3,
    );
  });

  it('a month that retention dropped in another process takes events again', async () => {
    const january = Date.parse('2026-01-10T00:00:00.000Z');
    const old = (n: number) => ({ ...log(n), occurredAt: january });
    const first = batchOf(projects[0] ?? '', { logs: [old(1)], issues: [issue('old', january)] });
    await one.ingest.accept(first, NOW, quota());
    // Retention run elsewhere: this store still believes January's partitions exist.
    await two.pg.db.tx((tx) => dropPartitionsBefore(tx, Date.parse('2026-02-01T00:00:00.000Z')));
    const again = batchOf(projects[0] ?? '', { logs: [old(2)], issues: [issue('old', january)] });
    const result = await one.ingest.accept(again, NOW, quota());
    expect(result.counts).toMatchObject({ logs: 1, issues: 1 });
    expect(await count(sql`SELECT COUNT(*) AS n FROM logs WHERE occurred_at = ${january}`)).toBe(1);
  });

  it('a batch of 5,000 logs takes as many statements as one of 10', async () => {
    const statementsFor = async (n: number) => {
      const c = counted(one.pg);
      const batch = batchOf(projects[1] ?? '', {
        logs: Array.from({ length: n }, (_, i) => log(i)),
      });
      const result = await pgTelemetry(c.ctx).accept(batch, NOW, quota());
      expect(result.counts.logs).toBe(n);
      return c.statements();
    };
    // The first batch may also create the partitions of its month.
    await statementsFor(10);
    const small = await statementsFor(10);
    const big = await statementsFor(5_000);
    expect(big).toBe(small);
  }, 60_000);
});
